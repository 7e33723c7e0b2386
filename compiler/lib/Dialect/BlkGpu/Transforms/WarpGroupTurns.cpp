//===- WarpGroupTurns.cpp - --blkgpu-warpgroup-turns ----------------------===//
//
// Expects: blkgpu IR after blkgpu-defer-wgmma-waits. Guarantees: in a
// warp-specialised kernel's consumer loop shaped like attention's, the
// consumer warpgroups take turns at the tensor cores.
//
// Each warpgroup issues Q·Kᵀ, waits for it, runs its softmax and issues
// P·V, which runs on into the next iteration. Left alone, the warpgroups
// drift into step: all issue their wgmmas at once, then all run their
// softmax while the tensor cores idle. Taking turns (FlashAttention-3's
// ping-pong) keeps them apart, so one warpgroup's softmax runs under the
// others' wgmmas. A turn is the P·V of iteration i with the Q·Kᵀ of
// i + 1, issued back to back across the loop's back edge:
//
//   turn_wait {skip = 0}        warpgroups 1.. wait for their first turn
//   for i:
//     Q·Kᵀ_i ; turn_pass        (Q·Kᵀ_0 alone is warpgroup 0's first turn)
//     softmax_i
//     turn_wait ; P·V_i         (the turn goes on into iteration i + 1)
//   turn_pass {skip = last}     the last P·V's turn, passed on
//
// Warpgroup w's k-th wait pairs with warpgroup (w - 1)'s k-th pass (w - 1
// of 0 is the last), so the turns go 0, 1, ..., G - 1, 0, ... and no named
// barrier ever holds two passes (the next pass needs the next turn, which
// needs this one's wait met).
//
// The hand-overlapped form (samples/attention.blk at D = 64) issues both
// wgmmas back to back in one iteration, Q·Kᵀ_i then P·V_i-1, and waits for
// P·V_i-1 before its softmax ends. A turn is then those two, and the wait
// for the next one ends the body:
//
//   turn_wait {skip = 0}
//   for i:
//     Q·Kᵀ_i ; P·V_i-1 ; turn_pass
//     softmax_i
//     turn_wait                 (for the turn of iteration i + 1)
//   turn_pass {skip = last}
//
// The same pairing: the last iteration's wait is met by the pass after
// the loop of the warpgroup before (warpgroup 0's by the last one's final
// turn). A turn must not meet the other consumers at
// a barrier (blkgpu.barrier, a scratch user, ...): they may be waiting for
// the turn, so such a loop is left alone. A barrier between turns (in the
// softmax) is met by every warpgroup after its own turn: no deadlock.
// Test: tests/lit/blkgpu/warpgroup-turns.mlir.
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/Transforms/Passes.h"
#include "blk/Dialect/BlkGpu/Transforms/SharedMemory.h"

#include "blk/IR/BlkOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

using namespace mlir;

