//===- Diagnostics.cpp - blk diagnostics as LSP Diagnostic objects --------===//
//
// Maps each Diagnostic of a check to LSP: exact range (0-based lines, UTF-16
// columns), severity, `code` = the stable id of DiagnosticKinds.def,
// `source` = "blkc", labels and notes as relatedInformation (notes without
// a location are appended to the message). A diagnostic located in an
// imported file is shown on the document's first `import` with the real
// location in relatedInformation, so the user sees it in the open file.
// Tests: tests/lit/lsp/lsp_e2e.py.
//
//===----------------------------------------------------------------------===//

#include "blk/Lsp/Features.h"
#include "blk/Lsp/Uri.h"

namespace blk::lsp {

using nlohmann::json;

json toLspRange(const Analysis &analysis, SourceRange range) {
  if (!range.isValid())
    return {{"start", {{"line", 0}, {"character", 0}}},
            {"end", {{"line", 0}, {"character", 0}}}};
  const LineIndex &index = analysis.lineIndex(range.begin.file);
  Position b = index.position(range.begin.offset);
  Position e =
      index.position(range.end.file == range.begin.file ? range.end.offset
                                                        : range.begin.offset);
  return {{"start", {{"line", b.line}, {"character", b.character}}},
          {"end", {{"line", e.line}, {"character", e.character}}}};
}

json toLspLocation(const Analysis &analysis, SourceRange range) {
  std::string path = range.isValid()
                         ? analysis.sourceManager().getPath(range.begin.file)
                         : analysis.sourceManager().getPath(analysis.mainFile);
  return {{"uri", pathToUri(path)}, {"range", toLspRange(analysis, range)}};
}

static int lspSeverity(Severity severity) {
  switch (severity) {
  case Severity::Error:
    return 1;
  case Severity::Warning:
    return 2;
  case Severity::Note:
    return 3;
  }
  return 1;
}

/// Where diagnostics of imported files are shown in the document.
static SourceRange importAnchor(const Analysis &analysis) {
  if (analysis.module)
    for (const ast::Decl *d : analysis.module->decls)
      if (ast::isa<ast::ImportDecl>(d))
        return d->getRange();
  return SourceRange(analysis.mainFile, 0, 0);
}

static std::string locationText(const Analysis &analysis, SourceRange range) {
  const SourceManager &sm = analysis.sourceManager();
  LineCol lc = sm.getLineCol(range.begin);
  return sm.getPath(range.begin.file) + ":" + std::to_string(lc.line) + ":" +
         std::to_string(lc.col);
}

json lspDiagnostic(const Analysis &analysis, const Diagnostic &diag) {
  bool inDocument =
      !diag.range.isValid() || diag.range.begin.file == analysis.mainFile;
  std::string message = diag.message;
  json related = json::array();
  SourceRange range =
      diag.range.isValid() ? diag.range : SourceRange(analysis.mainFile, 0, 0);
  if (!inDocument) {
    message = "in " + locationText(analysis, diag.range) + ": " + message;
    related.push_back({{"location", toLspLocation(analysis, diag.range)},
                       {"message", diag.message}});
    range = importAnchor(analysis);
  }
  for (const DiagnosticLabel &label : diag.labels)
    if (label.range.isValid())
      related.push_back({{"location", toLspLocation(analysis, label.range)},
                         {"message", label.message}});
  for (const DiagnosticNote &note : diag.notes) {
    if (note.range.isValid())
      related.push_back({{"location", toLspLocation(analysis, note.range)},
                         {"message", note.message}});
    else
      message += "\nnote: " + note.message;
  }
  json d = {{"range", toLspRange(analysis, range)},
            {"severity", lspSeverity(diag.severity)},
            {"code", std::string(diagIdName(diag.id))},
            {"source", "blkc"},
            {"message", message}};
  if (!related.empty())
    d["relatedInformation"] = std::move(related);
  return d;
}

json lspDiagnostics(const Analysis &analysis) {
  json out = json::array();
  for (const Diagnostic &diag : analysis.diagnostics)
    out.push_back(lspDiagnostic(analysis, diag));
  return out;
}

} // namespace blk::lsp
