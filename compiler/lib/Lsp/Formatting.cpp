//===- Formatting.cpp - textDocument/formatting ---------------------------===//
//
// The document in blkc fmt's layout (blk/Format), as one edit that replaces
// only the region between the common prefix and suffix of the old and new
// text, so the editor keeps the cursor and folds elsewhere. A document with
// syntax errors is refused, as `blkc fmt` refuses such a file.
// Tests: tests/lit/lsp/formatting.test.
//
//===----------------------------------------------------------------------===//

#include "Fallback.h"
#include "blk/Format/Format.h"
#include "blk/Lsp/Features.h"

namespace blk::lsp {

using nlohmann::json;

json formattingEdits(const Analysis &analysis, std::string &error) {
  if (hasSyntaxErrors(analysis)) {
    error = "the document has syntax errors; fix them to format it";
    return nullptr;
  }
  std::string_view text = analysis.text();
  std::string formatted = formatSource(text);
  size_t limit = std::min(text.size(), formatted.size());
  size_t prefix = 0;
  while (prefix < limit && text[prefix] == formatted[prefix])
    ++prefix;
  size_t suffix = 0;
  while (suffix < limit - prefix &&
         text[text.size() - 1 - suffix] ==
             formatted[formatted.size() - 1 - suffix])
    ++suffix;
  json edits = json::array();
  if (prefix == text.size() && text.size() == formatted.size())
    return edits; // already formatted
  SourceRange range(
      SourceLoc{analysis.mainFile, uint32_t(prefix)},
      SourceLoc{analysis.mainFile, uint32_t(text.size() - suffix)});
  edits.push_back({{"range", toLspRange(analysis, range)},
                   {"newText", formatted.substr(prefix, formatted.size() -
                                                            suffix - prefix)}});
  return edits;
}

} // namespace blk::lsp
