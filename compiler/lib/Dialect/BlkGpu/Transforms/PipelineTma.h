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

/// A load the ring prefetches and the buffer it fills, possibly through a
/// trans (`dot(a, trans(b))`: the slot holds the transposed view).
struct Prefetch {
  LoadOp load;
  TransOp trans; ///< null when the load fills the buffer directly
  LocalAllocOp alloc;
};

// --- PipelineLoops.cpp, shared with WarpSpecialize.cpp --------------------

/// Moves an operand buffer that a branch of `loop`'s body fills from a
/// load of the body (a dot under an `if`) up to that load, so that
/// findPrefetches takes it: the ring's wait and slot view are then at the
/// body's level, where every iteration passes them.
void hoistOperandBuffers(mlir::scf::ForOp loop);
/// The loads of `loop`'s body that fill a tensor-core operand buffer at
/// the body's level.
llvm::SmallVector<Prefetch> findPrefetches(mlir::scf::ForOp loop);
/// The TMA boxes of every prefetch of `loop`, when each is one (TmaTile.h)
/// into a slot TMA writes, and only wgmmas read the slots.
std::optional<llvm::SmallVector<TmaTile, 2>> planTma(mlir::scf::ForOp loop,
                                                     llvm::MutableArrayRef<Prefetch> prefetches);
/// (iv - lb) / step: the number of the iteration `iv` is.
mlir::Value iterationOf(mlir::OpBuilder &b, mlir::Location loc, mlir::scf::ForOp loop);
/// `x` as an i32 (ring indices and phases are).
mlir::Value toI32(mlir::OpBuilder &b, mlir::Location loc, mlir::Value x);
/// Iteration % stages: the ring slot of the iteration the body runs.
mlir::Value slotOf(mlir::OpBuilder &b, mlir::Location loc, mlir::scf::ForOp loop, unsigned stages);
/// Iteration / slots % 2: the mbarrier phase parity the iteration waits for.
mlir::Value phaseOf(mlir::OpBuilder &b, mlir::Location loc, mlir::scf::ForOp loop, unsigned slots);
/// True when `wgmma` can run on into the next iteration (its accumulator
/// only carried, both operands ring slots).
bool canOverlap(mlir::scf::ForOp loop, WarpGroupDotOp wgmma);
/// Lets each wgmma of `loop` that canOverlap run on (pending = 1), waited
/// for after the loop.
void overlapWgmma(mlir::scf::ForOp loop);
/// True when `wgmma` may run on into the next iteration although ops there
/// read its accumulator (attention's P·V, whose acc · α comes after the
/// next Q·Kᵀ): its result is yielded and read in the next iteration (the
/// wait goes there), and each operand in shared memory is
/// a ring slot (`isSlot`) or a buffer from outside the loop (one stored in
/// the loop would be overwritten under the running wgmma).
bool canRunOn(mlir::scf::ForOp loop, WarpGroupDotOp wgmma,
              llvm::function_ref<bool(mlir::Value)> isSlot);
/// The first op of `body` that uses `v`, itself or through an op nested in
/// it; null when none does.
mlir::Operation *firstUserInBlock(mlir::Block *body, mlir::Value v);
/// Lets such a wgmma run on (pending = 1): its accumulator is waited for
/// before its first reader in the next iteration and after the loop.
/// Returns that wait in the body.
mlir::Operation *runOnIntoNextIteration(mlir::scf::ForOp loop, WarpGroupDotOp wgmma);

// --- WarpSpecialize.cpp ---------------------------------------------------

/// Moves `func`'s body (all but its tensor maps and its return) into the
/// consumer region of a new blkgpu.warp_specialize, whose producer region
/// is empty: the producer warps then exit at once.
WarpSpecializeOp wrapInWarpSpecialize(mlir::func::FuncOp func);

/// Warp specialisation of a TMA loop (`tiles` of its `prefetches`,
/// planTma): the producer region of `ws` gets a loop that fills `stages`
/// slots per ring with TMA, waiting on an "empty" mbarrier per slot; the
/// consumers wait on a "full" mbarrier per slot and release each slot
/// (mbarrier_arrive) once its wgmma is done. False, with nothing changed,
/// when the producer cannot compute where the boxes are (the loop is not
/// under then-branches of the consumer region alone, or its bounds, the
/// branch conditions or the boxes' coordinates need more than scalar
/// integer arithmetic of the arguments and program ids).
bool specializeLoop(mlir::scf::ForOp loop, llvm::MutableArrayRef<Prefetch> prefetches,
                    llvm::ArrayRef<TmaTile> tiles, unsigned stages, WarpSpecializeOp ws);

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
