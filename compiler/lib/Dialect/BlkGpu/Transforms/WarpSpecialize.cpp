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
//                     done), else on empty[i % S]
//
// so no barrier is left in the consumers' loop and the copies run up to
// S tiles ahead of the slowest consumer warp. What the producer needs
// (the loop's bounds, the branch conditions, the boxes' coordinates) is
// recomputed in its region from the arguments and program ids: scalar
// integer arithmetic only, else the loop is pipelined as usual.
// Test: tests/lit/blkgpu/warp-specialize.mlir.
//
//===----------------------------------------------------------------------===//
#include "PipelineTma.h"

#include "blk/Dialect/BlkGpu/IR/Layout.h"
#include "blk/Support/WarpSpecialize.h"
#include "blk/IR/BlkOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;

namespace blk::gpu {

/// setmaxnreg's split of one program per SM's 64 K registers: the producer
/// warpgroup keeps 40 per thread, two consumer warpgroups get 232
/// (128 * 40 + 256 * 232 = 64 K - 1 K; what ThunderKittens and CUTLASS use).
constexpr int32_t kProducerRegisters = 40;
constexpr int32_t kConsumerRegisters = 232;

WarpSpecializeOp wrapInWarpSpecialize(func::FuncOp func) {
  Block &entry = func.getBody().front();
  OpBuilder b(entry.getTerminator());
  auto ws = b.create<WarpSpecializeOp>(func.getLoc(), int32_t(blk::kProducerWarps),
                                       kProducerRegisters, kConsumerRegisters);
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

  /// `a` with its atoms recomputed in the producer, `iv` standing for the
  /// consumers' induction variable.
  Affine clone(OpBuilder &b, const Affine &a, Value consumerIv, Value iv) {
    Affine out = a;
    for (auto &term : out.terms)
      term.first = term.first == consumerIv ? iv : clone(b, term.first);
    return out;
  }

private:
  WarpSpecializeOp ws;
  llvm::DenseMap<Value, bool> clonable;
  IRMapping map;
};

} // namespace

