//===- WarpSpecialize.cpp - a producer warpgroup for a TMA loop -----------===//
//
// Part of blkgpu-pipeline-loops (PipelineTma.h). A kernel with
// `blk.warp_specialize` runs with one more warpgroup than its layouts
// span; its body becomes the consumer region of blkgpu.warp_specialize.
// For the first loop whose rings TMA can fill, instead of the S-stage
// software pipeline:
//
//   before the split: the rings, and per slot a "full" mbarrier (count 1:
//                     the producer's expect_tx) and an "empty" one (count:
//                     the consumer warps), initialised
//   producer (one thread), under the conditions of the branches the loop
//   is in:    for i: if i >= S, wait empty[i % S] for phase (i / S - 1) % 2
//                    expect_tx full[i % S]; TMA copies of iteration i
//   consumers: for i: wait full[i % S] for phase (i / S) % 2
//                     the wgmmas read slot i % S
//                     arrive on empty[(i - 1) % S] (i >= 1) after the last
//                     wgmma when it runs on into the next iteration (its
//                     wait for one group left means iteration i - 1's is
//                     done), else on empty[i % S] after the first op that
//                     reads its result (it runs under the ops between),
//                     or after the branch that holds it (a dot under an
//                     `if`, done when its branch ends)
//
// so no barrier is left in the consumers' loop and the copies run up to
// S tiles ahead of the slowest consumer warp. The loop may sit in one
// enclosing loop (a persistent kernel's loop over tiles, then-branches
// inside and outside it): both sides then carry the number of TMA
// iterations run so far through it, i counts from there (the ring goes on
// across tiles, so the producer fills the next tile's first slots while
// the consumers run this tile's epilogue), and the consumers release the
// tile's last slot after the loop. What the producer needs
// (the loop's bounds, the branch conditions, the boxes' coordinates) is
// recomputed in its region from the arguments and program ids: scalar
// integer arithmetic only, else the loop is pipelined as usual. A box
// coordinate may depend on the induction variable through such
// arithmetic (the overlapped attention's V at max(start_n - BN, 0)): the
// producer recomputes it inside its loop.
// A last reader that must run on into the next iteration although that
// iteration reads its accumulator (attention's P·V, canRunOn) keeps doing
// so; iteration i releases slot i - 1 right after waiting for it there
// (blkgpu-warpgroup-turns later makes the consumer warpgroups take turns).
// Tests: tests/lit/blkgpu/warp-specialize.mlir,
// tests/lit/interp/backend-oracle-branch.test (a dot under an `if`).
//
//===----------------------------------------------------------------------===//
#include "PipelineTma.h"

#include "blk/Dialect/BlkGpu/IR/Layout.h"
#include "blk/Support/WarpSpecialize.h"
#include "blk/IR/BlkOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <algorithm>

using namespace mlir;

