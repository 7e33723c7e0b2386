//===- Utility.h - what the blkgpu passes and the emitter share -*- C++ -*-===//
//
// Access hints recorded by blkgpu-annotate-access-hints, and the op classes
// that layout assignment and conversion removal reason about.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_DIALECT_BLKGPU_TRANSFORMS_UTILITY_H
#define BLK_DIALECT_BLKGPU_TRANSFORMS_UTILITY_H

#include "blk/Analysis/AxisInfo.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/Support/LogicalResult.h"

#include "llvm/ADT/SmallVector.h"

namespace blk::gpu {

/// What axis info says about a memory access along each dim of the pointer
/// block: elements contiguous in memory, byte alignment of the first of each
/// run, and how many neighbouring mask elements are equal.
struct AccessHints {
  llvm::SmallVector<int64_t> contiguity;
  llvm::SmallVector<int64_t> alignBytes;
  llvm::SmallVector<int64_t> maskConstancy;
};

/// The recorded hints of a memory op (all 1: nothing known, when absent).
AccessHints getAccessHints(mlir::Operation *memOp);

/// The hints of `memOp` (a block memory op of blk IR) as `analysis` proves
/// them: what blkgpu-annotate-access-hints records.
AccessHints computeAccessHints(const AxisInfoAnalysis &analysis, mlir::Operation *memOp);

/// A load, store or atomic whose pointer is a block.
bool isBlockMemoryOp(mlir::Operation *op);

/// Elementwise ops: arith/math ops (not constants) and blk.addptr /
/// ptr_cast / ptr_to_int / multiple_of / max_contiguous; operands and
/// results share shape and layout.
bool isElementwise(mlir::Operation *op);

/// True when `value` is computed by cheap ops from make_range, splat and
/// constants only, so it can be recomputed in any layout instead of moved.
/// With `throughConversions`, a convert_layout counts as cheap too: index
/// arithmetic that assign-layouts or coalesce already converted is still
/// index arithmetic (blkgpu-propagate-mma-layouts' stores).
bool isRematerialisable(mlir::Value value, bool throughConversions = false,
                        unsigned depth = 0);

/// A blkgpu.wgmma_wait on `acc` (at most `pending` wgmma groups left in
/// flight) where `b` stands; every other user of `acc` reads the wait's
/// result instead (blkgpu-pipeline-loops, blkgpu-defer-wgmma-waits).
void waitForWgmma(mlir::OpBuilder &b, mlir::Location loc, mlir::Value acc, int32_t pending);

} // namespace blk::gpu

#endif // BLK_DIALECT_BLKGPU_TRANSFORMS_UTILITY_H
