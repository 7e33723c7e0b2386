//===- EmitReduce.cpp - reductions, scans and math built-ins --------------===//
//
// `sum/max/min/prod(x, axis)` are one blk.reduce with a scalar combiner;
// without an axis the block is reshaped to rank 1 and reduced to a scalar.
// `argmax/argmin` reduce (value, index) pairs, keeping the lowest index on
// ties. `cumsum` is a blk.scan. Math built-ins map onto the math dialect.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "blk/IR/BlkOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

using namespace mlir;

namespace blk::irgen {

/// The combiner `a op b` for sum/prod/max/min on element kind `k`.
static Value combine(OpBuilder &b, const std::string &name, Value x, Value y,
                     ScalarKind k, Location loc) {
  bool isFloat = sema::isFloat(k);
  bool isUnsigned = sema::isUnsigned(k) || k == ScalarKind::I1;
  if (name == "sum" || name == "cumsum")
    return isFloat ? b.create<arith::AddFOp>(loc, x, y).getResult()
                   : b.create<arith::AddIOp>(loc, x, y).getResult();
  if (name == "prod")
    return isFloat ? b.create<arith::MulFOp>(loc, x, y).getResult()
                   : b.create<arith::MulIOp>(loc, x, y).getResult();
  if (name == "max") {
    if (isFloat)
      return b.create<arith::MaximumFOp>(loc, x, y);
    return isUnsigned ? b.create<arith::MaxUIOp>(loc, x, y).getResult()
                      : b.create<arith::MaxSIOp>(loc, x, y).getResult();
  }
  if (isFloat)
    return b.create<arith::MinimumFOp>(loc, x, y);
  return isUnsigned ? b.create<arith::MinUIOp>(loc, x, y).getResult()
                    : b.create<arith::MinSIOp>(loc, x, y).getResult();
}

/// `candidate` beats `current` (strictly greater for argmax, smaller for
/// argmin) or ties with a lower index.
static Value argBetter(OpBuilder &b, bool isMax, Value cur, Value curIdx,
                       Value cand, Value candIdx, ScalarKind k, Location loc) {
  Value strictly, equal;
  if (sema::isFloat(k)) {
    strictly = b.create<arith::CmpFOp>(
        loc, isMax ? arith::CmpFPredicate::OGT : arith::CmpFPredicate::OLT,
        cand, cur);
    equal = b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::OEQ, cand, cur);
  } else {
    bool u = sema::isUnsigned(k) || k == ScalarKind::I1;
    auto pred = isMax ? (u ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt)
                      : (u ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt);
    strictly = b.create<arith::CmpIOp>(loc, pred, cand, cur);
    equal = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::eq, cand, cur);
  }
  Value lower = b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::slt,
                                        candIdx, curIdx);
  Value tie = b.create<arith::AndIOp>(loc, equal, lower);
  return b.create<arith::OrIOp>(loc, strictly, tie);
}

/// i32 indices along `axis` of a block of `shape`.
static Value indicesAlong(Emitter &em, const Shape &shape, int32_t axis,
                          Location loc) {
  OpBuilder &b = em.builder();
  Value range = b.create<MakeRangeOp>(loc, 0, static_cast<int32_t>(shape[axis]));
  for (int32_t d = 0; d < static_cast<int32_t>(shape.size()); ++d)
    if (d != axis)
      range = b.create<ExpandDimsOp>(loc, range, d);
  return em.broadcastTo(range, shape, loc);
}

