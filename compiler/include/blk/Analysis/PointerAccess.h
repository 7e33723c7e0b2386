//===- PointerAccess.h - how a kernel uses each pointer argument -*- C++ -*-===//
//
// For each argument of a kernel func in blk IR (before layouts), whether the kernel reads, writes or atomically updates memory
// reached from it. Each load, store and atomic's pointer operand is traced
// back to the func's arguments through every op that derives pointers
// (addptr, splat, broadcast, expand_dims, reshape, trans, ptr_cast, hints,
// select: any op whose pointer result comes from pointer operands) and
// through the values scf.for / scf.while / scf.if carry. A pointer that
// cannot be traced to an argument is taken to reach every pointer
// argument: a load reads, a store reads and writes, an atomic updates all
// of them (the runtime may skip saving a buffer the manifest says is not
// written, so a guess must err towards "written").
// The manifest records it per pointer parameter (docs/manifest.md,
// "access"); `blk-opt --blk-test-print-pointer-access` prints it
// (tests/lit/transforms/blk-test-print-pointer-access.mlir).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_ANALYSIS_POINTERACCESS_H
#define BLK_ANALYSIS_POINTERACCESS_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <vector>

namespace mlir::func {
class FuncOp;
} // namespace mlir::func

namespace blk {

/// What a kernel does to the memory one pointer argument reaches; a set of
/// bits, so that the uses of several specialisations can be or-ed.
enum class PointerAccess : uint8_t { None = 0, Read = 1, Write = 2, ReadWrite = 3, Atomic = 4 };

inline PointerAccess operator|(PointerAccess a, PointerAccess b) {
  return PointerAccess(uint8_t(a) | uint8_t(b));
}

/// `none`, `read`, `write`, `readwrite` or `atomic` (any set with the
/// atomic bit, whether or not the kernel also loads or stores through it).
llvm::StringRef pointerAccessName(PointerAccess access);

/// One entry per argument of `func` (None for non-pointer arguments).
std::vector<PointerAccess> analyzePointerAccess(mlir::func::FuncOp func);

} // namespace blk

#endif // BLK_ANALYSIS_POINTERACCESS_H
