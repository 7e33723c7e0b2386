//===- CodeActions.cpp - textDocument/codeAction --------------------------===//
//
// The fix-its the compiler attaches to its diagnostics (Diagnostic::fixIts,
// e.g. the parser's missing `;`) as quick fixes: one action per diagnostic
// in the requested range, its title saying what the edit does, the
// diagnostic attached so the editor shows the fix on its squiggle.
// Tests: tests/lit/lsp/code-actions.test.
//
//===----------------------------------------------------------------------===//

#include "blk/Lsp/Features.h"
#include "blk/Lsp/Uri.h"

namespace blk::lsp {

using nlohmann::json;

/// `insert `;``, `replace `x` with `y``, `remove `z``.
static std::string describe(const Analysis &analysis, const FixIt &fix) {
  std::string_view text =
      analysis.sourceManager().getText(fix.range.begin.file);
  std::string old;
  if (fix.range.end.offset <= text.size() &&
      fix.range.begin.offset <= fix.range.end.offset)
    old = std::string(text.substr(fix.range.begin.offset, fix.range.length()));
  if (old.empty())
    return "insert `" + fix.replacement + "`";
  if (fix.replacement.empty())
    return "remove `" + old + "`";
  return "replace `" + old + "` with `" + fix.replacement + "`";
}

json codeActions(const Analysis &analysis, uint32_t begin, uint32_t end) {
  json actions = json::array();
  std::string uri =
      pathToUri(analysis.sourceManager().getPath(analysis.mainFile));
  for (const Diagnostic &diag : analysis.diagnostics) {
    if (diag.fixIts.empty() || !diag.range.isValid() ||
        diag.range.begin.file != analysis.mainFile ||
        diag.range.end.offset < begin || diag.range.begin.offset > end)
      continue;
    json edits = json::array();
    std::string title;
    bool inDocument = true;
    for (const FixIt &fix : diag.fixIts) {
      inDocument = inDocument && fix.range.isValid() &&
                   fix.range.begin.file == analysis.mainFile;
      edits.push_back({{"range", toLspRange(analysis, fix.range)},
                       {"newText", fix.replacement}});
      title += (title.empty() ? "" : ", ") + describe(analysis, fix);
    }
    if (!inDocument)
      continue;
    title[0] = char(std::toupper(static_cast<unsigned char>(title[0])));
    actions.push_back(
        {{"title", title},
         {"kind", "quickfix"},
         {"isPreferred", true},
         {"diagnostics", json::array({lspDiagnostic(analysis, diag)})},
         {"edit", {{"changes", {{uri, std::move(edits)}}}}}});
  }
  return actions;
}

} // namespace blk::lsp
