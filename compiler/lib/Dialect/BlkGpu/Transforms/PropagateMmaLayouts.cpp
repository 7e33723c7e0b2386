//===- PropagateMmaLayouts.cpp - --blkgpu-propagate-mma-layouts -----------===//
//
// Expects: blkgpu IR after blkgpu-accelerate-matmul, where each wgmma's
// result is converted back to the blocked layout its users were given.
// Guarantees: the users of a tensor-core accumulator compute in its layout
// instead: elementwise ops, reductions along its rows or columns (their
// results in the slice of the mma layout: shuffles within a quad, no shared
// memory), expand_dims / broadcast of such rows, casts, the operand of
// another dot (blkgpu.local_alloc reads the registers as they are) and the
// values a loop carries (the iteration argument, its init and the loop's
// result take the layout, as blkgpu-accelerate-matmul does for a dot's own
// accumulator), and the values an scf.if yields (both sides then yield in
// the layout). A conversion moves past an op only when the op's other
// operands come in that layout for free: recomputable index arithmetic,
// conversions out of it, loop-carried values, or rows of it broadcast; so
// no conversion is added that did not exist, except of a vector (rank 1)
// that is broadcast over the tile: moved once where it is made, in place of
// the tile's conversion. What this is for: attention,
// where S = Q·Kᵀ is scaled, masked, reduced to a running max and sum and
// fed to P·V, all per row of the accumulator, and where a conversion to a
// blocked layout would cost two trips through shared memory per iteration.
// Test: tests/lit/blkgpu/propagate-mma-layouts.mlir.
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/Transforms/Utility.h"

#include "blk/Dialect/BlkGpu/IR/Layout.h"
#include "blk/Dialect/BlkGpu/Transforms/Passes.h"
#include "blk/IR/BlkOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

#include <algorithm>
#include <deque>

using namespace mlir;

namespace blk::gpu {

#define GEN_PASS_DEF_PROPAGATEMMALAYOUTS
#include "blk/Dialect/BlkGpu/Transforms/Passes.h.inc"

/// An mma layout or a slice of one.
static bool isMmaFamily(Attribute enc) {
  while (auto slice = dyn_cast_or_null<SliceEncodingAttr>(enc))
    enc = slice.getParent();
  return isa_and_nonnull<MmaEncodingAttr>(enc);
}

/// True when a block of `type` is held by the same threads in the same
/// registers in layout `enc` (two mma layouts of different instruction
/// widths agree on their rows): converting between them moves nothing.
static bool sameRegisters(Type type, Attribute enc) {
  auto tensor = cast<RankedTensorType>(type);
  return layoutsEquivalent(tensor.getEncoding(), enc, tensor.getShape());
}

/// The emitter reduces an mma layout in registers and quad shuffles only:
/// its warps must not split the axis.
static bool reducesInWarps(Type type, Attribute enc, unsigned axis) {
  std::optional<LayoutView> v = getLayoutView(enc, cast<RankedTensorType>(type).getShape());
  return v && v->distinctWarps(v->kept[axis]) == 1;
}

namespace {

class Propagator {
public:
  Propagator(func::FuncOp func, bool storesFromRegisters)
      : func(func), storesFromRegisters(storesFromRegisters) {}
  void run();

private:
  bool isFree(Value v, Attribute enc, unsigned depth = 0);
  Value inLayout(OpBuilder &b, Value v, Attribute enc);
  ConvertLayoutOp convertBack(Value v, Type oldType);
  void push(ConvertLayoutOp cvt);
  bool retypeOp(Operation *op, ArrayRef<Attribute> operandEnc, ArrayRef<Attribute> resultEnc);
  void retypeCarried(scf::ForOp loop, unsigned idx, Value value);
  void retypeInit(scf::ForOp loop, unsigned idx, Value init);
  void retypeBranchResult(scf::IfOp branch, unsigned idx, Attribute enc);

