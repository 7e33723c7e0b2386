//===- InsertBarriers.cpp - --blkgpu-insert-barriers ----------------------===//
//
// Expects: blkgpu IR after blkgpu-allocate-shared. Guarantees: before every
// scratch user whose bytes may still be read or written by an earlier user
// (no barrier since), there is a `blkgpu.barrier`; nowhere else.
//
// The state is the set of byte ranges accessed since the last barrier. A
// scratch user first writes its range, synchronises (its own barrier,
// which clears the state), then reads it: after it, the state is its range.
// Loops are iterated to a fixpoint (the state at the top of the body is
// the join of the state before the loop and at the end of the body), so a
// user in a loop is separated from its own previous iteration; branches
// join. The kernel starts with nothing in flight.
// Test: tests/lit/blkgpu/insert-barriers.mlir.
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/Transforms/Passes.h"
#include "blk/Dialect/BlkGpu/Transforms/SharedMemory.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

#include "llvm/Support/MathExtras.h"

#include <set>

using namespace mlir;

namespace blk::gpu {

#define GEN_PASS_DEF_INSERTBARRIERS
#include "blk/Dialect/BlkGpu/Transforms/Passes.h.inc"

namespace {

/// Byte ranges [begin, end) accessed since the last barrier.
using Pending = std::set<std::pair<uint64_t, uint64_t>>;

static Pending join(Pending a, const Pending &b) {
  a.insert(b.begin(), b.end());
  return a;
}

static bool overlaps(const Pending &pending, std::pair<uint64_t, uint64_t> range) {
  for (auto [begin, end] : pending)
    if (begin < range.second && range.first < end)
      return true;
  return false;
}

class BarrierPlacer {
public:
  /// The state after `block` entered with `in`; inserts barriers when
  /// `insert` (the last, fixpoint, visit).
  Pending visit(Block &block, Pending in, bool insert);

private:
  Pending visitOp(Operation *op, Pending in, bool insert);
};

Pending BarrierPlacer::visit(Block &block, Pending state, bool insert) {
  for (Operation &op : llvm::make_early_inc_range(block))
    state = visitOp(&op, std::move(state), insert);
  return state;
}

Pending BarrierPlacer::visitOp(Operation *op, Pending in, bool insert) {
  if (isa<BarrierOp>(op))
    return {};
  if (auto offset = op->getAttrOfType<IntegerAttr>(kScratchOffsetAttr)) {
    uint64_t begin = offset.getInt();
    std::pair<uint64_t, uint64_t> range = {begin,
                                           begin + llvm::alignTo(getScratchBytes(op), 16)};
    if (insert && overlaps(in, range)) {
      OpBuilder b(op);
      b.create<BarrierOp>(op->getLoc());
    }
    return {range};
  }
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    Pending entry = in;
    for (;;) {
      Pending next = join(in, visit(*loop.getBody(), entry, false));
      if (next == entry)
        break;
      entry = std::move(next);
    }
    return join(in, visit(*loop.getBody(), entry, insert));
  }
  if (auto branch = dyn_cast<scf::IfOp>(op)) {
    Pending out = visit(branch.getThenRegion().front(), in, insert);
    if (branch.getElseRegion().empty())
      return join(std::move(out), in);
    return join(std::move(out), visit(branch.getElseRegion().front(), in, insert));
  }
  if (auto loop = dyn_cast<scf::WhileOp>(op)) {
    Block &before = loop.getBefore().front(), &after = loop.getAfter().front();
    Pending entry = in;
    for (;;) {
      Pending next = join(in, visit(after, visit(before, entry, false), false));
      if (next == entry)
        break;
      entry = std::move(next);
    }
    Pending out = visit(before, entry, insert);
    visit(after, out, insert);
    return out;
  }
  // Other regions (reduce / scan combiners) hold scalar code only.
  return in;
}

struct InsertBarriersPass : impl::InsertBarriersBase<InsertBarriersPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    func.walk([](BarrierOp barrier) { barrier.erase(); });
    if (func.getBody().empty())
      return;
    BarrierPlacer().visit(func.getBody().front(), {}, /*insert=*/true);
  }
};

} // namespace

} // namespace blk::gpu