namespace blk::gpu {

/// setmaxnreg's split of the registers one program holds. setmaxnreg.inc
/// takes only registers that warps of the same program gave back with
/// setmaxnreg.dec, so the split must fit what the program got at launch
/// (registersAtLaunch); above that the consumers' setmaxnreg.inc waits
/// forever once the producer loops (one whose producer exits early frees
/// its registers and runs). The consumers get at most 232 each; the
/// producer warpgroup keeps 40 per thread, or 24 (its loop of TMA issues
/// fits, as in FlashAttention-3) where 40 would cost the consumers: one
/// program of two consumer warpgroups (384 threads at 168) gives
/// 128 * 40 + 256 * 232, what ThunderKittens and CUTLASS use; four
/// consumer warpgroups (640 at 96) give 128 * 24 + 512 * 112; two programs
/// of two (384 at 80) 128 * 24 + 256 * 104. No split (both 0, nobody
/// changes its registers) when the consumers would get fewer than 40.
struct RegisterSplit {
  int32_t producer = 0, consumers = 0;
};
constexpr int32_t kProducerRegisters = 40, kLeanProducerRegisters = 24;
constexpr int32_t kMaxConsumerRegisters = 232;

static RegisterSplit registerSplit(unsigned consumerWarps, unsigned programsPerSm) {
  int64_t producerThreads = blk::kProducerWarps * 32, consumerThreads = int64_t(consumerWarps) * 32;
  int64_t threads = producerThreads + consumerThreads;
  int64_t held = blk::registersAtLaunch(threads, programsPerSm) * threads;
  auto consumersWith = [&](int32_t producer) {
    int64_t each = (held - producerThreads * producer) / consumerThreads / 8 * 8;
    return int32_t(std::min<int64_t>(each, kMaxConsumerRegisters));
  };
  RegisterSplit split{kProducerRegisters, consumersWith(kProducerRegisters)};
  if (split.consumers < kMaxConsumerRegisters)
    split = {kLeanProducerRegisters, consumersWith(kLeanProducerRegisters)};
  if (split.consumers < kProducerRegisters)
    return {};
  return split;
}

WarpSpecializeOp wrapInWarpSpecialize(func::FuncOp func) {
  Block &entry = func.getBody().front();
  OpBuilder b(entry.getTerminator());
  RegisterSplit split = registerSplit(getNumWarps(func), getProgramsPerSm(func));
  auto ws = b.create<WarpSpecializeOp>(func.getLoc(), int32_t(blk::kProducerWarps),
                                       split.producer, split.consumers);
  ws.getProducer().emplaceBlock();
  Block &consumer = ws.getConsumer().emplaceBlock();
  // Tensor maps stay in the entry block (they are kernel parameters).
  for (Operation &op : llvm::make_early_inc_range(entry))
    if (&op != ws.getOperation() && !op.hasTrait<OpTrait::IsTerminator>() &&
        !isa<TensorMapOp>(op))
      op.moveBefore(&consumer, consumer.end());
  return ws;
}

namespace {

/// Recomputes values of the consumer region in the producer region.
class ProducerCloner {
public:
  explicit ProducerCloner(WarpSpecializeOp ws) : ws(ws) {}

  /// True when `v` can be recomputed: defined outside the consumer region,
  /// or by pure scalar integer ops (program ids included) of such values.
  bool canClone(Value v) {
    if (!ws.getConsumer().isAncestor(v.getParentRegion()))
      return true;
    auto [it, inserted] = clonable.try_emplace(v, false);
    if (!inserted)
      return it->second;
    Operation *def = v.getDefiningOp();
    auto isScalar = [](Type t) { return t.isIntOrIndex(); };
    bool ok = def && def->getNumRegions() == 0 &&
              (isMemoryEffectFree(def) || isa<ProgramIdOp, NumProgramsOp>(def)) &&
              llvm::all_of(def->getOperandTypes(), isScalar) &&
              llvm::all_of(def->getResultTypes(), isScalar) &&
              llvm::all_of(def->getOperands(), [&](Value x) { return canClone(x); });
    clonable[v] = ok;
    return ok;
  }

  /// `v` in the producer region (cloned at `b` the first time; canClone).
  Value clone(OpBuilder &b, Value v) {
    if (!ws.getConsumer().isAncestor(v.getParentRegion()))
      return v;
    if (Value done = map.lookupOrNull(v))
      return done;
    Operation *def = v.getDefiningOp();
    for (Value x : def->getOperands())
      clone(b, x);
    b.clone(*def, map);
    return map.lookup(v);
  }

  /// `consumer` (a block argument: the tile loop's induction variable) is
  /// `producer` in the producer region.
  void bind(Value consumer, Value producer) {
    clonable[consumer] = true;
    map.map(consumer, producer);
  }
  /// `consumer` counts as clonable before its producer value exists.
  void assume(Value consumer) { clonable[consumer] = true; }

