//===- EmitLoops.cpp - for and while loops --------------------------------===//
//
// `for i in range(a, b, s)` with a constant positive step is an scf.for over
// the loop variable's type; other steps become an scf.while carrying the
// induction variable. `while c { … }` is an scf.while whose "before" region
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

void Emitter::emitFor(const ast::ForStmt *s) {
  auto *call = ast::cast<ast::CallExpr>(s->iterable);
  Location l = loc(s);
  ScalarKind kind = varInfo(s).type.elem();
  Type ivType = scalarType(kind);
  std::vector<const ast::Expr *> bounds;
  for (const ast::Argument *arg : call->args)
    bounds.push_back(arg->value);
  Value lb = bounds.size() == 1 ? intConstant(0, ivType, l) : emitAs(bounds[0], kind, {});
  Value ub = emitAs(bounds.size() == 1 ? bounds[0] : bounds[1], kind, {});
  Value step = bounds.size() == 3 ? emitAs(bounds[2], kind, {}) : intConstant(1, ivType, l);
  std::optional<int64_t> constStep = 1;
  if (bounds.size() == 3)
    constStep = info(bounds[2]).value ? std::optional<int64_t>(info(bounds[2]).value->getInt())
                                      : std::nullopt;
  SetVector<const ast::Node *> carried = assignedOuterVars(s->body);
  SmallVector<Value> inits = valuesOf(carried.getArrayRef());
  DenseMap<const ast::Node *, Value> outer = frame->vars;

  if (constStep && *constStep > 0) {
    auto forOp = b.create<scf::ForOp>(l, lb, ub, step, inits);
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
  Value iv = before->getArgument(0);
  bool isUnsigned = sema::isUnsigned(kind);
  auto pred = [&](bool up) {
    if (up)
      return isUnsigned ? arith::CmpIPredicate::ult : arith::CmpIPredicate::slt;
    return isUnsigned ? arith::CmpIPredicate::ugt : arith::CmpIPredicate::sgt;
  };
  Value cond;
  if (constStep) {
    cond = b.create<arith::CmpIOp>(l, pred(false), iv, ub);
  } else {
    Value zero = intConstant(0, ivType, l);
    Value up = b.create<arith::CmpIOp>(l, arith::CmpIPredicate::sgt, step, zero);
    Value below = b.create<arith::CmpIOp>(l, pred(true), iv, ub);
    Value above = b.create<arith::CmpIOp>(l, pred(false), iv, ub);
    cond = b.create<arith::SelectOp>(l, up, below, above);
  }
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
