//===- EmitLoops.cpp - for and while loops --------------------------------===//
//
// `for i in range(a, b, s)` with a constant positive step, or with
// `num_programs(…)` as its step (a persistent kernel's loop over tiles), is
// an scf.for over the loop variable's type (marked `blk.unroll` for
// `static_range`); other steps become an scf.while carrying the induction
// variable. `while c { … }`
// is an scf.while whose "before" region
// evaluates c. Every outer variable the body assigns is carried as
// iter_args / while arguments and rebound to the loop results.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "blk/IR/BlkOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace blk::irgen {

/// Rebinds `vars` to `values` in the current frame.
static void bind(Frame &frame, ArrayRef<const ast::Node *> vars,
                 ValueRange values) {
  for (auto [var, value] : llvm::zip(vars, values))
    frame.vars[var] = value;
}

static SmallVector<Type> typesOf(ValueRange values) {
  SmallVector<Type> types;
  for (Value v : values)
    types.push_back(v.getType());
  return types;
}

Emitter::RangeBounds Emitter::emitRangeBounds(const ast::ForStmt *s) {
  auto *call = ast::cast<ast::CallExpr>(s->iterable);
  Location l = loc(s);
  RangeBounds r;
  r.kind = varInfo(s).type.elem();
  Type ivType = scalarType(r.kind);
  std::vector<const ast::Expr *> bounds;
  for (const ast::Argument *arg : call->args)
    bounds.push_back(arg->value);
  r.lb = bounds.size() == 1 ? intConstant(0, ivType, l) : emitAs(bounds[0], r.kind, {});
  r.ub = emitAs(bounds.size() == 1 ? bounds[0] : bounds[1], r.kind, {});
  r.step = bounds.size() == 3 ? emitAs(bounds[2], r.kind, {}) : intConstant(1, ivType, l);
  r.constStep = 1;
  if (bounds.size() == 3) {
    r.constStep = info(bounds[2]).value
                      ? std::optional<int64_t>(info(bounds[2]).value->getInt())
                      : std::nullopt;
    auto *call = ast::dyn_cast<ast::CallExpr>(bounds[2]);
    auto *callee = call ? ast::dyn_cast<ast::NameExpr>(call->callee) : nullptr;
    r.positiveStep = r.constStep ? *r.constStep > 0
                                 : callee && callee->name == "num_programs";
  }
  return r;
}

Value Emitter::rangeCondition(Value iv, const RangeBounds &r, Location l) {
  bool isUnsigned = sema::isUnsigned(r.kind);
  auto pred = [&](bool up) {
    if (up)
      return isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
    return isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
  };
  if (r.constStep || r.positiveStep)
    return b.create<arith::CmpIOp>(l, pred(r.positiveStep), iv, r.ub);
  Value zero = intConstant(0, iv.getType(), l);
  Value up = b.create<arith::CmpIOp>(l, arith::CmpIPredicate::sgt, r.step, zero);
  Value below = b.create<arith::CmpIOp>(l, pred(true), iv, r.ub);
  Value above = b.create<arith::CmpIOp>(l, pred(false), iv, r.ub);
  return b.create<arith::SelectOp>(l, up, below, above);
}

void Emitter::emitFor(const ast::ForStmt *s) {
  if (hasLoopControl(s->body))
    return emitControlledLoop(s);
  Location l = loc(s);
  RangeBounds r = emitRangeBounds(s);
  Value lb = r.lb, ub = r.ub, step = r.step;
  SetVector<const ast::Node *> carried = assignedOuterVars(s->body);
  SmallVector<Value> inits = valuesOf(carried.getArrayRef());
  DenseMap<const ast::Node *, Value> outer = frame->vars;

  if (r.positiveStep) {
    auto forOp = b.create<scf::ForOp>(l, lb, ub, step, inits);
    // `static_range` forces unrolling: --blk-unroll-static-loops does it.
    auto *callee = ast::dyn_cast<ast::NameExpr>(ast::cast<ast::CallExpr>(s->iterable)->callee);
    if (callee && callee->name == "static_range")
      forOp->setAttr("blk.unroll", b.getUnitAttr());
    Block *body = forOp.getBody();
    frame->vars[s] = forOp.getInductionVar();
    bind(*frame, carried.getArrayRef(), forOp.getRegionIterArgs());
    setInsertionPointToBodyEnd(b, body);
    emitStmts(s->body->stmts);
    yieldValues(b, body, valuesOf(carried.getArrayRef()), l);
    frame->vars = outer;
    b.setInsertionPointAfter(forOp);
    bind(*frame, carried.getArrayRef(), forOp.getResults());
    return;
  }

  // scf.while carrying (iv, vars...): runs while iv has not passed ub.
  SmallVector<Value> whileInits{lb};
  whileInits.append(inits);
  SmallVector<Type> types = typesOf(whileInits);
  SmallVector<Location> locs(types.size(), l);
  auto whileOp = b.create<scf::WhileOp>(l, types, whileInits);
  Block *before = b.createBlock(&whileOp.getBefore(), {}, types, locs);
  Value cond = rangeCondition(before->getArgument(0), r, l);
  b.create<scf::ConditionOp>(l, cond, before->getArguments());
  Block *after = b.createBlock(&whileOp.getAfter(), {}, types, locs);
  frame->vars[s] = after->getArgument(0);
  bind(*frame, carried.getArrayRef(), after->getArguments().drop_front());
  emitStmts(s->body->stmts);
  SmallVector<Value> next{b.create<arith::AddIOp>(l, after->getArgument(0), step)};
  next.append(valuesOf(carried.getArrayRef()));
  b.create<scf::YieldOp>(l, next);
  frame->vars = outer;
  b.setInsertionPointAfter(whileOp);
  bind(*frame, carried.getArrayRef(), whileOp.getResults().drop_front());
}

void Emitter::emitWhile(const ast::WhileStmt *s) {
  if (hasLoopControl(s->body))
    return emitControlledLoop(s);
  Location l = loc(s);
  SetVector<const ast::Node *> carried = assignedOuterVars(s->body);
  SmallVector<Value> inits = valuesOf(carried.getArrayRef());
  SmallVector<Type> types = typesOf(inits);
  SmallVector<Location> locs(types.size(), l);
  DenseMap<const ast::Node *, Value> outer = frame->vars;
  auto whileOp = b.create<scf::WhileOp>(l, types, inits);
  Block *before = b.createBlock(&whileOp.getBefore(), {}, types, locs);
  bind(*frame, carried.getArrayRef(), before->getArguments());
  const sema::ExprInfo &c = info(s->cond);
  Value cond = toCondition(emitExpr(s->cond), c.type.elem(), loc(s->cond));
  b.create<scf::ConditionOp>(l, cond, before->getArguments());
  Block *after = b.createBlock(&whileOp.getAfter(), {}, types, locs);
  bind(*frame, carried.getArrayRef(), after->getArguments());
  emitStmts(s->body->stmts);
  b.create<scf::YieldOp>(l, valuesOf(carried.getArrayRef()));
  frame->vars = outer;
  b.setInsertionPointAfter(whileOp);
  bind(*frame, carried.getArrayRef(), whileOp.getResults());
}

} // namespace blk::irgen
