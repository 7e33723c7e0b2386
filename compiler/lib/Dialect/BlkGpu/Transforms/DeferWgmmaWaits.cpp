//===- DeferWgmmaWaits.cpp - --blkgpu-defer-wgmma-waits -------------------===//
//
// Expects: blkgpu IR after blkgpu-insert-barriers (barriers and scratch
// offsets known). Guarantees: a synchronous wgmma (pending = 0) is no
// longer waited for where it is issued but right before the first op of
// its block that needs it done, so the tensor cores run while the ops in
// between do:
//
//   %s = wgmma Q, K, 0        {pending = -1}     (no wait)
//   %o = wgmma P, V, %acc     {pending = -1}
//   %s' = wgmma_wait %s       {pending = 1}      (%o may stay in flight)
//   ... softmax of %s' ...                       (runs under %o)
//   %o' = wgmma_wait %o       {pending = 0}
//
// `pending` of each wait counts the wgmma groups this block issued after
// the one it waits for (groups complete in order; older ones, such as a
// previous iteration's running wgmma, complete first anyway). An op needs
// a deferred wgmma done when it reads its result (itself or an op nested in
// it), and it needs every deferred wgmma done when it may write shared
// memory a running wgmma still reads, or lets another warp do so: a
// barrier, a scratch user (SharedMemory.h), a buffer store, an async copy,
// an mbarrier_arrive (it lets the producer warpgroup overwrite a slot),
// an op whose regions hold such an op or a wgmma, and the terminator. A
// wait whose wgmma an earlier wait completed costs nothing at run time;
// it stays so that LLVM orders the reads of its registers after it.
// Wgmmas with pending > 0 (blkgpu-pipeline-loops' running ones) keep their
// own waits. Test: tests/lit/blkgpu/defer-wgmma-waits.mlir.
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/Transforms/Passes.h"
#include "blk/Dialect/BlkGpu/Transforms/SharedMemory.h"
#include "blk/Dialect/BlkGpu/Transforms/Utility.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace blk::gpu {

#define GEN_PASS_DEF_DEFERWGMMAWAITS
#include "blk/Dialect/BlkGpu/Transforms/Passes.h.inc"

void waitForWgmma(OpBuilder &b, Location loc, Value acc, int32_t pending) {
  auto wait = b.create<WarpGroupDotWaitOp>(loc, acc.getType(), acc, b.getI32IntegerAttr(pending));
  acc.replaceAllUsesExcept(wait.getResult(), wait);
}

/// True when `op` itself may write shared memory or synchronise the warps
/// (after which another warp may write it).
static bool writesShared(Operation *op) {
  if (isa<BarrierOp, LocalStoreOp, AsyncCopyOp, TmaLoadOp, MbarrierInitOp, MbarrierArriveOp>(op) ||
      op->hasAttr(kScratchOffsetAttr))
    return true;
  auto alloc = dyn_cast<LocalAllocOp>(op);
  return alloc && alloc.getSrc();
}

/// True when every deferred wgmma must be done before `op`.
static bool needsAllDone(Operation *op) {
  if (op->hasTrait<OpTrait::IsTerminator>() || writesShared(op))
    return true;
  bool found = false;
  for (Region &region : op->getRegions())
    region.walk([&](Operation *inner) {
      if (isa<WarpGroupDotOp>(inner) || writesShared(inner)) {
        found = true;
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
  return found;
}

namespace {

/// The wgmma groups one block has issued so far, in issue order.
class GroupsInFlight {
public:
  /// Places the waits `op` needs before it, then records it.
  void visit(Operation *op) {
    bool allDone = needsAllDone(op);
    SmallVector<unsigned> needed; // in issue order
    for (unsigned i = 0; i < groups.size(); ++i)
      if (groups[i].deferred && !groups[i].waited &&
          ((allDone && i >= done) || readsResult(op, groups[i].wgmma)))
        needed.push_back(i);
    if (!needed.empty()) {
      // Everything up to the newest one needed is done after the wait.
      unsigned newest = needed.back();
      int32_t pending = int32_t(groups.size()) - int32_t(std::max(newest + 1, done));
      OpBuilder b(op);
      for (unsigned i : needed) {
        waitForWgmma(b, op->getLoc(), groups[i].wgmma.getResult(), pending);
        groups[i].waited = true;
      }
      done = std::max(done, newest + 1);
    }
    if (auto wait = dyn_cast<WarpGroupDotWaitOp>(op))
      markDone(wait.getPending());
    auto wgmma = dyn_cast<WarpGroupDotOp>(op);
    if (!wgmma)
      return;
    bool defer = wgmma.getPending() == 0;
    groups.push_back({wgmma, defer, false});
    if (defer)
      wgmma.setPending(-1);
    else
      markDone(wgmma.getPending());
  }

private:
  struct Group {
    WarpGroupDotOp wgmma;
    bool deferred, waited;
  };

  static bool readsResult(Operation *op, WarpGroupDotOp wgmma) {
    return llvm::any_of(wgmma.getResult().getUsers(), [&](Operation *user) {
      return op == user || op->isProperAncestor(user);
    });
  }

  /// A wait with `pending` groups left: the older ones are done.
  void markDone(int32_t pending) {
    if (int32_t(groups.size()) - pending > int32_t(done))
      done = unsigned(int32_t(groups.size()) - pending);
  }

  SmallVector<Group> groups;
  unsigned done = 0; ///< groups[0, done) are known complete
};

struct DeferWgmmaWaitsPass : impl::DeferWgmmaWaitsBase<DeferWgmmaWaitsPass> {
  void runOnOperation() override {
    getOperation().walk([](Block *block) {
      if (llvm::none_of(*block, [](Operation &op) { return isa<WarpGroupDotOp>(op); }))
        return;
      GroupsInFlight groups;
      for (Operation &op : llvm::make_early_inc_range(*block))
        groups.visit(&op);
    });
  }
};

} // namespace

} // namespace blk::gpu
