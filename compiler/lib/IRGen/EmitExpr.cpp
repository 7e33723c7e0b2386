//===- EmitExpr.cpp - expressions -----------------------------------------===//
//
// Every expression Sema typed becomes ops of exactly that type. Constants
// (literals, const params, folded expressions) become arith.constant in the
// kind their use needs; operands of elementwise operators are converted to
// Sema's ExprInfo::operandElem and broadcast to the result shape first.
// Tests: tests/lit/irgen/*.blk.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "blk/IR/BlkOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

using namespace mlir;

namespace blk::irgen {

const sema::ExprInfo &Emitter::info(const ast::Expr *e) const {
  const sema::ExprInfo *i = frame->instance->lookup(e);
  if (!i || !i->type.isValue())
    ice("expression without a value type at offset " +
        std::to_string(e->getBegin().offset));
  return *i;
}

Value Emitter::emitAs(const ast::Expr *e, ScalarKind elem, const Shape &shape) {
  const sema::ExprInfo &i = info(e);
  if (i.value && !i.type.isPointerLike())
    return constant(*i.value, elem, shape, loc(e));
  Value v = emitExpr(e);
  if (!i.type.isPointerLike())
    v = convert(v, i.type.elem(), elem, loc(e));
  return broadcastTo(v, shape, loc(e));
}

Value Emitter::emitBroadcast(const ast::Expr *e, const Shape &shape) {
  const sema::ExprInfo &i = info(e);
  if (i.type.isPointerLike())
    return broadcastTo(emitExpr(e), shape, loc(e));
  return emitAs(e, i.type.elem(), shape);
}

static Value emitName(Emitter &em, const ast::Expr *e) {
  const sema::NameBinding *binding = em.currentFrame().instance->binding(e);
  if (!binding)
    ice("unresolved name");
  auto it = em.currentFrame().vars.find(binding->decl);
  if (it == em.currentFrame().vars.end())
    ice("no value for `" + binding->name + "`");
  return it->second;
}

Value Emitter::emitArith(ast::BinaryOp op, Value lhs, Value rhs,
                         ScalarKind elem, Location l) {
  using B = ast::BinaryOp;
  if (sema::isFloat(elem)) {
    auto cmp = [&](arith::CmpFPredicate p) -> Value {
      return b.create<arith::CmpFOp>(l, p, lhs, rhs);
    };
    switch (op) {
    case B::Add: return b.create<arith::AddFOp>(l, lhs, rhs);
    case B::Sub: return b.create<arith::SubFOp>(l, lhs, rhs);
    case B::Mul: return b.create<arith::MulFOp>(l, lhs, rhs);
    case B::Div: return b.create<arith::DivFOp>(l, lhs, rhs);
    case B::Rem: return b.create<arith::RemFOp>(l, lhs, rhs);
    case B::Eq: return cmp(arith::CmpFPredicate::OEQ);
    case B::Ne: return cmp(arith::CmpFPredicate::UNE);
    case B::Lt: return cmp(arith::CmpFPredicate::OLT);
    case B::Le: return cmp(arith::CmpFPredicate::OLE);
    case B::Gt: return cmp(arith::CmpFPredicate::OGT);
    case B::Ge: return cmp(arith::CmpFPredicate::OGE);
    default: ice("bit or logical operator on floats");
    }
  }
  bool isUnsigned = sema::isUnsigned(elem) || elem == ScalarKind::I1;
  auto cmp = [&](arith::CmpIPredicate s, arith::CmpIPredicate u) -> Value {
    return b.create<arith::CmpIOp>(l, isUnsigned ? u : s, lhs, rhs);
  };
  using P = arith::CmpIPredicate;
  switch (op) {
  case B::Add: return b.create<arith::AddIOp>(l, lhs, rhs);
  case B::Sub: return b.create<arith::SubIOp>(l, lhs, rhs);
  case B::Mul: return b.create<arith::MulIOp>(l, lhs, rhs);
  case B::Div:
    if (isUnsigned)
      return b.create<arith::DivUIOp>(l, lhs, rhs);
    return b.create<arith::DivSIOp>(l, lhs, rhs);
  case B::Rem:
    if (isUnsigned)
      return b.create<arith::RemUIOp>(l, lhs, rhs);
    return b.create<arith::RemSIOp>(l, lhs, rhs);
  case B::BitAnd:
  case B::LogicalAnd: return b.create<arith::AndIOp>(l, lhs, rhs);
  case B::BitOr:
  case B::LogicalOr: return b.create<arith::OrIOp>(l, lhs, rhs);
  case B::BitXor: return b.create<arith::XOrIOp>(l, lhs, rhs);
  case B::Shl: return b.create<arith::ShLIOp>(l, lhs, rhs);
  case B::Shr:
    if (isUnsigned)
      return b.create<arith::ShRUIOp>(l, lhs, rhs);
    return b.create<arith::ShRSIOp>(l, lhs, rhs);
  case B::Eq: return cmp(P::eq, P::eq);
  case B::Ne: return cmp(P::ne, P::ne);
  case B::Lt: return cmp(P::slt, P::ult);
  case B::Le: return cmp(P::sle, P::ule);
  case B::Gt: return cmp(P::sgt, P::ugt);
  case B::Ge: return cmp(P::sge, P::uge);
  }
  ice("unknown binary operator");
}

static Value emitBinaryExpr(Emitter &em, const ast::BinaryExpr *e) {
  const sema::ExprInfo &i = em.info(e);
  const sema::ExprInfo &l = em.info(e->lhs), &r = em.info(e->rhs);
  Location loc = em.loc(e);
  const Shape &shape = i.type.shape();
  if (l.type.isPointerLike() || r.type.isPointerLike()) {
    if (l.type.isPointerLike() && r.type.isPointerLike()) {
      // `p == q` / `p != q`: compare the addresses.
      auto addr = [&](const ast::Expr *e) -> Value {
        Value p = em.emitBroadcast(e, shape);
        Type i64 = getSameShape(p.getType(), em.builder().getI64Type());
        return em.builder().create<PtrToIntOp>(loc, i64, p);
      };
      Value lhs = addr(e->lhs); // sequenced: operands in source order
      Value rhs = addr(e->rhs);
      return em.emitArith(e->op, lhs, rhs, ScalarKind::I64, loc);
    }
    const ast::Expr *ptrExpr = l.type.isPointerLike() ? e->lhs : e->rhs;
    const ast::Expr *offExpr = l.type.isPointerLike() ? e->rhs : e->lhs;
    Value ptr = em.emitBroadcast(ptrExpr, shape);
    Value off = em.pointerOffset(em.emitAs(offExpr, i.operandElem, shape), i.operandElem,
                                 e->op == ast::BinaryOp::Sub, loc);
    return em.builder().create<AddPtrOp>(loc, ptr.getType(), ptr, off);
  }
  if (e->op == ast::BinaryOp::LogicalAnd || e->op == ast::BinaryOp::LogicalOr) {
    Value lhs = em.toCondition(em.emitExpr(e->lhs), l.type.elem(), loc);
    Value rhs = em.toCondition(em.emitExpr(e->rhs), r.type.elem(), loc);
    return em.emitArith(e->op, lhs, rhs, ScalarKind::I1, loc);
  }
  Value lhs = em.emitAs(e->lhs, i.operandElem, shape);
  Value rhs = em.emitAs(e->rhs, i.operandElem, shape);
  return em.emitArith(e->op, lhs, rhs, i.operandElem, loc);
}

static Value emitUnary(Emitter &em, const ast::UnaryExpr *e) {
  const sema::ExprInfo &i = em.info(e);
  ScalarKind kind = em.info(e->operand).type.elem();
  Value v = em.emitExpr(e->operand);
  Location loc = em.loc(e);
  Shape shape = em.info(e->operand).type.shape();
  OpBuilder &b = em.builder();
  switch (e->op) {
  case ast::UnaryOp::Neg:
    if (sema::isFloat(kind))
      return b.create<arith::NegFOp>(loc, v);
    return b.create<arith::SubIOp>(
        loc, em.constant(sema::ConstValue::integer(0), kind, shape, loc), v);
  case ast::UnaryOp::BitNot:
    return b.create<arith::XOrIOp>(
        loc, v, em.constant(sema::ConstValue::integer(-1), kind, shape, loc));
  case ast::UnaryOp::Not: {
    Value cond = em.toCondition(v, kind, loc);
    Value one = em.constant(sema::ConstValue::boolean(true), ScalarKind::I1,
                            i.type.shape(), loc);
    return b.create<arith::XOrIOp>(loc, cond, one);
  }
  }
  ice("unknown unary operator");
}

static Value emitCast(Emitter &em, const ast::CastExpr *e) {
  const sema::ExprInfo &i = em.info(e);
  Value v = em.emitExpr(e->operand);
  if (i.type.isPointerLike()) {
    Type type = em.lowerType(i.type);
    if (v.getType() == type)
      return v;
    return em.builder().create<PtrCastOp>(em.loc(e), type, v);
  }
  return em.convert(v, i.operandElem, i.type.elem(), em.loc(e));
}

/// `x[:, None]`: every `None` inserts a dimension of 1 where it stands.
static Value emitIndex(Emitter &em, const ast::IndexExpr *e) {
  Value v = em.emitExpr(e->base);
  int32_t position = 0;
  for (const ast::Expr *index : e->indices) {
    if (ast::isa<ast::NoneLiteralExpr>(index)) {
      if (getShapeOrEmpty(v.getType()).empty())
        v = em.broadcastTo(v, {1}, em.loc(e));
      else
        v = em.builder().create<ExpandDimsOp>(em.loc(e), v, position);
    }
    ++position;
  }
  return v;
}

Value Emitter::emitExpr(const ast::Expr *e) {
  const sema::ExprInfo &i = info(e);
  if (i.value && !i.type.isPointerLike())
    return constant(*i.value, i.type.elem(), i.type.shape(), loc(e));
  switch (e->getKind()) {
  case ast::NodeKind::Name:
  case ast::NodeKind::Member: return emitName(*this, e);
  case ast::NodeKind::Unary: return emitUnary(*this, ast::cast<ast::UnaryExpr>(e));
  case ast::NodeKind::Binary:
    return emitBinaryExpr(*this, ast::cast<ast::BinaryExpr>(e));
  case ast::NodeKind::Cast: return emitCast(*this, ast::cast<ast::CastExpr>(e));
  case ast::NodeKind::Call: return emitCall(ast::cast<ast::CallExpr>(e));
  case ast::NodeKind::Index: return emitIndex(*this, ast::cast<ast::IndexExpr>(e));
  default: ice("expression kind `" + std::string(ast::kindName(e->getKind())) +
               "` has no value");
  }
}

} // namespace blk::irgen
