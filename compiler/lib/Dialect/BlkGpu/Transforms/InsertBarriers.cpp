//===- InsertBarriers.cpp - --blkgpu-insert-barriers ----------------------===//
//
// Expects: blkgpu IR after blkgpu-allocate-shared. Guarantees: a
// `blkgpu.barrier` before every shared-memory access that could race with
// an earlier one since the last barrier — a write after a read or a write
// of overlapping bytes, a read after a write — or before the loop it is in.
//
// The state is the set of byte ranges read or written since the last
// barrier. A scratch user (SharedMemory.h) writes its range, synchronises
// (its own barrier, which clears the state), then reads it: after it, the
// state is its range, read. local_store and a local_alloc with a value
// write their buffer, local_load, wgmma and mma_sync read theirs (the whole buffer: a ring slot's
// index is only known at run time; a buffer not traced to its local_alloc
// counts as all of shared memory). Loops are iterated to a fixpoint (the
// state at the top of the body joins the state before the loop and at the
// end of the body), so an access in a loop is separated from its own
// previous iteration; branches join. Where what a loop's body must wait
// for includes an access from before the loop, and the body needs fewer
// barriers without it, one barrier before the loop takes its place (it
// would otherwise stay at the top of the body's state, a barrier per
// iteration). The kernel starts with nothing in
// flight. An async_copy is checked against earlier accesses when issued
// (it must not overwrite bytes still being read) but its write is placed
// at the async_wait that completes it (every async_copy target counts as
// written there), so the barrier between the copies landing and their
// readers sits after the wait. A tma_load is checked like an async_copy
// and never recorded: its readers each wait on its mbarrier (mbarrier ops
// themselves are not buffer accesses: mbarrier_init has its own barrier).
// In a blkgpu.warp_specialize, only the consumer region gets barriers: the
// producer's copies wait for their slots on mbarriers.
// Test: tests/lit/blkgpu/insert-barriers.mlir.
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/Transforms/Passes.h"
#include "blk/Dialect/BlkGpu/Transforms/SharedMemory.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

#include "llvm/Support/MathExtras.h"

#include <set>
#include <utility>
#include <tuple>

using namespace mlir;

namespace blk::gpu {

#define GEN_PASS_DEF_INSERTBARRIERS
#include "blk/Dialect/BlkGpu/Transforms/Passes.h.inc"

namespace {

/// One access since the last barrier: bytes [begin, end), and whether
/// they were written.
struct Access {
  uint64_t begin, end;
  bool write;
  bool operator<(const Access &o) const {
    return std::tie(begin, end, write) < std::tie(o.begin, o.end, o.write);
  }
  bool operator==(const Access &o) const {
    return begin == o.begin && end == o.end && write == o.write;
  }
};
using Pending = std::set<Access>;

static Pending join(Pending a, const Pending &b) {
  a.insert(b.begin(), b.end());
  return a;
}

/// True when `access` must wait for something in `pending`.
static bool conflicts(const Pending &pending, const Access &access) {
  for (const Access &p : pending)
    if (p.begin < access.end && access.begin < p.end && (p.write || access.write))
      return true;
  return false;
}

/// The bytes of `buffer` (its whole ring: a slot's index is only known at
/// run time; all of shared memory when it is not traced to its local_alloc).
static Access bufferBytes(Value buffer, bool write, uint64_t sharedBytes) {
  Operation *root = getBufferAlloc(buffer);
  auto offset = root ? root->getAttrOfType<IntegerAttr>(kBufferOffsetAttr) : IntegerAttr();
  if (!offset)
    return Access{0, sharedBytes, write};
  uint64_t begin = offset.getInt();
  return Access{begin, begin + getBufferBytes(cast<MemDescType>(root->getResult(0).getType())),
                write};
}

/// The buffer accesses of a local_store / local_load / local_alloc / wgmma.
static SmallVector<Access, 2> bufferAccesses(Operation *op, uint64_t sharedBytes) {
  if (auto store = dyn_cast<LocalStoreOp>(op))
    return {bufferBytes(store.getDst(), true, sharedBytes)};
  if (auto load = dyn_cast<LocalLoadOp>(op))
    return {bufferBytes(load.getSrc(), false, sharedBytes)};
  if (auto alloc = dyn_cast<LocalAllocOp>(op)) {
    if (!alloc.getSrc())
      return {};
    return {bufferBytes(alloc.getResult(), true, sharedBytes)};
  }
  // wgmma and mma_sync read both operands, A and B (and, being
  // synchronous, are done at their end).
  if (isa<WarpGroupDotOp, MmaSyncOp>(op)) {
    Value a = op->getOperand(0), b = op->getOperand(1);
    if (!isa<MemDescType>(a.getType())) // A in registers
      return {bufferBytes(b, false, sharedBytes)};
    return {bufferBytes(a, false, sharedBytes), bufferBytes(b, false, sharedBytes)};
  }
  return {};
}

class BarrierPlacer {
public:
  /// `asyncTargets`: the bytes every async_copy of the kernel writes.
  BarrierPlacer(uint64_t sharedBytes, SmallVector<Access> asyncTargets)
      : sharedBytes(sharedBytes), asyncTargets(std::move(asyncTargets)) {}