  func::FuncOp func;
  bool storesFromRegisters;
  std::deque<ConvertLayoutOp> work;
};

} // namespace

/// Cheap elementwise arithmetic (not math functions): made again in a new
/// layout rather than moved.
static bool isCheapArith(Operation *op) {
  return op && isElementwise(op) && op->getNumResults() == 1 &&
         op->getDialect()->getNamespace() == "arith";
}

/// True when `v` can be had in layout `enc` without moving data between
/// threads: see the file comment. Masks built from index arithmetic through
/// earlier conversions (a column mask loaded with K's tile, broadcast over
/// the score tile) count, since they are made again in `enc`.
bool Propagator::isFree(Value v, Attribute enc, unsigned depth) {
  if (getEncoding(v.getType()) == enc || isRematerialisable(v))
    return true;
  if (depth > 12)
    return false;
  if (auto arg = dyn_cast<BlockArgument>(v))
    return isa<scf::ForOp>(arg.getOwner()->getParentOp()) && arg.getArgNumber() > 0;
  Operation *def = v.getDefiningOp();
  if (auto cvt = dyn_cast_or_null<ConvertLayoutOp>(def))
    return sameRegisters(cvt.getSrc().getType(), enc) || isFree(cvt.getSrc(), enc, depth + 1);
  if (auto bc = dyn_cast_or_null<BroadcastOp>(def))
    return isFree(bc.getSrc(), enc, depth + 1);
  if (auto ed = dyn_cast_or_null<ExpandDimsOp>(def))
    return isFree(ed.getSrc(), SliceEncodingAttr::get(v.getContext(), ed.getAxis(), enc),
                  depth + 1);
  if (isCheapArith(def))
    return llvm::all_of(def->getOperands(), [&](Value x) {
      return !isa<RankedTensorType>(x.getType()) || isFree(x, enc, depth + 1);
    });
  // A vector (a row's lse or Δ, loaded for the attention backward) is cheap
  // to move once: its conversion replaces one of the whole tile.
  return cast<RankedTensorType>(v.getType()).getRank() == 1;
}

/// True when a store's pointer or mask can be had in layout `enc` by
/// making its index arithmetic again there: computed from make_range,
/// splat and constants by cheap ops, through the conversions that
/// blkgpu-assign-layouts and blkgpu-coalesce left between them (which
/// blkgpu-remove-layout-conversions folds): nothing moves between threads.
/// Stricter than isFree: a pointer block handed in would have to move.
static bool isAddressFree(Value v, Attribute enc) {
  return getEncoding(v.getType()) == enc ||
         isRematerialisable(v, /*throughConversions=*/true);
}

/// `v` in layout `enc` (isFree(v, enc) holds): broadcasts, expand_dims and
/// cheap arithmetic are made again in the layout, conversions are looked
/// through, anything else is converted (index arithmetic is recomputed in
/// the new layout by blkgpu-remove-layout-conversions; a loop-carried
/// value's conversion goes when the loop carries it in this layout).
Value Propagator::inLayout(OpBuilder &b, Value v, Attribute enc) {
  if (getEncoding(v.getType()) == enc)
    return v;
  Type type = withEncoding(v.getType(), enc);
  Operation *def = v.getDefiningOp();
  if (auto cvt = dyn_cast_or_null<ConvertLayoutOp>(def)) {
    if (cvt.getSrc().getType() == type)
      return cvt.getSrc();
    if (sameRegisters(cvt.getSrc().getType(), enc))
      return b.create<ConvertLayoutOp>(v.getLoc(), type, cvt.getSrc());
    return inLayout(b, cvt.getSrc(), enc);
  }
  if (!def || isRematerialisable(v))
    return b.create<ConvertLayoutOp>(v.getLoc(), type, v);
  if (auto bc = dyn_cast<BroadcastOp>(def)) {
    Value src = inLayout(b, bc.getSrc(), enc);
    return b.create<BroadcastOp>(bc.getLoc(), type, src);
  }
  if (auto ed = dyn_cast<ExpandDimsOp>(def)) {
    Value src = inLayout(b, ed.getSrc(), SliceEncodingAttr::get(v.getContext(), ed.getAxis(), enc));
    return b.create<ExpandDimsOp>(ed.getLoc(), type, src, ed.getAxisAttr());
  }
  if (cast<RankedTensorType>(v.getType()).getRank() == 1 && !isCheapArith(def)) {
    // Moved once, where it is made (before the loop when it is made there).
    OpBuilder after(def->getBlock(), std::next(def->getIterator()));
    return after.create<ConvertLayoutOp>(v.getLoc(), type, v);
  }
  if (isCheapArith(def)) {
    IRMapping map;
    for (Value x : def->getOperands())
      if (isa<RankedTensorType>(x.getType()))
        map.map(x, inLayout(b, x, enc));
    Operation *clone = b.clone(*def, map);
    clone->getResult(0).setType(type);
    return clone->getResult(0);
  }
  return b.create<ConvertLayoutOp>(v.getLoc(), type, v);
}

/// A conversion of `v` (now in an mma-family layout) back to `oldType` for
/// every other user of `v`, queued to move on.
ConvertLayoutOp Propagator::convertBack(Value v, Type oldType) {
  OpBuilder b(v.getContext());
  if (Operation *def = v.getDefiningOp())
    b.setInsertionPointAfter(def);
  else
    b.setInsertionPointToStart(cast<BlockArgument>(v).getOwner());
  auto back = b.create<ConvertLayoutOp>(v.getLoc(), oldType, v);
  v.replaceUsesWithIf(back.getResult(), [&](OpOperand &use) { return use.getOwner() != back; });
  work.push_back(back);
  return back;
}

/// Gives `op` these operand and result layouts (results converted back for
/// their users); false, changing nothing, when an operand is not free.
bool Propagator::retypeOp(Operation *op, ArrayRef<Attribute> operandEnc,
                          ArrayRef<Attribute> resultEnc) {
  for (auto [v, enc] : llvm::zip(op->getOperands(), operandEnc))
    if (enc && !isFree(v, enc))
      return false;
  OpBuilder b(op);
  for (auto [i, enc] : llvm::enumerate(operandEnc))
    if (enc)
      op->setOperand(unsigned(i), inLayout(b, op->getOperand(unsigned(i)), enc));
  for (auto [r, enc] : llvm::zip(op->getResults(), resultEnc)) {
    if (!enc)
      continue;
    Type oldType = r.getType();
    r.setType(withEncoding(oldType, enc));
    convertBack(r, oldType);
  }
  return true;
}

/// Loop `loop` carries its value `idx` in the layout of `value` (what the
/// body yields for it).
void Propagator::retypeCarried(scf::ForOp loop, unsigned idx, Value value) {
  Type newType = value.getType();
  BlockArgument arg = loop.getRegionIterArgs()[idx];
  Type oldType = arg.getType();
  OpBuilder b(loop);
  Value init = loop.getInitArgs()[idx];
  loop.getInitArgsMutable()[idx].assign(b.create<ConvertLayoutOp>(loop.getLoc(), newType, init));
  loop.getBody()->getTerminator()->setOperand(idx, value);
  arg.setType(newType);
  convertBack(arg, oldType);
  Value result = loop.getResult(idx);
  result.setType(newType);
  convertBack(result, oldType);
}

/// The next loop `loop` starts its value `idx` from `init`, in an mma-family
/// layout (what an earlier loop carried): it carries the value in that
/// layout too; what the body yields is converted until it comes in it.
void Propagator::retypeInit(scf::ForOp loop, unsigned idx, Value init) {
  Type newType = init.getType();
  BlockArgument arg = loop.getRegionIterArgs()[idx];
  Type oldType = arg.getType();
  loop.getInitArgsMutable()[idx].assign(init);
  Operation *yield = loop.getBody()->getTerminator();
  OpBuilder b(yield);
  Value yielded = yield->getOperand(idx);
  yield->setOperand(idx, b.create<ConvertLayoutOp>(yielded.getLoc(), newType, yielded));
  arg.setType(newType);
  convertBack(arg, oldType);
  Value result = loop.getResult(idx);
  result.setType(newType);
  convertBack(result, oldType);
}

/// `branch` yields its value `idx` in layout `enc` from both sides when the
/// other side's value is free in it too (attention's causal mask applied
/// to the scores on some blocks only): its result takes the layout, and
/// its users get a conversion back, moved on in turn.
void Propagator::retypeBranchResult(scf::IfOp branch, unsigned idx, Attribute enc) {
  if (!branch.elseBlock())
    return;
  scf::YieldOp sides[] = {branch.thenYield(), branch.elseYield()};
  for (scf::YieldOp yield : sides)
    if (!isFree(yield.getOperand(idx), enc))
      return;
  for (scf::YieldOp yield : sides) {
    OpBuilder b(yield);
    yield.setOperand(idx, inLayout(b, yield.getOperand(idx), enc));
  }
  Value result = branch.getResult(idx);
  Type oldType = result.getType();
  result.setType(withEncoding(oldType, enc));
  convertBack(result, oldType);
}

/// Moves `cvt` (out of an mma-family layout) past each user that can
/// compute in that layout.
void Propagator::push(ConvertLayoutOp cvt) {
  Value src = cvt.getSrc();
  Attribute enc = getEncoding(src.getType());
  SmallVector<OpOperand *> uses;
  for (OpOperand &use : cvt->getUses())
    uses.push_back(&use);
  // Yields last: a branch's other side may be an op moved just before
  // (the masked scores), whose conversion is then looked through instead
  // of the op being made again.
  std::stable_partition(uses.begin(), uses.end(),
                        [](OpOperand *use) { return !isa<scf::YieldOp>(use->getOwner()); });
  for (OpOperand *use : uses) {
    Operation *user = use->getOwner();
    if (isElementwise(user) && user->getNumResults() == 1 &&
        isa<RankedTensorType>(user->getResult(0).getType())) {
      SmallVector<Attribute> operandEnc;
      for (Value v : user->getOperands())
        operandEnc.push_back(isa<RankedTensorType>(v.getType()) ? enc : Attribute());
      retypeOp(user, operandEnc, {enc});
      continue;
    }
    if (auto red = dyn_cast<ReduceOp>(user)) {
      if (!isa<RankedTensorType>(red->getResult(0).getType()) ||
          !reducesInWarps(src.getType(), enc, red.getAxis()))
        continue; // to a scalar (nothing to gain), or across warps
      SmallVector<Attribute> operandEnc(red->getNumOperands(), enc);
      SmallVector<Attribute> resultEnc(
          red->getNumResults(), SliceEncodingAttr::get(cvt.getContext(), red.getAxis(), enc));
      retypeOp(user, operandEnc, resultEnc);
      continue;
    }
    if (auto ed = dyn_cast<ExpandDimsOp>(user)) {
      auto slice = dyn_cast<SliceEncodingAttr>(enc);
      if (slice && slice.getDim() == unsigned(ed.getAxis()))
        retypeOp(user, {enc}, {slice.getParent()});
      continue;
    }
    if (isa<BroadcastOp>(user)) {
      retypeOp(user, {enc}, {enc});
      continue;
    }
    if (auto next = dyn_cast<ConvertLayoutOp>(user)) {
      // Two conversions in a row: one from the source, moved on in turn.
      OpBuilder b(next);
      Value direct = src.getType() == next.getType()
                         ? src
                         : b.create<ConvertLayoutOp>(next.getLoc(), next.getType(), src);
      next.replaceAllUsesWith(direct);
      next->erase();
      if (auto c = direct.getDefiningOp<ConvertLayoutOp>();
          c && !isMmaFamily(getEncoding(c.getType())))
        work.push_back(c);
      continue;
    }
    if (auto store = dyn_cast<StoreOp>(user)) {
      // Stored from the registers that computed it, when its addresses and
      // mask are index arithmetic: no trip through shared memory, and no
      // barrier of every thread (of every consumer warpgroup when
      // warp-specialised) at the program's end, where attention stores O
      // and its log-sum-exp. The stores are a thread's column pairs.
      bool stored = storesFromRegisters && use->get() == store.getValue();
      if (!stored || !isAddressFree(store.getPtr(), enc) ||
          (store.getMask() && !isAddressFree(store.getMask(), enc)))
        continue;
      OpBuilder b(store);
      for (OpOperand &operand : store->getOpOperands())
        operand.set(inLayout(b, operand.get(), enc));
      continue;
    }
    if (isa<LocalAllocOp>(user)) {
      use->set(src); // the stores into the buffer read any register layout
      continue;
    }
    if (auto yield = dyn_cast<scf::YieldOp>(user)) {
      if (auto loop = dyn_cast<scf::ForOp>(yield->getParentOp()))
        retypeCarried(loop, use->getOperandNumber(), src);
      else if (auto branch = dyn_cast<scf::IfOp>(yield->getParentOp()))
        retypeBranchResult(branch, use->getOperandNumber(), enc);
    }
    if (auto loop = dyn_cast<scf::ForOp>(user))
      if (use->getOperandNumber() >= loop.getNumControlOperands())
        retypeInit(loop, use->getOperandNumber() - loop.getNumControlOperands(), src);
  }
  if (cvt->use_empty())
    cvt->erase();
}

void Propagator::run() {
  func.walk([&](ConvertLayoutOp cvt) {
    if (isMmaFamily(getEncoding(cvt.getSrc().getType())) &&
        !isMmaFamily(getEncoding(cvt.getType())))
      work.push_back(cvt);
  });
  while (!work.empty()) {
    ConvertLayoutOp cvt = work.front();
    work.pop_front();
    push(cvt);
  }
  // A conversion whose last user moved after it was visited.
  SmallVector<ConvertLayoutOp> dead;
  func.walk([&](ConvertLayoutOp cvt) {
    if (cvt->use_empty())
      dead.push_back(cvt);
  });
  for (ConvertLayoutOp cvt : dead)
    cvt->erase();
}

namespace {
struct PropagateMmaLayoutsPass : impl::PropagateMmaLayoutsBase<PropagateMmaLayoutsPass> {
  using PropagateMmaLayoutsBase::PropagateMmaLayoutsBase;
  void runOnOperation() override { Propagator(getOperation(), storesFromRegisters).run(); }
};
} // namespace

} // namespace blk::gpu
