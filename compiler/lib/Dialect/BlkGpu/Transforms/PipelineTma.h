//===- PipelineTma.h - TMA rings for blkgpu-pipeline-loops -----*- C++ -*-===//
//
// What blkgpu-pipeline-loops (PipelineLoops.cpp) needs to fill a ring with
// TMA instead of cp.async: the tensor maps, the run-time condition under
// which every box reads what its load reads, and the loop versioned on it.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LIB_DIALECT_BLKGPU_TRANSFORMS_PIPELINETMA_H
#define BLK_LIB_DIALECT_BLKGPU_TRANSFORMS_PIPELINETMA_H

#include "blk/Dialect/BlkGpu/IR/BlkGpuDialect.h"
#include "blk/Dialect/BlkGpu/Transforms/TmaTile.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace blk::gpu {

/// The swizzle (0, 32, 64 or 128 bytes) TMA writes `view` with, when its
/// layout is one TMA writes (TmaLoadOp's verifier): rows along the last
/// dim, NVMMA column blocks.
std::optional<unsigned> tmaSwizzle(MemDescType view);

/// The slot a TMA copy of `tile` writes: `slot` itself or its transpose.
mlir::Value tmaView(mlir::OpBuilder &b, mlir::Location loc, mlir::Value slot,
                    const TmaTile &tile);

/// A blkgpu.tensor_map for `tile` at the top of `func`'s entry block
/// (boxes of `view`'s rows by one column block).
TensorMapOp buildTensorMap(mlir::func::FuncOp func, const TmaTile &tile, MemDescType view);

/// The coordinates (rows, columns) of `tile`'s box in this iteration.
llvm::SmallVector<mlir::Value> buildTmaCoords(mlir::OpBuilder &b, mlir::Location loc,
                                              const TmaTile &tile);

/// True at run time when every tile's box reads what its load reads and
/// the tensor maps can be encoded: a wrapped dim's box inside it, every
/// extent at least 1. Built at `b` (before the loop).
mlir::Value buildTmaCondition(mlir::OpBuilder &b, mlir::Location loc,
                              llvm::ArrayRef<TmaTile> tiles);

/// `loop` as `scf.if cond { clone } else { loop }`; returns (clone, loop).
std::pair<mlir::scf::ForOp, mlir::scf::ForOp> versionLoop(mlir::scf::ForOp loop, mlir::Value cond);

} // namespace blk::gpu

#endif // BLK_LIB_DIALECT_BLKGPU_TRANSFORMS_PIPELINETMA_H
