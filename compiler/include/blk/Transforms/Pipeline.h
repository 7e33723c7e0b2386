//===- Pipeline.h - the blk optimisation pipeline ---------------*- C++ -*-===//
#ifndef BLK_TRANSFORMS_PIPELINE_H
#define BLK_TRANSFORMS_PIPELINE_H

#include "llvm/ADT/ArrayRef.h"

#include <string>

namespace mlir {
class OpPassManager;
class PassManager;
} // namespace mlir

namespace blk {

/// Appends the block-IR optimisation passes (docs/ir.md, "Pass pipeline") to
/// `pm`, which must be anchored on builtin.module. `blkc build --emit=ir-opt`
/// and `blk-opt --blk-optimize` run exactly this list.
void buildOptimizationPipeline(mlir::OpPassManager &pm);

/// Appends the passes that complete IRGen's lowering, which every consumer
/// of block IR needs, optimised or not (the interpreter without `--opt`
/// too): blk-make-persistent. lowerToBlockIR runs them right after IRGen.
void buildLoweringPipeline(mlir::OpPassManager &pm);

/// `--print-after=PASS` (pass arguments, e.g. `cse`, `blkgpu-coalesce`) and
/// `--print-after-all`: prints the module after those passes on stderr.
/// Nothing when both are empty. Disables the context's multithreading (IR
/// printing needs it).
void enablePassPrinting(mlir::PassManager &pm, llvm::ArrayRef<std::string> names,
                        bool all);

} // namespace blk

#endif // BLK_TRANSFORMS_PIPELINE_H
