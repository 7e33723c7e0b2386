//===- AssignLayouts.cpp - --blkgpu-assign-layouts ------------------------===//
//
// Expects: verified blk IR (docs/ir.md), one func per kernel, the block
// memory ops carrying `blkgpu.layout` (blkgpu-coalesce; default otherwise).
// Guarantees: every tensor value has a #blkgpu.blocked or #blkgpu.slice
// encoding; every op's operands have the layouts its lowering needs, with
// blkgpu.convert_layout inserted (right after the producer) where they
// differ; the `blkgpu.layout` attributes are consumed. A shape's
// "preferred" layout is that of the first memory op of the same shape, so
// index arithmetic usually needs no conversion. Tests:
// tests/lit/blkgpu/assign-layouts.mlir, tests/lit/codegen/layouts-*.mlir.
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/Transforms/Utility.h"

#include "blk/Dialect/BlkGpu/Transforms/Coalesce.h"
#include "blk/Dialect/BlkGpu/IR/Layout.h"
#include "blk/Dialect/BlkGpu/Transforms/Passes.h"
#include "blk/IR/BlkOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

#include <map>
#include <vector>

using namespace mlir;

namespace blk::gpu {

#define GEN_PASS_DEF_ASSIGNLAYOUTS
#include "blk/Dialect/BlkGpu/Transforms/Passes.h.inc"

namespace {

class LayoutAssigner {
public:
  explicit LayoutAssigner(func::FuncOp func)
      : kernel(func), ctx(func.getContext()), numWarps(getNumWarps(func)) {}

  LogicalResult run();

private:
  Attribute preferredFor(ArrayRef<int64_t> shape);
  Attribute carriedLayout(BlockArgument arg);
  Value convert(Value v, Attribute enc);
  void convertOperand(Operation *op, unsigned idx, Attribute enc);
  void setEncoding(Value v, Attribute enc);
  LogicalResult visit(Operation *op);
  void visitMemoryOp(Operation *op);
  void visitYield(Operation *op);
  void visitElementwise(Operation *op);