  /// `a` with its atoms recomputed in the producer (the consumers'
  /// induction variable bound to the producer's first).
  Affine clone(OpBuilder &b, const Affine &a) {
    Affine out = a;
    for (auto &term : out.terms)
      term.first = clone(b, term.first);
    return out;
  }

private:
  WarpSpecializeOp ws;
  llvm::DenseMap<Value, bool> clonable;
  IRMapping map;
};

} // namespace

/// True when `v` is `iv` or computed from it.
static bool dependsOn(Value v, Value iv) {
  if (v == iv)
    return true;
  Operation *def = v.getDefiningOp();
  return def && llvm::any_of(def->getOperands(), [&](Value x) { return dependsOn(x, iv); });
}

/// What lies between the consumer region and a TMA loop: then-branches,
/// and at most one loop (a persistent kernel's loop over tiles).
struct Enclosing {
  llvm::SmallVector<Value> outer; ///< conditions outside the tile loop
  scf::ForOp tiles;               ///< null when none
  llvm::SmallVector<Value> inner; ///< conditions inside the tile loop
};

/// `loop`'s enclosing ops up to the consumer region; nullopt when some
/// ancestor is anything else, or an else-branch, or a second loop.
static std::optional<Enclosing> enclosingOps(scf::ForOp loop, WarpSpecializeOp ws) {
  Enclosing e;
  Region *region = loop->getParentRegion();
  for (Operation *parent = loop->getParentOp(); parent != ws.getOperation();
       parent = parent->getParentOp()) {
    if (auto branch = dyn_cast_or_null<scf::IfOp>(parent)) {
      if (region != &branch.getThenRegion())
        return std::nullopt;
      (e.tiles ? e.outer : e.inner).push_back(branch.getCondition());
    } else if (auto tiles = dyn_cast_or_null<scf::ForOp>(parent); tiles && !e.tiles) {
      e.tiles = tiles;
    } else {
      return std::nullopt;
    }
    region = parent->getParentRegion();
  }
  return e;
}

/// max(0, ceil((ub - lb) / step)) at `b`: the trip count of a loop with a
/// positive step (the producer and the consumers advance their ring count
/// by it after each tile).
static Value tripCount(OpBuilder &b, Location loc, Value lb, Value ub, Value step) {
  Type t = lb.getType();
  Value one = b.create<arith::ConstantOp>(loc, b.getIntegerAttr(t, 1));
  Value zero = b.create<arith::ConstantOp>(loc, b.getIntegerAttr(t, 0));
  Value span = b.create<arith::SubIOp>(loc, ub, lb);
  Value up = b.create<arith::SubIOp>(loc, b.create<arith::AddIOp>(loc, span, step), one);
  return b.create<arith::MaxSIOp>(loc, b.create<arith::DivSIOp>(loc, up, step), zero);
}

/// `conditions` and'ed (true when empty).
static Value allOf(OpBuilder &b, Location loc, ArrayRef<Value> conditions) {
  Value on = b.create<arith::ConstantOp>(loc, b.getBoolAttr(true));
  for (Value c : conditions)
    on = b.create<arith::AndIOp>(loc, on, c);
  return on;
}

/// A ring of `slots` mbarriers, initialised with `count`, at `b`.
static Value barrierRing(OpBuilder &b, Location loc, unsigned slots, int32_t count) {
  MLIRContext *ctx = b.getContext();
  auto layout = SharedEncodingAttr::get(ctx, 1, 1, 1, ArrayRef<unsigned>{0}, 0, 0);
  Value ring = b.create<LocalAllocOp>(
      loc, MemDescType::get(ctx, {int64_t(slots), 1}, b.getI64Type(), layout), Value());
  b.create<MbarrierInitOp>(loc, ring, b.getI32IntegerAttr(count));
  return ring;
}

/// Barrier `slot` of `ring`.
static Value barrierAt(OpBuilder &b, Location loc, Value ring, Value slot) {
  auto type = cast<MemDescType>(ring.getType());
  return b.create<MemDescIndexOp>(
      loc, MemDescType::get(b.getContext(), {1}, b.getI64Type(), type.getEncoding()), ring, slot);
}

/// The op of `loop`'s body that reads one of `slots` last: a wgmma, or an
/// op (a branch) holding one. A wgmma in a branch is done when its branch
/// ends (blkgpu-defer-wgmma-waits waits for it before the branch's yield).
static Operation *lastReader(scf::ForOp loop, ArrayRef<Value> slots) {
  Operation *last = nullptr;
  for (Operation &op : loop.getBody()->without_terminator())
    op.walk([&](WarpGroupDotOp wgmma) {
      if (llvm::is_contained(slots, wgmma.getA()) || llvm::is_contained(slots, wgmma.getB()))
        last = &op;
    });
  return last;
}

/// True when `v` is defined in `tiles`' body or outside it, not in a
/// branch inside it: it can be used after the branches, at the body's end.
static bool atTileLevel(Value v, scf::ForOp tiles) {
  return v.getParentRegion()->isAncestor(&tiles.getRegion());
}

/// Gives `tiles` an i32 iter_arg counting the TMA iterations run before
/// each tile: it grows by `loop`'s trip count after a tile whose `inner`
/// conditions hold. Returns the new tile loop.
static scf::ForOp carryRingCount(scf::ForOp tiles, scf::ForOp loop, ArrayRef<Value> inner) {
  IRRewriter rewriter(tiles.getContext());
  Location loc = tiles.getLoc();
  rewriter.setInsertionPoint(tiles);
  Value zero = rewriter.create<arith::ConstantOp>(loc, rewriter.getI32IntegerAttr(0));
  auto next = [&](OpBuilder &b, Location l, ArrayRef<BlockArgument> args) -> SmallVector<Value> {
    Value trip = toI32(b, l, tripCount(b, l, loop.getLowerBound(), loop.getUpperBound(),
                                       loop.getStep()));
    Value none = b.create<arith::ConstantOp>(l, b.getI32IntegerAttr(0));
    Value ran = b.create<arith::SelectOp>(l, allOf(b, l, inner), trip, none);
    return {b.create<arith::AddIOp>(l, args.front(), ran)};
  };
  FailureOr<LoopLikeOpInterface> grown =
      cast<LoopLikeOpInterface>(tiles.getOperation())
          .replaceWithAdditionalYields(rewriter, ValueRange{zero},
                                       /*replaceInitOperandUsesInLoop=*/false, next);
  return cast<scf::ForOp>(grown->getOperation());
}

bool specializeLoop(scf::ForOp loop, MutableArrayRef<Prefetch> prefetches,
                    ArrayRef<TmaTile> tiles, unsigned stages, WarpSpecializeOp ws) {
  std::optional<Enclosing> around = enclosingOps(loop, ws);
  if (!around || prefetches.empty())
    return false;
  SmallVector<Value> needed = {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()};
  llvm::append_range(needed, around->inner);
  if (scf::ForOp tileLoop = around->tiles) {
    // The ring count is advanced at the tile loop's level, after the
    // branches: the loop's bounds and the inner conditions must be there.
    if (!llvm::all_of(needed, [&](Value v) { return atTileLevel(v, tileLoop); }))
      return false;
    llvm::append_range(needed, ValueRange{tileLoop.getLowerBound(), tileLoop.getUpperBound(),
                                          tileLoop.getStep()});
  }
  llvm::append_range(needed, around->outer);
  // A box coordinate may be any scalar function of the induction variable
  // (attention's V of the block before, at max(start_n - BN, 0)): the
  // producer recomputes it in its own loop.
  for (const TmaTile &tile : tiles)
    for (const TmaDim &dim : tile.dims)
      for (auto [atom, coef] : dim.start.terms)
        if (atom != loop.getInductionVar())
          needed.push_back(atom);
  {
    ProducerCloner check(ws);
    if (around->tiles)
      check.assume(around->tiles.getInductionVar());
    check.assume(loop.getInductionVar());
    if (!llvm::all_of(needed, [&](Value v) { return check.canClone(v); }))
      return false;
  }
  if (around->tiles)
    around->tiles = carryRingCount(around->tiles, loop, around->inner);
  // The consumers' count of TMA iterations before this tile (0 without a
  // tile loop).
  Value consumerBase = around->tiles ? Value(around->tiles.getRegionIterArgs().back()) : Value();

  Location loc = loop.getLoc();
  auto func = ws->getParentOfType<func::FuncOp>();
  int32_t consumerWarps = int32_t(func->getAttrOfType<IntegerAttr>(BlkGpuDialect::kNumWarpsAttr)
                                      .getInt());
  // Before the split: the rings and their barriers, seen by both sides.
  OpBuilder top(ws);
  Value full = barrierRing(top, loc, stages, 1);
  Value empty = barrierRing(top, loc, stages, consumerWarps);
  SmallVector<Value> rings;
  SmallVector<MemDescType> slotTypes;
  int64_t bytes = 0;
  for (Prefetch &p : prefetches) {
    MemDescType slot = p.alloc.getType();
    slotTypes.push_back(slot);
    SmallVector<int64_t> shape = {int64_t(stages)};
    llvm::append_range(shape, slot.getShape());
    rings.push_back(top.create<LocalAllocOp>(
        loc,
        MemDescType::get(top.getContext(), shape, slot.getElementType(), slot.getEncoding()),
        Value()));
    bytes += slot.getNumElements() * (slot.getElementType().getIntOrFloatBitWidth() / 8);
  }

  auto i32 = [](OpBuilder &b, Location l, int64_t c) -> Value {
    return b.create<arith::ConstantOp>(l, b.getI32IntegerAttr(int32_t(c)));
  };
  // The ring count of iteration `local` of a loop: `base` + `local`.
  auto ringCount = [&](OpBuilder &b, Value local, Value base) {
    Value n = toI32(b, loc, local);
    return base ? b.create<arith::AddIOp>(loc, base, n).getResult() : n;
  };
  // (slot, round) of ring count `count`: count % S, count / S.
  auto ringPosition = [&](OpBuilder &b, Value count) {
    return std::pair<Value, Value>{b.create<arith::RemSIOp>(loc, count, i32(b, loc, stages)),
                                   b.create<arith::DivSIOp>(loc, count, i32(b, loc, stages))};
  };

  // Consumers: wait for the slot, read it, release it.
  Operation *first = prefetches.front().alloc;
  for (Prefetch &p : prefetches)
    if (p.alloc->isBeforeInBlock(first))
      first = p.alloc;
  OpBuilder b(first);
  Value local = iterationOf(b, loc, loop);
  Value count = ringCount(b, local, consumerBase);
  auto [slot, round] = ringPosition(b, count);
  Value phase = b.create<arith::RemSIOp>(loc, round, i32(b, loc, 2));
  b.create<MbarrierWaitOp>(loc, barrierAt(b, loc, full, slot), phase);
  SmallVector<Value> views;
  for (auto [p, ring] : llvm::zip(prefetches, rings)) {
    Value view = b.create<MemDescIndexOp>(p.alloc.getLoc(), p.alloc.getType(), ring, slot);
    p.alloc.getResult().replaceAllUsesWith(view);
    views.push_back(view);
  }
  for (Prefetch &p : prefetches) {
    p.alloc->erase();
    if (p.trans)
      p.trans->erase();
    p.load->erase();
  }
  Operation *lastOp = lastReader(loop, views);
  if (!lastOp)
    return true; // planTma saw the wgmmas; unreachable, but stay correct
  b.setInsertionPointAfter(lastOp);
  auto last = dyn_cast<WarpGroupDotOp>(lastOp); // null: one in a branch
  bool overlapped = last && canOverlap(loop, last);
  bool runsOn = last && !overlapped && canRunOn(loop, last, [&](Value v) {
    return llvm::is_contained(views, v);
  });
  // Releases the slot of iteration i - 1 (from i = 1) at `at`, where that
  // iteration's last wgmma is known to be done.
  auto releasePrevious = [&](OpBuilder &at, Value iteration, Value ringPos) {
    Value prev = at.create<arith::RemSIOp>(
        loc, at.create<arith::AddIOp>(loc, ringPos, i32(at, loc, int64_t(stages) - 1)),
        i32(at, loc, stages));
    Value notFirst = at.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sge,
                                              toI32(at, loc, iteration), i32(at, loc, 1));
    at.create<MbarrierArriveOp>(loc, barrierAt(at, loc, empty, prev), notFirst);
  };
  if (runsOn) {
    // Attention's P·V: it runs on through the next iteration's Q·Kᵀ and
    // softmax, and is done at the wait before its accumulator's first
    // reader there; that is where iteration i releases the slot of i - 1
    // (its K was read by the synchronous Q·Kᵀ of i - 1 already).
    OpBuilder at(runOnIntoNextIteration(loop, last)->getNextNode());
    Value here = iterationOf(at, loc, loop);
    releasePrevious(at, here, ringCount(at, here, consumerBase));
  } else if (overlapped) {
    // wgmma i waits for all groups but its own: iteration i - 1's is done.
    releasePrevious(b, local, count);
  } else {
    // Released once the wgmma is done: after the first op of the body
    // that reads its result (blkgpu-defer-wgmma-waits waits for it right
    // before that op), so that the ops in between run under it (the
    // overlapped attention form: P·V of the block before runs through
    // this block's softmax); right after it when the body never reads it
    // (blkgpu-defer-wgmma-waits then waits before the arrive), or after
    // the branch that holds it.
    Operation *reader = last ? firstUserInBlock(loop.getBody(), last.getResult()) : nullptr;
    if (reader && !reader->hasTrait<OpTrait::IsTerminator>())
      b.setInsertionPointAfter(reader);
    b.create<MbarrierArriveOp>(loc, barrierAt(b, loc, empty, slot), Value());
  }
  overlapWgmma(loop);
  if (around->tiles && (overlapped || runsOn)) {
    // The tile's last slot: released once its wgmma is waited for after
    // the loop, so the producer can fill it for the next tile.
    OpBuilder after(loop->getBlock(), std::next(Block::iterator(loop)));
    while (isa<WarpGroupDotWaitOp>(*after.getInsertionPoint()))
      after.setInsertionPointAfter(&*after.getInsertionPoint());
    Value trip = toI32(after, loc, tripCount(after, loc, loop.getLowerBound(),
                                             loop.getUpperBound(), loop.getStep()));
    Value lastCount = after.create<arith::SubIOp>(
        loc, after.create<arith::AddIOp>(loc, consumerBase, trip), i32(after, loc, 1));
    Value lastSlot = after.create<arith::RemSIOp>(loc, lastCount, i32(after, loc, stages));
    Value ran = after.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, trip,
                                            i32(after, loc, 1));
    after.create<MbarrierArriveOp>(loc, barrierAt(after, loc, empty, lastSlot), ran);
  }

  // Producer: the same iterations, one TMA stage each.
  ProducerCloner cloner(ws);
  Block &producer = ws.getProducer().front();
  OpBuilder pb = OpBuilder::atBlockEnd(&producer);
  auto enter = [&](ArrayRef<Value> conditions) {
    if (conditions.empty())
      return;
    SmallVector<Value> mine;
    for (Value c : conditions)
      mine.push_back(cloner.clone(pb, c));
    auto branch = pb.create<scf::IfOp>(loc, TypeRange{}, allOf(pb, loc, mine),
                                       /*withElseRegion=*/false);
    pb.setInsertionPointToStart(&branch.getThenRegion().front());
  };
  enter(around->outer);
  Value producerBase;
  if (scf::ForOp tileLoop = around->tiles) {
    auto walk = pb.create<scf::ForOp>(loc, cloner.clone(pb, tileLoop.getLowerBound()),
                                      cloner.clone(pb, tileLoop.getUpperBound()),
                                      cloner.clone(pb, tileLoop.getStep()),
                                      ValueRange{i32(pb, loc, 0)});
    cloner.bind(tileLoop.getInductionVar(), walk.getInductionVar());
    producerBase = walk.getRegionIterArgs().front();
    pb.setInsertionPointToStart(walk.getBody());
    // After this tile: the count grows by the trip count where the
    // consumers ran the loop (the same conditions, recomputed).
    SmallVector<Value> mine;
    for (Value c : around->inner)
      mine.push_back(cloner.clone(pb, c));
    Value trip = toI32(pb, loc, tripCount(pb, loc, cloner.clone(pb, loop.getLowerBound()),
                                          cloner.clone(pb, loop.getUpperBound()),
                                          cloner.clone(pb, loop.getStep())));
    Value ran = pb.create<arith::SelectOp>(loc, allOf(pb, loc, mine), trip, i32(pb, loc, 0));
    auto yield = pb.create<scf::YieldOp>(
        loc, ValueRange{pb.create<arith::AddIOp>(loc, producerBase, ran)});
    pb.setInsertionPoint(yield);
  }
  enter(around->inner);
  Value lb = cloner.clone(pb, loop.getLowerBound());
  Value ub = cloner.clone(pb, loop.getUpperBound());
  Value step = cloner.clone(pb, loop.getStep());
  for (const TmaTile &tile : tiles) // the boxes' invariant atoms, computed once
    for (const TmaDim &dim : tile.dims)
      for (auto [atom, coef] : dim.start.terms)
        if (!dependsOn(atom, loop.getInductionVar()))
          cloner.clone(pb, atom);
  auto fill = pb.create<scf::ForOp>(loc, lb, ub, step);
  cloner.bind(loop.getInductionVar(), fill.getInductionVar());
  pb.setInsertionPointToStart(fill.getBody());
  Value fillCount = ringCount(pb, iterationOf(pb, loc, fill), producerBase);
  auto [fillSlot, fillRound] = ringPosition(pb, fillCount);
  Value reused = pb.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, fillCount,
                                          i32(pb, loc, stages));
  auto wait = pb.create<scf::IfOp>(loc, TypeRange{}, reused, /*withElseRegion=*/false);
  {
    // Round r reuses the slot round r - 1 filled: wait for its release.
    OpBuilder wb = OpBuilder::atBlockBegin(&wait.getThenRegion().front());
    Value parity = wb.create<arith::RemSIOp>(
        loc, wb.create<arith::AddIOp>(loc, fillRound, i32(wb, loc, 1)), i32(wb, loc, 2));
    wb.create<MbarrierWaitOp>(loc, barrierAt(wb, loc, empty, fillSlot), parity);
  }
  Value bar = barrierAt(pb, loc, full, fillSlot);
  pb.create<MbarrierExpectOp>(loc, bar, pb.getI32IntegerAttr(int32_t(bytes)), Value());
  for (auto [slotType, tile, ring] : llvm::zip(slotTypes, tiles, rings)) {
    Value dst = pb.create<MemDescIndexOp>(loc, slotType, ring, fillSlot);
    Value view = tmaView(pb, loc, dst, tile);
    TensorMapOp map = buildTensorMap(func, tile, cast<MemDescType>(view.getType()));
    TmaTile mine = tile;
    for (TmaDim &dim : mine.dims)
      dim.start = cloner.clone(pb, dim.start);
    pb.create<TmaLoadOp>(loc, map, buildTmaCoords(pb, loc, mine), view, bar, Value());
  }
  return true;
}

} // namespace blk::gpu
