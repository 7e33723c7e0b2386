//===- PipelineLoops.cpp - --blkgpu-pipeline-loops ------------------------===//
//
// Expects: blkgpu IR after blkgpu-accelerate-matmul; the kernel's
// `blk.num_stages` = S. Guarantees: with S >= 2 on a target with cp.async,
// in every innermost scf.for, each block load whose only user stores it
// into a shared-memory buffer (a tensor-core operand) and whose `other` is
// absent or zero is fetched S - 1 iterations ahead into an S-slot ring:
//
//   prologue: copies of iterations 0 .. S-2, one group each
//   body i:   async_wait (S-2 groups may stay in flight: tile i has landed)
//             the consumers read slot i % S
//             copies of iteration i + S - 1 into slot (i + S - 1) % S; commit
//
// (the copies go right after the wait instead when no wgmma of the loop
// runs on past its iteration: they then overlap the whole body.)
//   after:    async_wait 0
//
// A wgmma whose accumulator the loop only carries runs on into the next
// iteration (pending = 1): a GEMM's, whose next reader is the next wgmma
// (the copies then wait behind it), and attention's P·V, whose next
// reader (acc · α) is waited for right before it; the ring such a wgmma
// reads has S + 1 slots, so the copies-first order still never overwrites
// the tile it may still be reading.
//
// An operand buffer in a branch of the body (a dot under an `if`) whose
// load runs every iteration moves up to that load first
// (hoistOperandBuffers): the ring then works as for any other dot, its
// wait at the body's level, and the dot reads its slot in the branch.
// Copies past the end are masked off (the tail is predicated, not peeled);
// an empty group is still committed, so the wait count is the same in
// every iteration. The ops that compute the copies' addresses, masks and
// the loop-carried pointers they advance run S - 1 iterations ahead with
// them (stage 0); everything else in the loop is stage S - 1, which
// computes its own copy of any index arithmetic (of the induction variable
// and invariants) it shares with stage 0 instead of receiving it through a
// loop-carried value. Loops whose address computation has side effects, or
// that hold other loops, are left alone. The schedule is expanded by MLIR's
// scf::pipelineForLoop.
//
// On a target with TMA (and the `tma` option), a loop whose prefetches are
// all boxes of 2-D tensors (TmaTile.h) read only by wgmma fills its rings
// with blkgpu.tma_load instead: per ring size an mbarrier per slot, armed
// by one mbarrier_expect per iteration with the bytes of its copies, and
// mbarrier_wait on phase (i / slots) % 2 where the async_wait was; no
// commit, no wait after the loop. When a box reads what its load reads only
// for some arguments (a `% M` dim, an extent that may be 0), the loop is
// versioned on that first (PipelineTma.cpp) and the other version keeps
// cp.async.
// In a kernel with `blk.warp_specialize`, the body goes into the consumer
// region of a blkgpu.warp_specialize first, and the first TMA loop is
// filled by the producer warpgroup instead (WarpSpecialize.cpp): no
// prologue, no stage 0 in the consumers' loop.
// Tests: tests/lit/blkgpu/pipeline-loops.mlir (@run_on: attention's;
// @dot_in_branch), tests/lit/codegen/attention-run-on.test, the backend
// oracle (interp/backend-oracle-branch.test).
//
//===----------------------------------------------------------------------===//
#include "PipelineTma.h"

#include "blk/Dialect/BlkGpu/IR/Layout.h"
#include "blk/Support/ConfigAttrs.h"
#include "blk/Support/WarpSpecialize.h"
#include "blk/Dialect/BlkGpu/Transforms/Passes.h"
#include "blk/Dialect/BlkGpu/Transforms/Utility.h"
#include "blk/IR/BlkOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "llvm/ADT/SetVector.h"

#include <map>

using namespace mlir;

