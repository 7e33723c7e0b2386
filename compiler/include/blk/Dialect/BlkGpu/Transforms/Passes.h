//===- Passes.h - blkgpu passes and the back-end pipeline -------*- C++ -*-===//
#ifndef BLK_DIALECT_BLKGPU_TRANSFORMS_PASSES_H
#define BLK_DIALECT_BLKGPU_TRANSFORMS_PASSES_H

#include "blk/Dialect/BlkGpu/IR/BlkGpuDialect.h"
#include "blk/Target/BackendChoices.h"
#include "blk/Target/GpuTarget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace blk::gpu {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "blk/Dialect/BlkGpu/Transforms/Passes.h.inc"

/// The runtime unroll count blkgpu-loop-unroll-hints puts on an scf.for.
constexpr llvm::StringLiteral kUnrollAttr = "blkgpu.unroll";

/// Appends the back-end passes, blk IR -> blkgpu IR ready for the emitter,
/// to `pm` (anchored on builtin.module). `blkc build --emit=gpu-ir` prints
/// the result; `blk-opt --blkgpu-pipeline` runs exactly this list.
void buildGpuPipeline(mlir::OpPassManager &pm, const GpuTarget &target,
                      const BackendChoices &choices = {});

/// Registers every blkgpu pass (registerBlkGpuPasses, generated) and the
/// `blkgpu-pipeline` pipeline.
void registerGpuPasses();

} // namespace blk::gpu

#endif // BLK_DIALECT_BLKGPU_TRANSFORMS_PASSES_H
