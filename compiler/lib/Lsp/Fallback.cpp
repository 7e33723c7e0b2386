//===- Fallback.cpp - Answering from the last version that parsed ---------===//

#include "Fallback.h"

#include "blk/Lsp/Features.h"
#include "blk/Lsp/Uri.h"

#include <algorithm>
#include <set>

namespace blk::lsp {

using nlohmann::json;

static bool isSyntaxDiagnostic(const Diagnostic &d) {
  std::string_view id = diagIdName(d.id);
  return id.starts_with("parse_") || id.starts_with("lex_");
}

bool hasSyntaxErrors(const Analysis &analysis) {
  for (const Diagnostic &d : analysis.diagnostics)
    if (d.severity == Severity::Error && isSyntaxDiagnostic(d) &&
        (!d.range.isValid() || d.range.begin.file == analysis.mainFile))
      return true;
  return false;
}

/// True when `offset` lies in a declaration of `analysis` that holds no
/// syntax error: the current analysis knows it completely.
static bool inCleanDecl(const Analysis &analysis, uint32_t offset) {
  if (!analysis.module)
    return false;
  for (const ast::Decl *d : analysis.module->decls) {
    SourceRange r = d->getRange();
    if (offset < r.begin.offset || offset > r.end.offset)
      continue;
    for (const Diagnostic &diag : analysis.diagnostics)
      if (isSyntaxDiagnostic(diag) && diag.range.isValid() &&
          diag.range.begin.file == analysis.mainFile &&
          diag.range.begin.offset >= r.begin.offset &&
          diag.range.begin.offset <= r.end.offset)
        return false;
    return true;
  }
  return false;
}

/// True when `offset` of `analysis`'s text lies in one of its declarations.
static bool inDecl(const Analysis &analysis, uint32_t offset) {
  if (!analysis.module)
    return false;
  for (const ast::Decl *d : analysis.module->decls)
    if (d->getRange().begin.offset <= offset &&
        offset <= d->getRange().end.offset)
      return true;
  return false;
}

CursorTarget cursorTarget(const Analysis &current, const Analysis *lastGood,
                          const EditMap &sinceLastGood, uint32_t offset) {
  CursorTarget target{&current, offset, nullptr};
  if (!lastGood || lastGood == &current || !hasSyntaxErrors(current) ||
      inCleanDecl(current, offset))
    return target;
  uint32_t old = sinceLastGood.toOld(offset);
  if (!inDecl(*lastGood, old))
    return target;
  return CursorTarget{lastGood, old, &sinceLastGood};
}

/// Maps one LSP range object {start, end} of the old text into the new.
static void mapRange(json &range, const LineIndex &oldIndex,
                     const LineIndex &newIndex, const EditMap &map) {
  auto convert = [&](json &pos, bool atEnd) {
    if (!pos.is_object() || !pos["line"].is_number() ||
        !pos["character"].is_number())
      return;
    uint32_t old = oldIndex.offset(
        {pos["line"].get<unsigned>(), pos["character"].get<unsigned>()});
    Position p = newIndex.position(map.toNew(old, atEnd));
    pos = {{"line", p.line}, {"character", p.character}};
  };
  if (!range.is_object())
    return;
  convert(range["start"], false);
  convert(range["end"], true);
}

static void mapRanges(json &node, bool inDocument, const std::string &docUri,
                      const LineIndex &oldIndex, const LineIndex &newIndex,
                      const EditMap &map) {
  if (node.is_array()) {
    for (json &child : node)
      mapRanges(child, inDocument, docUri, oldIndex, newIndex, map);
    return;
  }
  if (!node.is_object())
    return;
  if (auto uri = node.find("uri"); uri != node.end() && uri->is_string())
    inDocument = *uri == docUri;
  for (auto it = node.begin(); it != node.end(); ++it) {
    if (inDocument && (it.key() == "range" || it.key() == "selectionRange"))
      mapRange(it.value(), oldIndex, newIndex, map);
    else
      mapRanges(it.value(), inDocument, docUri, oldIndex, newIndex, map);
  }
}

void mapToCurrent(json &result, const CursorTarget &target,
                  const Analysis &current) {
  if (!target.map || target.analysis == &current)
    return;
  const Analysis &old = *target.analysis;
  std::string docUri = pathToUri(old.sourceManager().getPath(old.mainFile));
  mapRanges(result, true, docUri, old.lineIndex(old.mainFile),
            current.lineIndex(current.mainFile), *target.map);
}

json symbolsWithFallback(const Analysis &current, const Analysis *lastGood,
                         const EditMap &sinceLastGood) {
  json symbols = documentSymbols(current);
  if (!lastGood || lastGood == &current || !hasSyntaxErrors(current))
    return symbols;
  std::set<std::string> present;
  for (const json &s : symbols)
    present.insert(s["name"].get<std::string>());
  CursorTarget target{lastGood, 0, &sinceLastGood};
  for (json &s : documentSymbols(*lastGood)) {
    if (present.count(s["name"].get<std::string>()))
      continue;
    mapToCurrent(s, target, current);
    symbols.push_back(std::move(s));
  }
  // Keep the outline in source order.
  std::stable_sort(symbols.begin(), symbols.end(),
                   [](const json &a, const json &b) {
                     const json &pa = a["range"]["start"];
                     const json &pb = b["range"]["start"];
                     return std::make_pair(pa["line"].get<unsigned>(),
                                           pa["character"].get<unsigned>()) <
                            std::make_pair(pb["line"].get<unsigned>(),
                                           pb["character"].get<unsigned>());
                   });
  return symbols;
}

} // namespace blk::lsp
