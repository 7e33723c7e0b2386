//===- Pipeline.h - the blk optimisation pipeline ---------------*- C++ -*-===//
#ifndef BLK_TRANSFORMS_PIPELINE_H
#define BLK_TRANSFORMS_PIPELINE_H

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace blk {

/// Appends the block-IR optimisation passes (docs/ir.md, "Pass pipeline") to
/// `pm`, which must be anchored on builtin.module. `blkc build --emit=ir-opt`
/// and `blk-opt --blk-optimize` run exactly this list.
void buildOptimizationPipeline(mlir::OpPassManager &pm);

} // namespace blk

#endif // BLK_TRANSFORMS_PIPELINE_H
