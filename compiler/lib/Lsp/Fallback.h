//===- Fallback.h - Answering from the last version that parsed -*- C++ -*-===//
//
// While a statement is being typed its declaration does not parse, and the
// parser drops it (ParseOptions::keepValidDecls): hover, definition,
// completion and the outline would lose the whole kernel. A cursor request
// inside such a declaration is answered from the last analysis in which the
// document had no syntax error, with the cursor mapped into that version
// and the answer's ranges mapped back (EditMap). Declarations that parse
// now are always answered from the current analysis.
// Tests: tests/lit/lsp/lsp_e2e.py (testLastGoodFallback).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LIB_LSP_FALLBACK_H
#define BLK_LIB_LSP_FALLBACK_H

#include "blk/Lsp/Analysis.h"
#include "blk/Lsp/EditMap.h"

#include <nlohmann/json.hpp>

namespace blk::lsp {

/// True when `analysis` reported a lexical or syntax error in its own file.
bool hasSyntaxErrors(const Analysis &analysis);

/// The analysis that answers a cursor request, and the cursor in its text.
struct CursorTarget {
  const Analysis *analysis = nullptr;
  uint32_t offset = 0;
  /// Set when `analysis` is the last good one (an older text): maps its
  /// text to the current one.
  const EditMap *map = nullptr;
};

/// Where to answer a request at `offset` of `current`'s text: `current`,
/// unless the cursor is in a part that does not parse and `lastGood` (may
/// be null) has it. `sinceLastGood` maps lastGood's text to current's.
CursorTarget cursorTarget(const Analysis &current, const Analysis *lastGood,
                          const EditMap &sinceLastGood, uint32_t offset);

/// Rewrites the ranges of `result` that lie in the document (computed on
/// `target.analysis`) into positions of `current`'s text. No-op when the
/// target is `current`.
void mapToCurrent(nlohmann::json &result, const CursorTarget &target,
                  const Analysis &current);

/// documentSymbols of `current`, plus the declarations of `lastGood` that
/// `current` lost to a syntax error, mapped into the current text.
nlohmann::json symbolsWithFallback(const Analysis &current,
                                   const Analysis *lastGood,
                                   const EditMap &sinceLastGood);

} // namespace blk::lsp

#endif // BLK_LIB_LSP_FALLBACK_H