  func::FuncOp kernel;
  MLIRContext *ctx;
  unsigned numWarps;
  llvm::DenseMap<Operation *, Attribute> memLayouts;
  std::map<std::vector<int64_t>, Attribute> preferred;
  llvm::DenseMap<std::pair<Value, Attribute>, Value> converted;
};

} // namespace

static bool isTensor(Value v) { return isa<RankedTensorType>(v.getType()); }

static ArrayRef<int64_t> shapeOf(Value v) {
  return cast<RankedTensorType>(v.getType()).getShape();
}

Attribute LayoutAssigner::preferredFor(ArrayRef<int64_t> shape) {
  std::vector<int64_t> key(shape.begin(), shape.end());
  auto it = preferred.find(key);
  if (it != preferred.end())
    return it->second;
  Attribute enc = getDefaultLayout(ctx, shape, numWarps);
  preferred[key] = enc;
  return enc;
}

/// The layout of a loop-carried block: that of a load it is the pointer
/// of (the first in the body), else of another memory op, else its shape's
/// preferred one. Two pointer blocks of one shape may want different
/// layouts (A's tile K-contiguous, Bᵀ's tile handed over through its
/// strides contiguous along the other dim); by shape alone both would take
/// the first's, and the other's load would convert its pointers every
/// iteration and lose its prefetch.
Attribute LayoutAssigner::carriedLayout(BlockArgument arg) {
  Operation *best = nullptr;
  for (OpOperand &use : arg.getUses()) {
    Operation *op = use.getOwner();
    if (use.getOperandNumber() != 0 || !memLayouts.count(op))
      continue;
    auto rank = [](Operation *o) { return isa<LoadOp>(o) ? 0 : 1; };
    if (!best || rank(op) < rank(best) ||
        (rank(op) == rank(best) && op->isBeforeInBlock(best)))
      best = op;
  }
  return best ? memLayouts.lookup(best) : preferredFor(shapeOf(arg));
}

Value LayoutAssigner::convert(Value v, Attribute enc) {
  if (!isTensor(v) || getEncoding(v.getType()) == enc)
    return v;
  auto key = std::make_pair(v, enc);
  if (Value done = converted.lookup(key))
    return done;
  OpBuilder b(ctx);
  if (Operation *def = v.getDefiningOp())
    b.setInsertionPointAfter(def);
  else
    b.setInsertionPointToStart(cast<BlockArgument>(v).getOwner());
  auto type = cast<RankedTensorType>(withEncoding(v.getType(), enc));
  // A splat constant is made again in the new layout: nothing moves, and
  // later passes still see a constant (a load's zero `other`, which lets
  // blkgpu-pipeline-loops prefetch it).
  if (auto cst = v.getDefiningOp<arith::ConstantOp>())
    if (auto dense = dyn_cast<SplatElementsAttr>(cst.getValue())) {
      Value c = b.create<arith::ConstantOp>(v.getLoc(), type, dense.reshape(type));
      converted[key] = c;
      return c;
    }
  Value c = b.create<ConvertLayoutOp>(v.getLoc(), type, v);
  converted[key] = c;
  return c;
}

void LayoutAssigner::convertOperand(Operation *op, unsigned idx, Attribute enc) {
  op->setOperand(idx, convert(op->getOperand(idx), enc));
}

void LayoutAssigner::setEncoding(Value v, Attribute enc) {
  if (isTensor(v))
    v.setType(withEncoding(v.getType(), enc));
}

void LayoutAssigner::visitMemoryOp(Operation *op) {
  Attribute enc = memLayouts.lookup(op);
  if (!enc)
    return; // scalar pointer: no layouts involved
  for (unsigned i = 0; i < op->getNumOperands(); ++i)
    convertOperand(op, i, enc);
  for (Value r : op->getResults())
    setEncoding(r, enc);
}

void LayoutAssigner::visitElementwise(Operation *op) {
  Value anchor;
  for (Value v : op->getOperands()) {
    if (!isTensor(v))
      continue;
    if (!anchor)
      anchor = v;
    if (!isRematerialisable(v)) {
      anchor = v;
      break;
    }
  }
  Attribute enc;
  if (anchor && !isRematerialisable(anchor))
    enc = getEncoding(anchor.getType());
  else if (op->getNumResults() && isTensor(op->getResult(0)))
    enc = preferredFor(shapeOf(op->getResult(0)));
  else if (anchor)
    enc = getEncoding(anchor.getType());
  if (!enc)
    return;
  for (unsigned i = 0; i < op->getNumOperands(); ++i)
    convertOperand(op, i, enc);
  for (Value r : op->getResults())
    setEncoding(r, enc);
}

void LayoutAssigner::visitYield(Operation *op) {
  Operation *parent = op->getParentOp();
  SmallVector<Type> targets;
  if (isa<scf::ForOp, scf::IfOp>(parent))
    targets.assign(parent->result_type_begin(), parent->result_type_end());
  else if (auto loop = dyn_cast<scf::WhileOp>(parent)) {
    if (isa<scf::ConditionOp>(op))
      targets.assign(loop.result_type_begin(), loop.result_type_end());
    else
      for (BlockArgument arg : loop.getBeforeArguments())
        targets.push_back(arg.getType());
  }
  unsigned first = isa<scf::ConditionOp>(op) ? 1 : 0;
  for (unsigned i = 0; i < targets.size(); ++i)
    if (Attribute enc = getEncoding(targets[i]))
      convertOperand(op, first + i, enc);
}

LogicalResult LayoutAssigner::visit(Operation *op) {
  if (isa<func::FuncOp, func::ReturnOp, ConvertLayoutOp, AssertOp>(op))
    return success();
  if (isa<PrintOp>(op)) {
    // One line per element: every block operand in the first one's layout.
    Value first;
    for (unsigned i = 0; i < op->getNumOperands(); ++i) {
      Value v = op->getOperand(i);
      if (!isTensor(v))
        continue;
      if (!first)
        first = v;
      else if (shapeOf(v) == shapeOf(first))
        convertOperand(op, i, getEncoding(first.getType()));
    }
    return success();
  }
  if (isa<LoadOp, StoreOp, AtomicRMWOp, AtomicCASOp>(op)) {
    visitMemoryOp(op);
    return success();
  }
  if (isa<MakeRangeOp, SplatOp>(op)) {
    setEncoding(op->getResult(0), preferredFor(shapeOf(op->getResult(0))));
    return success();
  }
  if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
    if (!isTensor(cst))
      return success();
    Attribute enc = preferredFor(shapeOf(cst));
    auto type = withEncoding(cst.getType(), enc);
    if (auto dense = dyn_cast<DenseElementsAttr>(cst.getValue()))
      cst.setValueAttr(dense.reshape(type));
    cst.getResult().setType(type);
    return success();
  }
  if (auto bc = dyn_cast<BroadcastOp>(op)) {
    Attribute enc = getEncoding(bc.getSrc().getType());
    if (!isa<BlockedEncodingAttr>(enc) || isRematerialisable(bc.getSrc()))
      enc = preferredFor(shapeOf(bc.getResult()));
    convertOperand(op, 0, enc);
    setEncoding(bc.getResult(), enc);
    return success();
  }
  if (auto ed = dyn_cast<ExpandDimsOp>(op)) {
    auto slice = dyn_cast<SliceEncodingAttr>(getEncoding(ed.getSrc().getType()));
    if (slice && slice.getDim() == unsigned(ed.getAxis()) &&
        !isRematerialisable(ed.getSrc())) {
      setEncoding(ed.getResult(), slice.getParent());
      return success();
    }
    Attribute enc = preferredFor(shapeOf(ed.getResult()));
    convertOperand(op, 0, SliceEncodingAttr::get(ctx, ed.getAxis(), enc));
    setEncoding(ed.getResult(), enc);
    return success();
  }
  if (auto rs = dyn_cast<ReshapeOp>(op)) {
    setEncoding(rs.getResult(), preferredFor(shapeOf(rs.getResult())));
    return success();
  }
  if (auto tr = dyn_cast<TransOp>(op)) {
    auto src = dyn_cast<BlockedEncodingAttr>(getEncoding(tr.getSrc().getType()));
    if (!src) {
      src = cast<BlockedEncodingAttr>(preferredFor(shapeOf(tr.getSrc())));
      convertOperand(op, 0, src);
    }
    setEncoding(tr.getResult(), getTransposedLayout(src, tr.getOrder()));
    return success();
  }
  if (isa<ReduceOp, ScanOp>(op)) {
    Attribute enc = getEncoding(op->getOperand(0).getType());
    for (unsigned i = 1; i < op->getNumOperands(); ++i)
      convertOperand(op, i, enc);
    unsigned axis = op->getAttrOfType<IntegerAttr>("axis").getInt();
    Attribute resEnc = isa<ScanOp>(op) ? enc : SliceEncodingAttr::get(ctx, axis, enc);
    for (Value r : op->getResults())
      setEncoding(r, resEnc);
    return success();
  }
  if (auto dot = dyn_cast<DotOp>(op)) {
    Attribute enc = getEncoding(dot.getAcc().getType());
    if (!isa<BlockedEncodingAttr>(enc))
      enc = preferredFor(shapeOf(dot.getAcc()));
    convertOperand(op, 2, enc);
    setEncoding(dot.getResult(), enc);
    return success();
  }
  if (auto loop = dyn_cast<scf::ForOp>(op)) {
    // A carried block takes the layout of the memory op it points for, or
    // its shape's preferred one (carriedLayout), converted once before the
    // loop: a pointer block advanced each iteration (`a_ptrs += BK`) then
    // feeds its load without a conversion per iteration.
    for (auto [i, arg, res] : llvm::enumerate(loop.getRegionIterArgs(), loop.getResults())) {
      Value init = loop.getInitArgs()[i];
      if (!isTensor(init))
        continue;
      Attribute enc = carriedLayout(arg);
      loop.getInitArgsMutable()[i].assign(convert(init, enc));
      setEncoding(arg, enc);
      setEncoding(res, enc);
    }
    return success();
  }
  if (auto branch = dyn_cast<scf::IfOp>(op)) {
    for (Value r : branch.getResults())
      if (isTensor(r))
        setEncoding(r, preferredFor(shapeOf(r)));
    return success();
  }
  if (auto loop = dyn_cast<scf::WhileOp>(op)) {
    for (auto [init, arg] : llvm::zip(loop.getInits(), loop.getBeforeArguments()))
      setEncoding(arg, getEncoding(init.getType()));
    for (auto [arg, res] : llvm::zip(loop.getAfterArguments(), loop.getResults())) {
      if (!isTensor(res))
        continue;
      setEncoding(res, preferredFor(shapeOf(res)));
      setEncoding(arg, preferredFor(shapeOf(res)));
    }
    return success();
  }
  if (isa<scf::YieldOp, scf::ConditionOp>(op)) {
    visitYield(op);
    return success();
  }
  if (isElementwise(op)) {
    visitElementwise(op);
    return success();
  }
  bool touchesTensors = llvm::any_of(op->getOperands(), isTensor) ||
                        llvm::any_of(op->getResults(), isTensor);
  if (!touchesTensors)
    return success();
  return op->emitOpError("has no layout rule in the GPU backend");
}