namespace blk::gpu {

#define GEN_PASS_DEF_WARPGROUPTURNS
#include "blk/Dialect/BlkGpu/Transforms/Passes.h.inc"

namespace {

/// True when `op`, or an op nested in it, may wait at a barrier that every
/// consumer thread must reach (its lowering calls Emitter::barrier).
bool meetsConsumers(Operation *op) {
  WalkResult walk = op->walk([](Operation *inner) {
    if (isa<BarrierOp, MbarrierInitOp, AtomicRMWOp, AtomicCASOp, DotOp>(inner) ||
        inner->hasAttr(kScratchOffsetAttr))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted();
}

/// True when some op of [from, to) meets the consumers.
bool anyMeetsConsumers(Block::iterator from, Block::iterator to) {
  return std::any_of(from, to, [](Operation &op) { return meetsConsumers(&op); });
}

/// How a loop's two wgmmas make a turn.
enum class TurnShape {
  RunOn,  ///< the second runs on into the next iteration: a turn is it
          ///< and the next iteration's first
  Issued, ///< both are issued back to back, neither waited for yet: a
          ///< turn is the two of one iteration
};

struct Turn {
  WarpGroupDotOp first, last;
  TurnShape shape;
};

/// The two wgmmas of `loop`'s body and how they make a turn, when it issues
/// exactly two, in the body itself (not in a branch: every warpgroup must
/// meet every barrier equally often), and either the second runs on into
/// the next iteration (pending = 1, yielded) or both are issued back to
/// back with their waits deferred (blkgpu-defer-wgmma-waits: pending = -1;
/// no wait and no op that meets the consumers between them).
std::optional<Turn> turnWgmmas(scf::ForOp loop) {
  SmallVector<WarpGroupDotOp, 2> wgmmas;
  loop.getBody()->walk([&](WarpGroupDotOp op) { wgmmas.push_back(op); });
  if (wgmmas.size() != 2)
    return std::nullopt;
  auto [first, last] = std::pair{wgmmas[0], wgmmas[1]};
  Block *body = loop.getBody();
  if (first->getBlock() != body || last->getBlock() != body)
    return std::nullopt;
  bool yielded = llvm::is_contained(body->getTerminator()->getOperands(), last.getResult());
  if (last.getPending() == 1 && yielded)
    return Turn{first, last, TurnShape::RunOn};
  bool backToBack = std::none_of(std::next(Block::iterator(first)), Block::iterator(last),
                                 [](Operation &op) {
                                   return isa<WarpGroupDotWaitOp>(op) || meetsConsumers(&op);
                                 });
  auto deferred = [](WarpGroupDotOp op) { return op.getPendingAttr().getInt() < 0; };
  if (deferred(first) && deferred(last) && !yielded && backToBack)
    return Turn{first, last, TurnShape::Issued};
  return std::nullopt;
}

void takeTurns(scf::ForOp loop, unsigned warpgroups) {
  std::optional<Turn> turn = turnWgmmas(loop);
  if (!turn)
    return;
  Block *body = loop.getBody();
  // A turn must not meet the other consumers at a barrier: from the loop's
  // top to the first wgmma, and from the wait that starts a turn (before
  // the running wgmma, or at the body's end) to the body's end.
  if (anyMeetsConsumers(body->begin(), Block::iterator(turn->first)) ||
      (turn->shape == TurnShape::RunOn &&
       anyMeetsConsumers(Block::iterator(turn->last), body->end())))
    return;
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  IntegerAttr count = b.getI32IntegerAttr(int32_t(warpgroups));
  b.create<TurnWaitOp>(loc, count, b.getI32IntegerAttr(0));
  if (turn->shape == TurnShape::RunOn) {
    b.setInsertionPointAfter(turn->first);
    b.create<TurnPassOp>(loc, count, IntegerAttr());
    b.setInsertionPoint(turn->last);
    b.create<TurnWaitOp>(loc, count, IntegerAttr());
  } else {
    b.setInsertionPointAfter(turn->last);
    b.create<TurnPassOp>(loc, count, IntegerAttr());
    b.setInsertionPoint(body->getTerminator());
    b.create<TurnWaitOp>(loc, count, IntegerAttr());
  }
  b.setInsertionPointAfter(loop);
  b.create<TurnPassOp>(loc, count, b.getI32IntegerAttr(int32_t(warpgroups) - 1));
}

struct WarpGroupTurnsPass : impl::WarpGroupTurnsBase<WarpGroupTurnsPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    auto warps = func->getAttrOfType<IntegerAttr>(BlkGpuDialect::kNumWarpsAttr);
    if (!warps || warps.getInt() % 4 != 0 || warps.getInt() < 8)
      return;
    unsigned warpgroups = unsigned(warps.getInt() / 4);
    func.walk([&](WarpSpecializeOp ws) {
      if (ws.getConsumer().empty())
        return;
      SmallVector<scf::ForOp> loops;
      ws.getConsumer().walk([&](scf::ForOp loop) { loops.push_back(loop); });
      for (scf::ForOp loop : loops)
        takeTurns(loop, warpgroups);
    });
  }
};

} // namespace

} // namespace blk::gpu
