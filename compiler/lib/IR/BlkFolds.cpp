//===- BlkFolds.cpp - folders and canonicalization patterns ---------------===//
//
// What `-canonicalize` does to blk ops (tests/lit/transforms/canonicalize.mlir):
// splats of constants become constants; broadcast/expand_dims/reshape/trans
// chains collapse; addptr by zero disappears; masks that are constant (or
// true by construction, e.g. `make_range(0, N) < N`) are dropped, or turn a
// load into its `other` and erase a store.
//
//===----------------------------------------------------------------------===//
#include "blk/IR/BlkOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;

namespace blk {

/// The attribute of a splat constant (scalar or dense splat), or null.
static TypedAttr getSplatValue(Attribute attr) {
  if (auto dense = dyn_cast_or_null<SplatElementsAttr>(attr))
    return dense.getSplatValue<TypedAttr>();
  if (isa_and_nonnull<IntegerAttr, FloatAttr>(attr))
    return cast<TypedAttr>(attr);
  return {};
}

/// A constant splat of `type` holding the splat value of `attr`, or null.
static Attribute resplat(Attribute attr, Type type) {
  TypedAttr value = getSplatValue(attr);
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!value || !tensor)
    return {};
  return DenseElementsAttr::get(tensor, value);
}

/// 1 when every element of `v` is a known-true i1, 0 when known-false,
/// -1 when unknown.
static int getConstantBool(Value v) {
  Attribute attr;
  if (!v || !matchPattern(v, m_Constant(&attr)))
    return -1;
  auto value = dyn_cast_or_null<IntegerAttr>(getSplatValue(attr));
  if (!value)
    return -1;
  return value.getValue().isZero() ? 0 : 1;
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

OpFoldResult SplatOp::fold(FoldAdaptor adaptor) {
  return resplat(adaptor.getSrc(), getType());
}

OpFoldResult BroadcastOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  return resplat(adaptor.getSrc(), getType());
}

/// broadcast(broadcast(x)) -> broadcast(x); broadcast(splat(s)) -> splat(s).
struct BroadcastOfShapeOp : OpRewritePattern<BroadcastOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(BroadcastOp op,
                                PatternRewriter &rewriter) const override {
    if (auto inner = op.getSrc().getDefiningOp<BroadcastOp>()) {
      rewriter.modifyOpInPlace(
          op, [&] { op.getSrcMutable().assign(inner.getSrc()); });
      return success();
    }
    if (auto splat = op.getSrc().getDefiningOp<SplatOp>()) {
      rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
      return success();
    }
    return failure();
  }
};

void BroadcastOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                              MLIRContext *context) {
  results.add<BroadcastOfShapeOp>(context);
}

OpFoldResult ExpandDimsOp::fold(FoldAdaptor adaptor) {
  return resplat(adaptor.getSrc(), getType());
}

/// expand_dims(splat(s)) -> splat(s).
struct ExpandDimsOfSplat : OpRewritePattern<ExpandDimsOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ExpandDimsOp op,
                                PatternRewriter &rewriter) const override {
    auto splat = op.getSrc().getDefiningOp<SplatOp>();
    if (!splat)
      return failure();
    rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
    return success();
  }
};

void ExpandDimsOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                               MLIRContext *context) {
  results.add<ExpandDimsOfSplat>(context);
}

OpFoldResult ReshapeOp::fold(FoldAdaptor adaptor) {
  if (getSrc().getType() == getType())
    return getSrc();
  if (Attribute attr = resplat(adaptor.getSrc(), getType()))
    return attr;
  // reshape(reshape(x)) -> reshape(x): only the element order matters.
  if (auto inner = getSrc().getDefiningOp<ReshapeOp>()) {
    getSrcMutable().assign(inner.getSrc());
    return getResult();
  }
  return {};
}

/// reshape(expand_dims(x)) -> reshape(x) (the expanded dim is 1, so the
/// row-major order is unchanged); reshape(splat(s)) -> splat(s).
struct ReshapeOfShapeOp : OpRewritePattern<ReshapeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(ReshapeOp op,
                                PatternRewriter &rewriter) const override {
    if (auto expand = op.getSrc().getDefiningOp<ExpandDimsOp>()) {
      if (expand.getSrc().getType() == op.getType()) {
        rewriter.replaceOp(op, expand.getSrc());
        return success();
      }
      rewriter.modifyOpInPlace(
          op, [&] { op.getSrcMutable().assign(expand.getSrc()); });
      return success();
    }
    if (auto splat = op.getSrc().getDefiningOp<SplatOp>()) {
      rewriter.replaceOpWithNewOp<SplatOp>(op, op.getType(), splat.getSrc());
      return success();
    }
    return failure();
  }
};

void ReshapeOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                            MLIRContext *context) {
  results.add<ReshapeOfShapeOp>(context);
}

OpFoldResult TransOp::fold(FoldAdaptor adaptor) {
  ArrayRef<int32_t> order = getOrder();
  bool identity = true;
  for (auto [i, d] : llvm::enumerate(order))
    identity &= static_cast<int32_t>(i) == d;
  if (identity)
    return getSrc();
  if (Attribute attr = resplat(adaptor.getSrc(), getType()))
    return attr;
  // trans(trans(x, inner), outer) -> trans(x, inner ∘ outer).
  if (auto inner = getSrc().getDefiningOp<TransOp>()) {
    SmallVector<int32_t> composed;
    for (int32_t d : order)
      composed.push_back(inner.getOrder()[d]);
    getSrcMutable().assign(inner.getSrc());
    setOrder(composed);
    return getResult();
  }
  return {};
}

