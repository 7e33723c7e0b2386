//===- ShiftRange.h - Moving a source range within its file ----*- C++ -*-===//
//
// The language server reuses a declaration's AST and diagnostics when only
// its offset changed (Module::shift, lsp::shiftDiagnostic): every range
// moves by the same number of bytes.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_SUPPORT_SHIFTRANGE_H
#define BLK_SUPPORT_SHIFTRANGE_H

#include "blk/Support/SourceLocation.h"

#include <cstdint>

namespace blk {

/// Moves `range` by `delta` bytes; an invalid range stays invalid.
inline void shiftRange(SourceRange &range, int64_t delta) {
  if (!range.isValid())
    return;
  range.begin.offset = static_cast<uint32_t>(range.begin.offset + delta);
  range.end.offset = static_cast<uint32_t>(range.end.offset + delta);
}

} // namespace blk

#endif // BLK_SUPPORT_SHIFTRANGE_H