/// The conditions of the then-branches `loop` is in, up to the consumer
/// region; nullopt when some ancestor is anything else.
static std::optional<SmallVector<Value>> enclosingConditions(scf::ForOp loop,
                                                             WarpSpecializeOp ws) {
  SmallVector<Value> conditions;
  Region *region = loop->getParentRegion();
  for (Operation *parent = loop->getParentOp(); parent != ws.getOperation();
       parent = parent->getParentOp()) {
    auto branch = dyn_cast_or_null<scf::IfOp>(parent);
    if (!branch || region != &branch.getThenRegion())
      return std::nullopt;
    conditions.push_back(branch.getCondition());
    region = parent->getParentRegion();
  }
  return conditions;
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

/// The wgmma of `loop`'s body that reads one of `slots` last.
static WarpGroupDotOp lastReader(scf::ForOp loop, ArrayRef<Value> slots) {
  WarpGroupDotOp last;
  for (Operation &op : loop.getBody()->without_terminator())
    if (auto wgmma = dyn_cast<WarpGroupDotOp>(&op))
      if (llvm::is_contained(slots, wgmma.getA()) || llvm::is_contained(slots, wgmma.getB()))
        last = wgmma;
  return last;
}

bool specializeLoop(scf::ForOp loop, MutableArrayRef<Prefetch> prefetches,
                    ArrayRef<TmaTile> tiles, unsigned stages, WarpSpecializeOp ws) {
  std::optional<SmallVector<Value>> conditions = enclosingConditions(loop, ws);
  if (!conditions || prefetches.empty())
    return false;
  ProducerCloner cloner(ws);
  SmallVector<Value> needed = {loop.getLowerBound(), loop.getUpperBound(), loop.getStep()};
  llvm::append_range(needed, *conditions);
  for (const TmaTile &tile : tiles)
    for (const TmaDim &dim : tile.dims)
      for (auto [atom, coef] : dim.start.terms)
        if (atom != loop.getInductionVar())
          needed.push_back(atom);
  if (!llvm::all_of(needed, [&](Value v) { return cloner.canClone(v); }))
    return false;

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

  // Consumers: wait for the slot, read it, release it.
  Operation *first = prefetches.front().alloc;
  for (Prefetch &p : prefetches)
    if (p.alloc->isBeforeInBlock(first))
      first = p.alloc;
  OpBuilder b(first);
  Value slot = slotOf(b, loc, loop, stages);
  b.create<MbarrierWaitOp>(loc, barrierAt(b, loc, full, slot), phaseOf(b, loc, loop, stages));
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
  WarpGroupDotOp last = lastReader(loop, views);
  if (!last)
    return true; // planTma saw the wgmmas; unreachable, but stay correct
  b.setInsertionPointAfter(last);
  if (canOverlap(loop, last)) {
    // wgmma i waits for all groups but its own: iteration i - 1's is done.
    Value iter = iterationOf(b, loc, loop);
    Type t = iter.getType();
    auto cst = [&](int64_t c) { return b.create<arith::ConstantOp>(loc, b.getIntegerAttr(t, c)); };
    Value prev = b.create<arith::RemSIOp>(
        loc, b.create<arith::AddIOp>(loc, iter, cst(int64_t(stages) - 1)), cst(stages));
    Value notFirst = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, iter, cst(1));
    b.create<MbarrierArriveOp>(loc, barrierAt(b, loc, empty, toI32(b, loc, prev)), notFirst);
  } else {
    // Its wait (blkgpu-defer-wgmma-waits places it before the arrive).
    b.create<MbarrierArriveOp>(loc, barrierAt(b, loc, empty, slot), Value());
  }
  overlapWgmma(loop);

  // Producer: the same iterations, one TMA stage each.
  Block &producer = ws.getProducer().front();
  OpBuilder pb = OpBuilder::atBlockEnd(&producer);
  Value on;
  for (Value c : *conditions) {
    Value mine = cloner.clone(pb, c);
    on = on ? pb.create<arith::AndIOp>(loc, on, mine) : mine;
  }
  if (on) {
    auto branch = pb.create<scf::IfOp>(loc, TypeRange{}, on, /*withElseRegion=*/false);
    pb.setInsertionPointToStart(&branch.getThenRegion().front());
  }
  Value lb = cloner.clone(pb, loop.getLowerBound());
  Value ub = cloner.clone(pb, loop.getUpperBound());
  Value step = cloner.clone(pb, loop.getStep());
  for (Value v : needed) // the boxes' invariant atoms, computed once
    cloner.clone(pb, v);
  auto fill = pb.create<scf::ForOp>(loc, lb, ub, step);
  pb.setInsertionPointToStart(fill.getBody());
  Value iter = iterationOf(pb, loc, fill);
  Type t = iter.getType();
  auto cst = [&](int64_t c) { return pb.create<arith::ConstantOp>(loc, pb.getIntegerAttr(t, c)); };
  Value fillSlot = toI32(pb, loc, pb.create<arith::RemSIOp>(loc, iter, cst(stages)));
  Value round = pb.create<arith::DivSIOp>(loc, iter, cst(stages));
  Value reused = pb.create<arith::CmpIOp>(loc, arith::CmpIPredicate::sge, iter, cst(stages));
  auto wait = pb.create<scf::IfOp>(loc, TypeRange{}, reused, /*withElseRegion=*/false);
  {
    // Round r reuses the slot round r - 1 filled: wait for its release.
    OpBuilder wb = OpBuilder::atBlockBegin(&wait.getThenRegion().front());
    Value parity = wb.create<arith::RemSIOp>(
        loc, wb.create<arith::AddIOp>(loc, round, wb.create<arith::ConstantOp>(loc, wb.getIntegerAttr(t, 1))),
        wb.create<arith::ConstantOp>(loc, wb.getIntegerAttr(t, 2)));
    wb.create<MbarrierWaitOp>(loc, barrierAt(wb, loc, empty, fillSlot), toI32(wb, loc, parity));
  }
  Value bar = barrierAt(pb, loc, full, fillSlot);
  pb.create<MbarrierExpectOp>(loc, bar, pb.getI32IntegerAttr(int32_t(bytes)), Value());
  for (auto [slotType, tile, ring] : llvm::zip(slotTypes, tiles, rings)) {
    Value dst = pb.create<MemDescIndexOp>(loc, slotType, ring, fillSlot);
    Value view = tmaView(pb, loc, dst, tile);
    TensorMapOp map = buildTensorMap(func, tile, cast<MemDescType>(view.getType()));
    TmaTile mine = tile;
    for (TmaDim &dim : mine.dims)
      dim.start = cloner.clone(pb, dim.start, loop.getInductionVar(), fill.getInductionVar());
    pb.create<TmaLoadOp>(loc, map, buildTmaCoords(pb, loc, mine), view, bar, Value());
  }
  return true;
}

} // namespace blk::gpu
