//===- LayoutPasses.h - blk IR -> blkgpu IR ---------------------*- C++ -*-===//
//
// The two passes that make blkgpu IR, run in this order by assignLayouts()
// (Codegen.h): each can also run alone (blk-codegen-test --pass=...).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_CONVERSION_LAYOUTPASSES_H
#define BLK_CONVERSION_LAYOUTPASSES_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
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

/// Runs blk::AxisInfoAnalysis on the (still layout-free) kernel and records
/// each block memory op's AccessHints on it as `blkgpu.contiguity`,
/// `blkgpu.align` and `blkgpu.mask_constancy`, so that layout assignment and
/// the emitter agree on what was proven.
void annotateAccessHints(mlir::func::FuncOp func);

/// The recorded hints of a memory op (all 1: nothing known, when absent).
AccessHints getAccessHints(mlir::Operation *memOp);

/// Gives every tensor a layout encoding: memory ops get the coalesced,
/// vectorised blocked layout from their AccessHints, the rest follow their
/// operands; blkgpu.convert_layout goes wherever a consumer needs another
/// layout. Fails (with a diagnostic) on ops it does not know.
mlir::LogicalResult assignLayouts(mlir::func::FuncOp func);

/// Removes conversions that are not needed: chained conversions fold, and
/// conversions of cheap index computations (make_range, splat, constants
/// and elementwise ops on them) are replaced by recomputing in the target
/// layout; dead ops are erased.
void removeLayoutConversions(mlir::func::FuncOp func);

/// Elementwise ops: arith/math ops (not constants) and blk.addptr /
/// multiple_of / max_contiguous; operands and results share shape and layout.
bool isElementwise(mlir::Operation *op);

/// True when `value` is computed by cheap ops from make_range, splat and
/// constants only, so it can be recomputed in any layout instead of moved.
bool isRematerialisable(mlir::Value value, unsigned depth = 0);

} // namespace blk::gpu

#endif // BLK_CONVERSION_LAYOUTPASSES_H