  /// The state after `block` entered with `in`; inserts barriers when
  /// `insert` (the last, fixpoint, visit).
  Pending visit(Block &block, Pending in, bool insert);

private:
  Pending visitOp(Operation *op, Pending in, bool insert);
  /// `accesses` happen together at `op`: one barrier first if any must
  /// wait; they are recorded as in flight when `record`.
  Pending access(Operation *op, Pending in, ArrayRef<Access> accesses, bool insert,
                 bool record = true);

  /// The state at the top of `loop`'s body entered with `in`: the
  /// fixpoint of its iterations.
  Pending loopEntry(scf::ForOp loop, const Pending &in);
  /// How many barriers one visit of `loop`'s body entered with `in` puts
  /// in it (each runs once per iteration).
  unsigned barriersInBody(scf::ForOp loop, const Pending &in);

  uint64_t sharedBytes;
  SmallVector<Access> asyncTargets;
  /// Counts the barriers a visit would insert, when set.
  unsigned *counter = nullptr;
};

Pending BarrierPlacer::loopEntry(scf::ForOp loop, const Pending &in) {
  Pending entry = in;
  for (;;) {
    Pending next = join(in, visit(*loop.getBody(), entry, false));
    if (next == entry)
      return entry;
    entry = std::move(next);
  }
}

unsigned BarrierPlacer::barriersInBody(scf::ForOp loop, const Pending &in) {
  Pending entry = loopEntry(loop, in);
  unsigned n = 0;
  unsigned *outer = std::exchange(counter, &n);
  visit(*loop.getBody(), entry, false);
  counter = outer;
  return n;
}


Pending BarrierPlacer::access(Operation *op, Pending in, ArrayRef<Access> accesses, bool insert,
                              bool record) {
  if (llvm::any_of(accesses, [&](const Access &a) { return conflicts(in, a); })) {
    if (insert)
      OpBuilder(op).create<BarrierOp>(op->getLoc());
    if (counter)
      ++*counter;
    in.clear();
  }
  if (record)
    in.insert(accesses.begin(), accesses.end());
  return in;
}

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
    uint64_t end = begin + llvm::alignTo(getScratchBytes(op), 16);
    // Write (after waiting if needed), its own barrier, then read.
    access(op, std::move(in), Access{begin, end, true}, insert);
    return {Access{begin, end, false}};
  }
  // An async copy must not overwrite bytes still being read (checked when
  // it is issued), but its writes land at the async_wait that completes
  // it: that is where a later read must find them, after a barrier.
  if (auto copy = dyn_cast<AsyncCopyOp>(op))
    return access(op, std::move(in), {bufferBytes(copy.getDst(), true, sharedBytes)}, insert,
                  /*record=*/false);
  // A TMA copy likewise must not overwrite bytes still being read; its
  // writes are visible to each thread that waited on its mbarrier, which
  // every reader does itself, so they need no barrier after them.
  if (auto copy = dyn_cast<TmaLoadOp>(op))
    return access(op, std::move(in), {bufferBytes(copy.getDst(), true, sharedBytes)}, insert,
                  /*record=*/false);
  if (isa<AsyncWaitOp>(op)) {
    in.insert(asyncTargets.begin(), asyncTargets.end());
    return in;
  }
  SmallVector<Access, 2> accesses = bufferAccesses(op, sharedBytes);
  if (!accesses.empty())
    return access(op, std::move(in), accesses, insert);
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    // An access before the loop that something in the body must wait for
    // stays in the fixpoint's state at the top of the body, and so does
    // the barrier it calls for: one per iteration. Where the body needs
    // fewer barriers without it, it waits once, before the loop (a
    // warp-specialised consumer loop, which has no barrier of its own,
    // would otherwise pay one per iteration for an operand written once
    // before it).
    if (!in.empty() && barriersInBody(loop, {}) < barriersInBody(loop, in)) {
      if (insert)
        OpBuilder(op).create<BarrierOp>(op->getLoc());
      if (counter)
        ++*counter;
      in.clear();
    }
    return join(in, visit(*loop.getBody(), loopEntry(loop, in), insert));
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
  // The producer region (one thread) orders its copies with mbarriers;
  // barriers go into the consumer region only, and synchronise just them.
  if (auto ws = dyn_cast<WarpSpecializeOp>(op)) {
    if (ws.getConsumer().empty())
      return in;
    return visit(ws.getConsumer().front(), std::move(in), insert);
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
    auto total = func->getAttrOfType<IntegerAttr>(kSharedBytesAttr);
    uint64_t bytes = total ? total.getInt() : 0;
    SmallVector<Access> asyncTargets;
    func.walk([&](AsyncCopyOp copy) {
      asyncTargets.push_back(bufferBytes(copy.getDst(), true, bytes));
    });
    BarrierPlacer(bytes, std::move(asyncTargets))
        .visit(func.getBody().front(), {}, /*insert=*/true);
  }
};

} // namespace

} // namespace blk::gpu
