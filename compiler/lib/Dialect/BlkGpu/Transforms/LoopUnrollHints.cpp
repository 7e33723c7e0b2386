//===- LoopUnrollHints.cpp - --blkgpu-loop-unroll-hints -------------------===//
//
// A loop whose trip count is only known at run time (`for i in range(0,
// cdiv(N, BLOCK))`) waits for each iteration's global loads before it can
// issue the next ones: one 16-byte load per thread in flight is far too
// little to cover DRAM latency (layernorm's statistics pass). LLVM's NVPTX
// heuristics do not unroll such bodies (over its partial-unroll size
// threshold), and ptxas does not unroll loops of unknown trip count, so this
// pass marks the loop `blkgpu.unroll = N` and the emitter asks LLVM for a
// runtime unroll (`llvm.loop.unroll.count`, with a
// remainder loop) sized so that one unrolled body loads about
// kLoadBytesInFlight bytes per thread. Loops with a compile-time trip count
// are left to LLVM's and ptxas's own full unrolling; loops that contain
// loops, or ops that synchronise the program (reductions, scans, layout
// conversions, dot, atomics, print/assert: barriers and warp shuffles are
// convergent, and LLVM refuses to runtime-unroll them), are left alone.
// Tests: blkgpu/loop-unroll-hints.mlir, codegen/loop-unroll.test.
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/IR/Layout.h"
#include "blk/Dialect/BlkGpu/Transforms/Passes.h"
#include "blk/IR/BlkOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <algorithm>

using namespace mlir;

namespace blk::gpu {

#define GEN_PASS_DEF_LOOPUNROLLHINTS
#include "blk/Dialect/BlkGpu/Transforms/Passes.h.inc"

/// Bytes of global loads per thread one unrolled loop body aims for
/// (4 x 16-byte vectors).
constexpr unsigned kLoadBytesInFlight = 64;
constexpr unsigned kMaxUnrollCount = 4;

static bool isConstant(Value v) { return v.getDefiningOp<arith::ConstantOp>() != nullptr; }

static unsigned loopUnrollCount(scf::ForOp loop) {
  if (isConstant(loop.getLowerBound()) && isConstant(loop.getUpperBound()) &&
      isConstant(loop.getStep()))
    return 1;
  uint64_t bytes = 0;
  bool blocked = false;
  loop.getBody()->walk([&](Operation *op) {
    if (isa<scf::ForOp, scf::WhileOp, ReduceOp, ScanOp, DotOp, AtomicRMWOp, AtomicCASOp,
            PrintOp, AssertOp, ConvertLayoutOp, BarrierOp, LocalStoreOp, LocalLoadOp,
            LocalAllocOp, AsyncCopyOp, AsyncWaitOp, WarpGroupDotOp, MmaSyncOp, TmaLoadOp,
            MbarrierWaitOp>(op)) {
      blocked = true;
      return;
    }
    auto load = dyn_cast<LoadOp>(op);
    if (!load)
      return;
    Type elem = blk::getElementTypeOrSelf(load.getResult().getType());
    uint64_t size = std::max<uint64_t>(1, elem.getIntOrFloatBitWidth() / 8);
    auto type = dyn_cast<RankedTensorType>(load.getResult().getType());
    std::optional<LayoutView> v =
        type ? getLayoutView(type.getEncoding(), type.getShape()) : std::nullopt;
    bytes += size * (v ? v->numElems() : 1);
  });
  if (blocked || bytes == 0)
    return 1;
  return unsigned(std::clamp<uint64_t>(kLoadBytesInFlight / bytes, 1, kMaxUnrollCount));
}

namespace {
struct LoopUnrollHintsPass : impl::LoopUnrollHintsBase<LoopUnrollHintsPass> {
  void runOnOperation() override {
    Builder b(&getContext());
    getOperation().walk([&](scf::ForOp loop) {
      loop->removeAttr(kUnrollAttr);
      if (unsigned count = loopUnrollCount(loop); count > 1)
        loop->setAttr(kUnrollAttr, b.getI32IntegerAttr(count));
    });
  }
};
} // namespace

} // namespace blk::gpu