LogicalResult LayoutAssigner::run() {
  // Memory ops first: their layouts seed the preferred layout per shape.
  kernel.walk([&](Operation *op) {
    if (!isa<LoadOp, StoreOp, AtomicRMWOp, AtomicCASOp>(op) ||
        !isTensor(op->getOperand(0)))
      return;
    Attribute enc = op->getAttr(kMemoryLayoutAttr);
    if (!isa_and_nonnull<BlockedEncodingAttr>(enc))
      enc = getDefaultLayout(ctx, shapeOf(op->getOperand(0)), numWarps);
    op->removeAttr(kMemoryLayoutAttr);
    memLayouts[op] = enc;
    std::vector<int64_t> key(shapeOf(op->getOperand(0)).begin(),
                             shapeOf(op->getOperand(0)).end());
    preferred.try_emplace(key, enc);
  });
  kernel->setAttr(BlkGpuDialect::kNumWarpsAttr,
                  IntegerAttr::get(IntegerType::get(ctx, 32), numWarps));
  WalkResult result = kernel.walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (failed(visit(op)))
      return WalkResult::interrupt();
    // Combiner regions hold scalars only.
    if (isa<ReduceOp, ScanOp>(op))
      return WalkResult::skip();
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

namespace {
struct AssignLayoutsPass : impl::AssignLayoutsBase<AssignLayoutsPass> {
  void runOnOperation() override {
    if (getOperation()->hasAttr(BlkGpuDialect::kNumWarpsAttr))
      return; // already blkgpu IR (e.g. hand-written): nothing to assign
    if (failed(LayoutAssigner(getOperation()).run()))
      signalPassFailure();
  }
};
} // namespace

} // namespace blk::gpu