namespace blk::gpu {

#define GEN_PASS_DEF_PIPELINELOOPS
#include "blk/Dialect/BlkGpu/Transforms/Passes.h.inc"

namespace {

/// Marks a wgmma findRunOn chose, from the rewrite to runOnAcrossIterations.
constexpr llvm::StringLiteral kRunOn = "blkgpu.run_on";

} // namespace

/// True when `v` is absent or a zero splat constant (cp.async fills zeros).
static bool isZeroOrAbsent(Value v) {
  return !v || matchPattern(v, m_PosZeroFloat()) || matchPattern(v, m_Zero());
}

/// A load of `loop`'s body (possibly through a trans) whose only user is
/// an operand buffer: the loads findPrefetches may take. The buffer may
/// sit in a branch inside the body (hoistOperandBuffers).
static std::optional<Prefetch> operandLoad(LoadOp load) {
  if (!isa<RankedTensorType>(load.getType()) || !load->hasOneUse() ||
      !isZeroOrAbsent(load.getOther()))
    return std::nullopt;
  Operation *user = *load->getUsers().begin();
  auto trans = dyn_cast<TransOp>(user);
  if (trans) {
    if (!trans->hasOneUse())
      return std::nullopt;
    user = *trans->getUsers().begin();
  }
  auto alloc = dyn_cast<LocalAllocOp>(user);
  if (!alloc)
    return std::nullopt;
  return Prefetch{load, trans, alloc};
}

void hoistOperandBuffers(scf::ForOp loop) {
  Block *body = loop.getBody();
  for (Operation &op : *body) {
    auto load = dyn_cast<LoadOp>(&op);
    std::optional<Prefetch> p = load ? operandLoad(load) : std::nullopt;
    if (!p || p->alloc->getBlock() == body)
      continue;
    // The alloc (and a trans beside it) move up to their source, which
    // already runs every iteration: only the shared-memory store becomes
    // unconditional, into a buffer nothing else writes.
    Operation *at = load;
    if (p->trans) {
      if (p->trans->getBlock() != body)
        p->trans->moveAfter(at);
      at = p->trans;
    }
    p->alloc->moveAfter(at);
  }
}

/// The loads of `loop`'s body that fill a tensor-core operand buffer.
SmallVector<Prefetch> findPrefetches(scf::ForOp loop) {
  SmallVector<Prefetch> out;
  for (Operation &op : *loop.getBody()) {
    auto load = dyn_cast<LoadOp>(&op);
    std::optional<Prefetch> p = load ? operandLoad(load) : std::nullopt;
    if (p && p->alloc->getBlock() == loop.getBody())
      out.push_back(*p);
  }
  return out;
}

/// (iv - lb) / step: the number of the iteration `iv` is.
Value iterationOf(OpBuilder &b, Location loc, scf::ForOp loop) {
  Value iv = loop.getInductionVar();
  return b.create<arith::DivSIOp>(loc, b.create<arith::SubIOp>(loc, iv, loop.getLowerBound()),
                                  loop.getStep());
}

/// `x` as an i32 (ring indices and phases are).
Value toI32(OpBuilder &b, Location loc, Value x) {
  return x.getType().isInteger(32) ? x : b.create<arith::TruncIOp>(loc, b.getI32Type(), x);
}

/// Iteration % stages: the ring slot of the iteration `iv` is.
Value slotOf(OpBuilder &b, Location loc, scf::ForOp loop, unsigned stages) {
  Type t = loop.getInductionVar().getType();
  Value n = b.create<arith::ConstantOp>(loc, b.getIntegerAttr(t, stages));
  return toI32(b, loc, b.create<arith::RemSIOp>(loc, iterationOf(b, loc, loop), n));
}

/// Iteration / slots % 2: the mbarrier phase parity iteration `iv` waits
/// for in its slot.
Value phaseOf(OpBuilder &b, Location loc, scf::ForOp loop, unsigned slots) {
  Type t = loop.getInductionVar().getType();
  Value n = b.create<arith::ConstantOp>(loc, b.getIntegerAttr(t, slots));
  Value two = b.create<arith::ConstantOp>(loc, b.getIntegerAttr(t, 2));
  Value round = b.create<arith::DivSIOp>(loc, iterationOf(b, loc, loop), n);
  return toI32(b, loc, b.create<arith::RemSIOp>(loc, round, two));
}

/// Stage 0: `roots` (the copies and commit, or before the rewrite the loads
/// they replace) plus everything they depend on in the body, including the
/// updates of the loop-carried values they read. Nullopt when that slice has
/// other side effects or regions (it runs past the loop's end).
static std::optional<llvm::SetVector<Operation *>> stageZero(scf::ForOp loop,
                                                             ArrayRef<Operation *> roots) {
  llvm::SetVector<Operation *> set;
  llvm::SmallPtrSet<Operation *, 8> rootSet(roots.begin(), roots.end());
  SmallVector<Operation *> work(roots.begin(), roots.end());
  Block *body = loop.getBody();
  Operation *yield = body->getTerminator();
  auto visitValue = [&](Value v) {
    if (Operation *def = v.getDefiningOp()) {
      if (def->getBlock() == body)
        work.push_back(def);
      return;
    }
    auto arg = dyn_cast<BlockArgument>(v);
    if (arg && arg.getOwner() == body && arg.getArgNumber() >= loop.getNumInductionVars())
      if (Operation *def =
              yield->getOperand(arg.getArgNumber() - loop.getNumInductionVars()).getDefiningOp())
        if (def->getBlock() == body)
          work.push_back(def);
  };
  while (!work.empty()) {
    Operation *op = work.pop_back_val();
    if (!set.insert(op))
      continue;
    bool ours = rootSet.contains(op) || isa<MemDescIndexOp>(op);
    if ((!ours && !isMemoryEffectFree(op)) || op->getNumRegions() != 0)
      return std::nullopt;
    for (Value v : op->getOperands())
      visitValue(v);
  }
  return set;
}

/// The ops that compute `v` from the induction variable and loop
/// invariants alone, in body order: integer (index) arithmetic, pure and
/// without regions, at most a few ops; nullopt when `v` needs anything else
/// (a loop-carried value, a pointer, a load).
static std::optional<SmallVector<Operation *>> indexSlice(scf::ForOp loop, Value v) {
  constexpr unsigned kMaxOps = 8;
  auto isIndexType = [](Type t) {
    if (auto tensor = dyn_cast<RankedTensorType>(t))
      t = tensor.getElementType();
    return isa<IntegerType>(t);
  };
  llvm::SetVector<Operation *> ops;
  SmallVector<Value> work = {v};
  while (!work.empty()) {
    Value x = work.pop_back_val();
    if (x == loop.getInductionVar() || loop.isDefinedOutsideOfLoop(x))
      continue;
    Operation *def = x.getDefiningOp();
    if (!def || def->getBlock() != loop.getBody() || def->getNumRegions() != 0 ||
        !isMemoryEffectFree(def) || !llvm::all_of(def->getResultTypes(), isIndexType))
      return std::nullopt;
    if (ops.insert(def) && ops.size() > kMaxOps)
      return std::nullopt;
    llvm::append_range(work, def->getOperands());
  }
  SmallVector<Operation *> sorted = ops.takeVector();
  llvm::sort(sorted, [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return sorted;
}

/// A consumer (stage S - 1) reading a value that the copies' stage (`early`)
/// computes would get it through a loop-carried value that the expander
/// adds, in the copies' layout: attention's column indices and their mask
/// then moved through shared memory into the scores' layout every
/// iteration, and the carried block could not be recomputed there. When
/// the value is index arithmetic of the induction variable and invariants,
/// the consumers compute their own copy (before the first of them), which
/// blkgpu-remove-layout-conversions then recomputes in their layout.
static void recomputeIndexMath(scf::ForOp loop, const llvm::SetVector<Operation *> &early) {
  DenseMap<Value, Value> copies;
  for (Operation &op : loop.getBody()->without_terminator()) {
    if (early.contains(&op))
      continue;
    for (OpOperand &use : op.getOpOperands()) {
      Operation *def = use.get().getDefiningOp();
      if (!def || !early.contains(def))
        continue;
      Value &copy = copies[use.get()];
      if (!copy) {
        std::optional<SmallVector<Operation *>> slice = indexSlice(loop, use.get());
        if (!slice)
          continue;
        IRMapping map;
        OpBuilder b(&op);
        for (Operation *x : *slice)
          b.clone(*x, map);
        copy = map.lookup(use.get());
      }
      use.set(copy);
    }
  }
}

/// The copy with its mask and-ed with `pred` (pure ops need no predicate:
/// their results past the loop's end are never used for memory; an empty
/// group is committed like a full one).
static Operation *predicate(RewriterBase &rewriter, Operation *op, Value pred) {
  // TMA copies and their barrier's arming are issued by one thread: the
  // whole op is skipped past the end (its phase then never completes, and
  // nothing waits for it).
  if (isa<TmaLoadOp, MbarrierExpectOp>(op)) {
    unsigned predIndex = op->getNumOperands() - 1;
    bool hasPred = isa<TmaLoadOp>(op) ? bool(cast<TmaLoadOp>(op).getPred())
                                      : bool(cast<MbarrierExpectOp>(op).getPred());
    OpBuilder::InsertionGuard guard(rewriter);
    rewriter.setInsertionPoint(op);
    Value on = hasPred ? rewriter.create<arith::AndIOp>(op->getLoc(), op->getOperand(predIndex), pred)
                       : pred;
    rewriter.modifyOpInPlace(op, [&] {
      if (auto load = dyn_cast<TmaLoadOp>(op))
        load.getPredMutable().assign(on);
      else
        cast<MbarrierExpectOp>(op).getPredMutable().assign(on);
    });
    return op;
  }
  auto copy = dyn_cast<AsyncCopyOp>(op);
  if (!copy)
    return op;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(copy);
  auto ptrType = cast<RankedTensorType>(copy.getPtr().getType());
  auto maskType = RankedTensorType::get(ptrType.getShape(), rewriter.getI1Type(),
                                        ptrType.getEncoding());
  Value splat = rewriter.create<SplatOp>(copy.getLoc(), maskType, pred);
  Value mask = copy.getMask() ? rewriter.create<arith::AndIOp>(copy.getLoc(), copy.getMask(), splat)
                              : splat;
  rewriter.modifyOpInPlace(copy, [&] { copy.getMaskMutable().assign(mask); });
  return copy;
}

/// The index of the loop-carried value `wgmma`'s result is yielded as, when
/// that yield is its only use.
static std::optional<unsigned> yieldedAs(scf::ForOp loop, WarpGroupDotOp wgmma) {
  if (!wgmma.getResult().hasOneUse())
    return std::nullopt;
  OpOperand &use = *wgmma.getResult().getUses().begin();
  if (use.getOwner() != loop.getBody()->getTerminator())
    return std::nullopt;
  return use.getOperandNumber();
}

/// True when `wgmma` in `loop` can run on while the next iteration starts:
/// its accumulator the loop carries (and nothing else in the loop reads),
/// and both operands are ring slots: a buffer stored anew each iteration
/// (an operand that is not prefetched) would be overwritten while the
/// running wgmma still reads it, and a barrier does not wait for that.
bool canOverlap(scf::ForOp loop, WarpGroupDotOp wgmma) {
  auto isSlot = [](Value v) { return v.getDefiningOp<MemDescIndexOp>() != nullptr; };
  std::optional<unsigned> idx = yieldedAs(loop, wgmma);
  if (!idx || !isSlot(wgmma.getA()) || !isSlot(wgmma.getB()))
    return false;
  BlockArgument arg = loop.getRegionIterArg(*idx);
  return wgmma.getAcc() == arg && arg.hasOneUse();
}

/// Lets each wgmma of the pipelined `loop` that canOverlap run on while the
/// next iteration starts: it waits for all but one group, so the previous
/// iteration's wgmma is done before this iteration's copies overwrite its
/// slot (the barrier before the copies orders that across warpgroups);
/// after the loop, wgmma_wait 0 completes the last one before any use.
void overlapWgmma(scf::ForOp loop) {
  for (Operation &op : loop.getBody()->without_terminator()) {
    auto wgmma = dyn_cast<WarpGroupDotOp>(&op);
    if (!wgmma || !canOverlap(loop, wgmma))
      continue;
    wgmma.setPending(1);
    OpBuilder b(loop->getContext());
    b.setInsertionPointAfter(loop);
    waitForWgmma(b, loop.getLoc(), loop.getResult(*yieldedAs(loop, wgmma)), 0);
  }
}

/// Before the rewrite: the wgmmas of `loop` that may run on into the next
/// iteration although ops there read their accumulator (attention's P·V,
/// whose acc · α comes after the next iteration's Q·Kᵀ): the result is only
/// carried to the next iteration, and every operand in shared memory is a
/// prefetched tile or a buffer from outside the loop (one stored in the
/// loop would be overwritten under the running wgmma). A loop with a
/// wgmma that overlapWgmma lets run on (its carried accumulator read by
/// nothing else) gets none: its copies wait behind that one already.
static SmallVector<WarpGroupDotOp> findRunOn(scf::ForOp loop, ArrayRef<Prefetch> prefetches) {
  SmallVector<WarpGroupDotOp> out;
  for (Operation &op : loop.getBody()->without_terminator()) {
    auto wgmma = dyn_cast<WarpGroupDotOp>(&op);
    if (!wgmma)
      continue;
    std::optional<unsigned> idx = yieldedAs(loop, wgmma);
    if (!idx)
      continue;
    BlockArgument arg = loop.getRegionIterArg(*idx);
    if (arg.hasOneUse() && *arg.getUsers().begin() == wgmma.getOperation())
      return {}; // a GEMM's accumulator chain (overlapWgmma)
    auto prefetched = [&](Value v) {
      return llvm::any_of(prefetches, [&](Prefetch p) { return p.alloc.getResult() == v; });
    };
    if (canRunOn(loop, wgmma, prefetched))
      out.push_back(wgmma);
  }
  return out;
}

/// `wgmma` (yielded by `loop`) leaves its group running (pending = 1);
/// the loop-carried accumulator is waited for just before its first reader
/// in the next iteration, and after the loop. wgmma groups complete in
/// order, so a synchronous wgmma issued before that reader (attention's
/// next Q·Kᵀ) has completed it already and the wait costs nothing; what
/// the running group overlaps is everything up to there. Returns the wait
/// in the body (null when nothing in it reads the accumulator).
Operation *runOnIntoNextIteration(scf::ForOp loop, WarpGroupDotOp wgmma) {
  std::optional<unsigned> idx = yieldedAs(loop, wgmma);
  assert(idx && "the wgmma's result must be yielded");
  wgmma.setPending(1);
  BlockArgument arg = loop.getRegionIterArg(*idx);
  Operation *first = firstUserInBlock(loop.getBody(), arg);
  OpBuilder b(loop->getContext());
  Operation *wait = nullptr;
  if (first) {
    b.setInsertionPoint(first);
    waitForWgmma(b, loop.getLoc(), arg, 0);
    wait = first->getPrevNode();
  }
  b.setInsertionPointAfter(loop);
  waitForWgmma(b, loop.getLoc(), loop.getResult(*idx), 0);
  return wait;
}

Operation *firstUserInBlock(Block *body, Value v) {
  Operation *first = nullptr;
  for (Operation *user : v.getUsers()) {
    Operation *inBody = body->findAncestorOpInBlock(*user);
    if (inBody && (!first || inBody->isBeforeInBlock(first)))
      first = inBody;
  }
  return first;
}

bool canRunOn(scf::ForOp loop, WarpGroupDotOp wgmma, function_ref<bool(Value)> isSlot) {
  std::optional<unsigned> idx = yieldedAs(loop, wgmma);
  if (!idx || loop.getRegionIterArg(*idx).use_empty())
    return false;
  auto ok = [&](Value v) {
    return !isa<MemDescType>(v.getType()) || loop.isDefinedOutsideOfLoop(v) || isSlot(v);
  };
  return ok(wgmma.getA()) && ok(wgmma.getB());
}

/// After the rewrite: each wgmma marked kRunOn runs on into the next
/// iteration (runOnIntoNextIteration).
static void runOnAcrossIterations(scf::ForOp loop) {
  for (Operation &op : llvm::make_early_inc_range(loop.getBody()->without_terminator())) {
    auto wgmma = dyn_cast<WarpGroupDotOp>(&op);
    if (!wgmma || !wgmma->hasAttr(kRunOn))
      continue;
    wgmma->removeAttr(kRunOn);
    if (yieldedAs(loop, wgmma)) // else the pending default (0) keeps it synchronous
      runOnIntoNextIteration(loop, wgmma);
  }
}

/// The TMA boxes of every prefetch of `loop`, when each is one (TmaTile.h)
/// into a slot TMA writes, and only wgmmas read the slots (they read
/// through the async proxy, as TMA writes: no proxy fence between them).
std::optional<SmallVector<TmaTile, 2>> planTma(scf::ForOp loop,
                                                      MutableArrayRef<Prefetch> prefetches) {
  if (prefetches.empty())
    return std::nullopt;
  SmallVector<TmaTile, 2> tiles;
  for (Prefetch &p : prefetches) {
    std::optional<TmaTile> tile = analyzeTmaTile(p.load, loop, bool(p.trans));
    if (!tile)
      return std::nullopt;
    MemDescType slot = p.alloc.getType();
    MemDescType view = tile->transposed ? slot.getTransposed() : slot;
    if (!view || !tmaSwizzle(view))
      return std::nullopt;
    for (Operation *user : p.alloc->getUsers())
      if (!isa<WarpGroupDotOp>(user))
        return std::nullopt;
    tiles.push_back(*tile);
  }
  return tiles;
}

/// Pipelines `loop` with `stages` slots, filled by TMA when `tma` (the
/// loop's prefetches all passed planTma), else by cp.async; false when it
/// is left as it was.
static bool pipelineLoop(scf::ForOp loop, unsigned stages, bool tma) {
  SmallVector<Prefetch> prefetches = findPrefetches(loop);
  if (prefetches.empty())
    return false;
  std::optional<SmallVector<TmaTile, 2>> tiles;
  if (tma && !(tiles = planTma(loop, prefetches)))
    return false;
  SmallVector<Operation *> loads;
  for (Prefetch &p : prefetches)
    loads.push_back(p.load);
  if (!stageZero(loop, loads))
    return false; // the addresses need a side effect (e.g. a load of indices)

  MLIRContext *ctx = loop.getContext();
  Location loc = loop.getLoc();
  Block *body = loop.getBody();
  // A ring a running wgmma reads (findRunOn) has one slot more: the copies
  // of iteration i + S - 1 then overwrite the slot of iteration i - 2, not
  // the one of i - 1 that the wgmma may still be reading.
  SmallVector<WarpGroupDotOp> runOn = findRunOn(loop, prefetches);
  auto slotsOf = [&](Prefetch p) {
    bool readOnLater = llvm::any_of(runOn, [&](WarpGroupDotOp w) {
      return w.getA() == p.alloc.getResult() || w.getB() == p.alloc.getResult();
    });
    return stages + (readOnLater ? 1 : 0);
  };
  for (WarpGroupDotOp w : runOn)
    w->setAttr(kRunOn, UnitAttr::get(ctx));
  // In the body: the write slots first, the copies at the loads, the wait
  // and the read slots at the first buffer, the reads at the buffers.
  OpBuilder b(ctx);
  b.setInsertionPointToStart(body);
  std::map<unsigned, Value> writeSlots, readSlots; // by ring size
  for (Prefetch &p : prefetches) {
    Value &slot = writeSlots[slotsOf(p)];
    if (!slot)
      slot = slotOf(b, loc, loop, slotsOf(p));
  }
  bool waited = false;
  SmallVector<Operation *> roots;
  // TMA: one ring of mbarriers per ring size, armed once per iteration
  // with the bytes of all its copies.
  std::map<unsigned, Value> barriers, writeBarriers, readBarriers;
  std::map<unsigned, int64_t> tmaBytes;
  if (tiles) {
    OpBuilder before(loop);
    auto barrierLayout = SharedEncodingAttr::get(ctx, 1, 1, 1, ArrayRef<unsigned>{0}, 0, 0);
    for (Prefetch &p : prefetches) {
      unsigned slots = slotsOf(p);
      MemDescType slotType = p.alloc.getType();
      tmaBytes[slots] += slotType.getNumElements() *
                         (slotType.getElementType().getIntOrFloatBitWidth() / 8);
      Value &ring = barriers[slots];
      if (ring)
        continue;
      ring = before.create<LocalAllocOp>(
          loc, MemDescType::get(ctx, {int64_t(slots), 1}, before.getI64Type(), barrierLayout),
          Value());
      before.create<MbarrierInitOp>(loc, ring, before.getI32IntegerAttr(1));
    }
  }
  auto oneBarrier = [&](unsigned slots) {
    return MemDescType::get(ctx, {1}, b.getI64Type(),
                            cast<MemDescType>(barriers[slots].getType()).getEncoding());
  };
  for (auto [i, p] : llvm::enumerate(prefetches)) {
    unsigned slots = slotsOf(p);
    MemDescType slotType = p.alloc.getType();
    SmallVector<int64_t> ringShape = {int64_t(slots)};
    llvm::append_range(ringShape, slotType.getShape());
    OpBuilder before(loop);
    Value ring = before.create<LocalAllocOp>(
        loc, MemDescType::get(ctx, ringShape, slotType.getElementType(), slotType.getEncoding()),
        Value());
    b.setInsertionPoint(p.load);
    Value dst = b.create<MemDescIndexOp>(p.load.getLoc(), slotType, ring, writeSlots[slots]);
    if (tiles) {
      const TmaTile &tile = (*tiles)[i];
      Location l = p.load.getLoc();
      Value &bar = writeBarriers[slots];
      if (!bar) {
        bar = b.create<MemDescIndexOp>(l, oneBarrier(slots), barriers[slots], writeSlots[slots]);
        roots.push_back(b.create<MbarrierExpectOp>(
            l, bar, b.getI32IntegerAttr(int32_t(tmaBytes[slots])), Value()));
      }
      Value view = tmaView(b, l, dst, tile);
      TensorMapOp map = buildTensorMap(loop->getParentOfType<func::FuncOp>(), tile,
                                       cast<MemDescType>(view.getType()));
      SmallVector<Value> coords = buildTmaCoords(b, l, tile);
      roots.push_back(b.create<TmaLoadOp>(l, map, coords, view, bar, Value()));
      b.setInsertionPoint(p.alloc);
      Value &readSlot = readSlots[slots];
      if (!readSlot)
        readSlot = slotOf(b, loc, loop, slots);
      Value &readBar = readBarriers[slots];
      if (!readBar) {
        // Iteration j waits for phase (j / slots) % 2 of its slot's barrier.
        readBar = b.create<MemDescIndexOp>(loc, oneBarrier(slots), barriers[slots], readSlot);
        b.create<MbarrierWaitOp>(loc, readBar, phaseOf(b, loc, loop, slots));
      }
      Value readView = b.create<MemDescIndexOp>(p.alloc.getLoc(), slotType, ring, readSlot);
      p.alloc.getResult().replaceAllUsesWith(readView);
      continue;
    }
    Value ptr = p.load.getPtr(), mask = p.load.getMask();
    ArrayRef<int32_t> perm;
    if (p.trans) {
      // Transposing the pointers (and the mask) is free in registers; the
      // copy then fills the slot as the transposed view.
      perm = p.trans.getOrder();
      ptr = b.create<TransOp>(p.load.getLoc(), ptr, perm);
      if (mask)
        mask = b.create<TransOp>(p.load.getLoc(), mask, perm);
    }
    auto copy = b.create<AsyncCopyOp>(p.load.getLoc(), ptr, dst, mask);
    // The access hints (contiguity, alignment, mask constancy per dim)
    // decide the copy's vector width as they did the load's.
    for (NamedAttribute attr : p.load->getAttrs()) {
      if (!attr.getName().getValue().starts_with("blkgpu."))
        continue;
      Attribute value = attr.getValue();
      if (auto hint = dyn_cast<DenseI64ArrayAttr>(value); hint && !perm.empty()) {
        SmallVector<int64_t> permuted;
        for (int32_t d : perm)
          permuted.push_back(hint[d]);
        value = DenseI64ArrayAttr::get(ctx, permuted);
      }
      copy->setAttr(attr.getName(), value);
    }
    roots.push_back(copy);
    b.setInsertionPoint(p.alloc);
    if (!waited) {
      b.create<AsyncWaitOp>(loc, b.getI32IntegerAttr(int32_t(stages) - 2));
      waited = true;
    }
    Value &readSlot = readSlots[slots];
    if (!readSlot)
      readSlot = slotOf(b, loc, loop, slots);
    Value view = b.create<MemDescIndexOp>(p.alloc.getLoc(), slotType, ring, readSlot);
    p.alloc.getResult().replaceAllUsesWith(view);
  }
  // One group per iteration, after its last copy.
  if (!tiles) {
    b.setInsertionPointAfter(roots.back());
    roots.push_back(b.create<AsyncCommitOp>(loc));
  }
  for (Prefetch &p : prefetches) {
    p.alloc->erase();
    if (p.trans)
      p.trans->erase();
    p.load->erase();
  }
  recomputeIndexMath(loop, *stageZero(loop, roots));
  llvm::SetVector<Operation *> early = *stageZero(loop, roots);
  // Where the copies of iteration i + S - 1 go in body i. They overwrite the
  // slot iteration i - 1 read. When every wgmma of the loop is synchronous,
  // that read is over once all threads have passed the wait for tile i, so
  // the copies go right after it: they overlap the whole body, and the one
  // barrier there orders both the landed tile's reads and the slot's reuse
  // (attention: S = 2 then prefetches a full iteration ahead). A wgmma that
  // overlapWgmma lets run on still reads its slot then, so in such a loop
  // (a GEMM's) the copies stay after the consumers, behind its wait.
  bool copiesFirst = true;
  Operation *firstRead = nullptr;
  for (Operation &op : body->without_terminator()) {
    if (auto wgmma = dyn_cast<WarpGroupDotOp>(&op); wgmma && canOverlap(loop, wgmma))
      copiesFirst = false;
    if (!firstRead && isa<AsyncWaitOp, MbarrierWaitOp>(op))
      firstRead = &op;
  }

  scf::PipeliningOption options;
  options.getScheduleFn = [&](scf::ForOp forOp,
                              std::vector<std::pair<Operation *, unsigned>> &schedule) {
    // Consumers of iteration i (stage S - 1) and the copies of iteration
    // i + S - 1 (stage 0): the copies after the consumers, or after the
    // wait (and the read slot computed with it) when copiesFirst.
    // The consumers up to and including `split` (all of them when null),
    // then the copies, then the other consumers.
    Operation *split = copiesFirst ? firstRead : nullptr;
    SmallVector<Operation *> head, tail; // consumers before / after the copies
    bool afterSplit = false;
    for (Operation &op : forOp.getBody()->without_terminator()) {
      if (!early.contains(&op))
        (afterSplit ? tail : head).push_back(&op);
      if (&op == split)
        afterSplit = true;
    }
    for (Operation *op : head)
      schedule.push_back({op, stages - 1});
    for (Operation &op : forOp.getBody()->without_terminator())
      if (early.contains(&op))
        schedule.push_back({&op, 0});
    for (Operation *op : tail)
      schedule.push_back({op, stages - 1});
  };
  options.peelEpilogue = false;
  options.supportDynamicLoops = true;
  options.predicateFn = predicate;
  IRRewriter rewriter(ctx);
  rewriter.setInsertionPoint(loop); // the prologue goes before the loop
  FailureOr<scf::ForOp> pipelined = scf::pipelineForLoop(rewriter, loop, options);
  if (failed(pipelined)) {
    // Still correct unpipelined once every copy is waited for in place.
    loop.walk([&](AsyncWaitOp w) { w.setPending(0); });
    loop.walk([&](WarpGroupDotOp w) { w->removeAttr(kRunOn); });
    return true;
  }
  b.setInsertionPointAfter(*pipelined);
  if (!tiles)
    b.create<AsyncWaitOp>(loc, b.getI32IntegerAttr(0));
  overlapWgmma(*pipelined);
  runOnAcrossIterations(*pipelined);
  return true;
}

namespace {
struct PipelineLoopsPass : impl::PipelineLoopsBase<PipelineLoopsPass> {
  using PipelineLoopsBase::PipelineLoopsBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    GpuTarget target = GpuTarget::fromArch(arch, 80);
    // A warp-specialised kernel's extra warps must run nothing of the body
    // but what a producer region gives them, whatever is pipelined.
    WarpSpecializeOp ws;
    if (func->hasAttr(blk::kWarpSpecializeAttr) &&
        func->hasAttr(BlkGpuDialect::kNumWarpsAttr) && !func.getBody().empty()) {
      func.walk([&](WarpSpecializeOp op) { ws = op; });
      if (!ws)
        ws = wrapInWarpSpecialize(func);
    }
    auto stages = func->getAttrOfType<IntegerAttr>("blk.num_stages");
    if (!target.hasCpAsync() || !stages || stages.getInt() < 2 ||
        !func->hasAttr(BlkGpuDialect::kNumWarpsAttr))
      return;
    // One loop per kernel gets the producer warpgroup: the first TMA loop.
    bool specialized = ws && !ws.getProducer().empty() && !ws.getProducer().front().empty();
    auto specialize = [&](scf::ForOp loop, unsigned s) {
      if (!ws || specialized)
        return false;
      SmallVector<Prefetch> prefetches = findPrefetches(loop);
      std::optional<SmallVector<TmaTile, 2>> tiles = planTma(loop, prefetches);
      specialized = tiles && specializeLoop(loop, prefetches, *tiles, s, ws);
      return specialized;
    };
    SmallVector<scf::ForOp> loops;
    func.walk([&](scf::ForOp loop) {
      bool innermost = true;
      loop.getBody()->walk([&](Operation *op) {
        if (isa<scf::ForOp, scf::WhileOp>(op))
          innermost = false;
      });
      if (innermost)
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops) {
      unsigned s = unsigned(stages.getInt());
      hoistOperandBuffers(loop);
      // TMA where every box reads what its load reads, which may depend on
      // the arguments (a `% M` dim, a tensor of extent 0): the loop is
      // versioned, the other version keeping cp.async.
      SmallVector<Prefetch> prefetches = findPrefetches(loop);
      if (std::optional<SmallVector<TmaTile, 2>> tiles;
          tma && !func->hasAttr(blk::kNoTmaAttr) && target.hasTma() &&
          (tiles = planTma(loop, prefetches))) {
        // Boxes whose dims are constants and never wrap read what the loads
        // read in every program: no second version.
        bool guarded = llvm::any_of(*tiles, [](const TmaTile &t) {
          return llvm::any_of(t.dims, [](const TmaDim &d) {
            return d.wrapped || !d.extent.asConstant();
          });
        });
        if (!guarded) {
          if (!specialize(loop, s))
            pipelineLoop(loop, s, /*tma=*/true);
          continue;
        }
        OpBuilder b(loop);
        Value cond = buildTmaCondition(b, loop.getLoc(), *tiles);
        auto [tmaLoop, plainLoop] = versionLoop(loop, cond);
        if (!specialize(tmaLoop, s)) {
          pipelineLoop(tmaLoop, s, /*tma=*/true);
        } else if (tmaLoop->getParentOfType<scf::ForOp>()) {
          // A persistent kernel: the producer fills the next tile's slots
          // while the consumers run this tile, which may be an edge tile
          // in the cp.async version, so that version's buffers cannot
          // reuse the TMA rings' bytes. Left unpipelined (one buffer per
          // operand), it fits beside them.
          continue;
        }
        pipelineLoop(plainLoop, s, /*tma=*/false);
        continue;
      }
      pipelineLoop(loop, s, /*tma=*/false);
    }
  }
};
} // namespace

} // namespace blk::gpu