OpFoldResult AddPtrOp::fold(FoldAdaptor adaptor) {
  auto offset = dyn_cast_or_null<IntegerAttr>(getSplatValue(adaptor.getOffset()));
  if (offset && offset.getValue().isZero())
    return getPtr();
  return {};
}

//===----------------------------------------------------------------------===//
// Masked memory ops
//===----------------------------------------------------------------------===//

/// A zero of `type` (scalar or block), standing in for undefined values.
static Value createZero(PatternRewriter &rewriter, Location loc, Type type) {
  Type elem = getElementTypeOrSelf(type);
  TypedAttr zero = rewriter.getZeroAttr(elem);
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    zero = DenseElementsAttr::get(tensor, zero);
  return rewriter.create<arith::ConstantOp>(loc, type, zero);
}

/// Constant masks: all-true drops mask and other; all-false yields `other`
/// (or zero when the masked-off value is undefined).
struct LoadConstantMask : OpRewritePattern<LoadOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(LoadOp op,
                                PatternRewriter &rewriter) const override {
    int known = getConstantBool(op.getMask());
    if (known == 1) {
      rewriter.modifyOpInPlace(op, [&] {
        op.getMaskMutable().clear();
        op.getOtherMutable().clear();
      });
      return success();
    }
    // A volatile load still has to happen... unless no lane is enabled.
    if (known == 0) {
      Value other = op.getOther();
      if (!other)
        other = createZero(rewriter, op.getLoc(), op.getType());
      rewriter.replaceOp(op, other);
      return success();
    }
    return failure();
  }
};

void LoadOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                         MLIRContext *context) {
  results.add<LoadConstantMask>(context);
}

/// All-true mask is dropped; an all-false store is erased.
struct StoreConstantMask : OpRewritePattern<StoreOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(StoreOp op,
                                PatternRewriter &rewriter) const override {
    int known = getConstantBool(op.getMask());
    if (known == 1) {
      rewriter.modifyOpInPlace(op, [&] { op.getMaskMutable().clear(); });
      return success();
    }
    if (known == 0) {
      rewriter.eraseOp(op);
      return success();
    }
    return failure();
  }
};

void StoreOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                          MLIRContext *context) {
  results.add<StoreConstantMask>(context);
}

//===----------------------------------------------------------------------===//
// Dialect-wide patterns on arith ops
//===----------------------------------------------------------------------===//

/// `make_range(s, e) <cmp> c` with a constant c decided for every element
/// (e.g. `arange(0, BLOCK) < BLOCK`) becomes a constant: masks that are
/// all-true by construction then vanish through the patterns above.
struct CmpRangeWithConstant : OpRewritePattern<arith::CmpIOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(arith::CmpIOp op,
                                PatternRewriter &rewriter) const override {
    auto range = op.getLhs().getDefiningOp<MakeRangeOp>();
    Attribute rhsAttr;
    if (!range || !matchPattern(op.getRhs(), m_Constant(&rhsAttr)))
      return failure();
    auto rhs = dyn_cast_or_null<IntegerAttr>(getSplatValue(rhsAttr));
    if (!rhs)
      return failure();
    int64_t c = rhs.getValue().getSExtValue();
    int64_t lo = range.getStart(), hi = range.getEnd() - 1;
    // Unsigned predicates agree with signed ones when both sides are
    // non-negative.
    auto pred = op.getPredicate();
    bool isUnsigned = pred == arith::CmpIPredicate::ult ||
                      pred == arith::CmpIPredicate::ule ||
                      pred == arith::CmpIPredicate::ugt ||
                      pred == arith::CmpIPredicate::uge;
    if (isUnsigned && (lo < 0 || c < 0))
      return failure();
    auto eval = [&](int64_t x) {
      switch (op.getPredicate()) {
      case arith::CmpIPredicate::eq: return x == c;
      case arith::CmpIPredicate::ne: return x != c;
      case arith::CmpIPredicate::slt:
      case arith::CmpIPredicate::ult: return x < c;
      case arith::CmpIPredicate::sle:
      case arith::CmpIPredicate::ule: return x <= c;
      case arith::CmpIPredicate::sgt:
      case arith::CmpIPredicate::ugt: return x > c;
      case arith::CmpIPredicate::sge:
      case arith::CmpIPredicate::uge: return x >= c;
      }
      return false;
    };
    bool atLo = eval(lo), atHi = eval(hi);
    // Order predicates are monotone over the range; eq/ne only decide when
    // c lies outside it.
    bool isEquality = op.getPredicate() == arith::CmpIPredicate::eq ||
                      op.getPredicate() == arith::CmpIPredicate::ne;
    if (isEquality && c >= lo && c <= hi)
      return failure();
    if (atLo != atHi)
      return failure();
    auto type = cast<RankedTensorType>(op.getType());
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, type, DenseElementsAttr::get(type, rewriter.getBoolAttr(atLo)));
    return success();
  }
};

void BlkDialect::getCanonicalizationPatterns(RewritePatternSet &results) const {
  results.add<CmpRangeWithConstant>(getContext());
}

} // namespace blk