Value Emitter::emitReduction(const ast::CallExpr *call, const std::string &name,
                             const std::vector<const ast::Expr *> &args) {
  Location l = loc(call);
  const sema::Type &srcType = info(args[0]).type;
  const sema::Type &resultType = info(call).type;
  bool isArg = name == "argmax" || name == "argmin";
  ScalarKind k = isArg ? srcType.elem() : resultType.elem();
  Value x = emitAs(args[0], k, srcType.shape());
  int32_t axis = args[1] ? static_cast<int32_t>(
                               info(args[1]).value ? info(args[1]).value->getInt() : 0)
                         : 0;
  if (name == "cumsum") {
    auto scan = b.create<ScanOp>(l, ValueRange{x}, axis, /*reverse=*/false);
    OpBuilder::InsertionGuard guard(b);
    Block &block = scan.getCombineBlock();
    b.setInsertionPointToStart(&block);
    Value sum = combine(b, name, block.getArgument(0), block.getArgument(1), k, l);
    b.create<ScanReturnOp>(l, ValueRange{sum});
    return scan.getResult()[0];
  }
  Shape shape = srcType.shape();
  if (!args[1] && shape.size() > 1) {
    // Whole-block reduction: flatten, then reduce the only axis.
    shape = {sema::numElements(shape)};
    x = b.create<ReshapeOp>(l, RankedTensorType::get(shape, scalarType(k)), x);
  }
  SmallVector<Value> srcs{x};
  if (isArg)
    srcs.push_back(indicesAlong(*this, shape, axis, l));
  auto reduce = b.create<ReduceOp>(l, srcs, axis);
  OpBuilder::InsertionGuard guard(b);
  Block &block = reduce.getCombineBlock();
  b.setInsertionPointToStart(&block);
  if (!isArg) {
    Value r = combine(b, name, block.getArgument(0), block.getArgument(1), k, l);
    b.create<ReduceReturnOp>(l, ValueRange{r});
    return reduce.getResult()[0];
  }
  Value cur = block.getArgument(0), curIdx = block.getArgument(1);
  Value cand = block.getArgument(2), candIdx = block.getArgument(3);
  Value better = argBetter(b, name == "argmax", cur, curIdx, cand, candIdx, k, l);
  Value v = b.create<arith::SelectOp>(l, better, cand, cur);
  Value i = b.create<arith::SelectOp>(l, better, candIdx, curIdx);
  b.create<ReduceReturnOp>(l, ValueRange{v, i});
  return reduce.getResult()[1];
}

Value Emitter::emitMath(const ast::CallExpr *call, const std::string &name,
                        const std::vector<const ast::Expr *> &args) {
  Location l = loc(call);
  const sema::ExprInfo &i = info(call);
  ScalarKind k = i.operandElem;
  const Shape &shape = i.type.shape();
  Value x = emitAs(args[0], k, shape);
  if (name == "fma") {
    Value y = emitAs(args[1], k, shape); // operands in source order
    Value z = emitAs(args[2], k, shape);
    return b.create<math::FmaOp>(l, x, y, z);
  }
  if (name == "abs") {
    if (sema::isFloat(k))
      return b.create<math::AbsFOp>(l, x);
    if (sema::isUnsigned(k))
      return x; // math.absi is signed: it would wrap 254 as u8 to 2
    return b.create<math::AbsIOp>(l, x);
  }
  if (name == "sigmoid") {
    // 1 / (1 + exp(-x))
    Value one = constant(sema::ConstValue::floating(1.0), k, shape, l);
    Value e = b.create<math::ExpOp>(l, b.create<arith::NegFOp>(l, x));
    return b.create<arith::DivFOp>(l, one, b.create<arith::AddFOp>(l, one, e));
  }
  if (name == "exp") return b.create<math::ExpOp>(l, x);
  if (name == "exp2") return b.create<math::Exp2Op>(l, x);
  if (name == "log") return b.create<math::LogOp>(l, x);
  if (name == "log2") return b.create<math::Log2Op>(l, x);
  if (name == "sqrt") return b.create<math::SqrtOp>(l, x);
  if (name == "rsqrt") return b.create<math::RsqrtOp>(l, x);
  if (name == "floor") return b.create<math::FloorOp>(l, x);
  if (name == "ceil") return b.create<math::CeilOp>(l, x);
  if (name == "sin") return b.create<math::SinOp>(l, x);
  if (name == "cos") return b.create<math::CosOp>(l, x);
  if (name == "tanh") return b.create<math::TanhOp>(l, x);
  if (name == "erf") return b.create<math::ErfOp>(l, x);
  ice("unknown built-in `" + name + "`");
}

} // namespace blk::irgen
