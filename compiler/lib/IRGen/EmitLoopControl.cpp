//===- EmitLoopControl.cpp - loops with break and continue ----------------===//
//
// scf loops have no early exits, so a loop whose body has `break` or
// `continue` becomes an scf.while carrying, besides the assigned variables
// (and the induction variable of a `for`), a `broken` flag that the
// condition tests. Within one iteration an `active` flag says whether the
// statements still run: after an `if` that may `break`/`continue`, the
// rest of the body is wrapped in `scf.if active`. The conditions are
// scalars (Sema), so this is plain scalar control flow.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "blk/IR/BlkOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace blk::irgen {

bool hasLoopControl(const ast::Node *node) {
  if (ast::isa<ast::BreakStmt, ast::ContinueStmt>(node))
    return true;
  if (ast::isa<ast::ForStmt, ast::WhileStmt>(node))
    return false;
  bool found = false;
  ast::forEachChild(node, [&](const ast::Node *child) {
    found = found || hasLoopControl(child);
  });
  return found;
}

static Value boolConstant(OpBuilder &b, bool value, Location loc) {
  return b.create<arith::ConstantOp>(loc, b.getBoolAttr(value));
}

/// Carries `vars` plus the current loop's flags through an scf.if on
/// `cond`; `thenFn`/`elseFn` emit the branches (else may be null).
static void guardedIf(Emitter &em, Value cond, SetVector<const ast::Node *> vars,
                      const std::function<void()> &thenFn,
                      const std::function<void()> &elseFn, Location loc) {
  OpBuilder &b = em.builder();
  Frame &frame = em.currentFrame();
  SmallVector<Type> types;
  for (Value v : em.valuesOf(vars.getArrayRef()))
    types.push_back(v.getType());
  auto ifOp = b.create<scf::IfOp>(loc, types, cond, /*withElseRegion=*/true);
  DenseMap<const ast::Node *, Value> before = frame.vars;
  auto branch = [&](Block *block, const std::function<void()> &fn) {
    frame.vars = before;
    setInsertionPointToBodyEnd(b, block);
    if (fn)
      fn();
    yieldValues(b, block, em.valuesOf(vars.getArrayRef()), loc);
  };
  branch(ifOp.thenBlock(), thenFn);
  branch(ifOp.elseBlock(), elseFn);
  frame.vars = before;
  b.setInsertionPointAfter(ifOp);
  for (auto [var, result] : llvm::zip(vars, ifOp.getResults()))
    frame.vars[var] = result;
}

void Emitter::emitGuarded(std::vector<const ast::Stmt *> stmts) {
  const LoopFlags flags = loopFlags.back();
  for (size_t n = 0; n < stmts.size(); ++n) {
    const ast::Stmt *s = stmts[n];
    Location l = loc(s);
    std::vector<const ast::Stmt *> rest(stmts.begin() + n + 1, stmts.end());
    if (ast::isa<ast::BreakStmt>(s)) {
      frame->vars[flags.broken] = boolConstant(b, true, l);
      frame->vars[flags.active] = boolConstant(b, false, l);
      return; // the rest of this list cannot run
    }
    if (ast::isa<ast::ContinueStmt>(s)) {
      frame->vars[flags.active] = boolConstant(b, false, l);
      return;
    }
    if (!hasLoopControl(s)) {
      emitStmts(ArrayRef<const ast::Stmt *>(&s, 1));
      continue;
    }
    if (auto *block = ast::dyn_cast<ast::BlockStmt>(s)) {
      std::vector<const ast::Stmt *> spliced(block->stmts.begin(), block->stmts.end());
      spliced.insert(spliced.end(), rest.begin(), rest.end());
      return emitGuarded(spliced);
    }
    auto *ifStmt = ast::dyn_cast<ast::IfStmt>(s);
    if (!ifStmt)
      ice("`break`/`continue` in an unexpected statement");
    const sema::ExprInfo &c = info(ifStmt->cond);
    if (c.value) { // only the taken branch exists
      std::vector<const ast::Stmt *> spliced;
      if (c.value->getBool())
        spliced.assign(ifStmt->thenBlock->stmts.begin(), ifStmt->thenBlock->stmts.end());
      else if (ifStmt->elseStmt)
        spliced.push_back(ifStmt->elseStmt);
      spliced.insert(spliced.end(), rest.begin(), rest.end());
      return emitGuarded(spliced);
    }
    Value cond = toCondition(emitExpr(ifStmt->cond), c.type.elem(), l);
    SetVector<const ast::Node *> vars = assignedOuterVars(ifStmt);
    vars.insert(flags.broken);
    vars.insert(flags.active);
    std::vector<const ast::Stmt *> thenStmts(ifStmt->thenBlock->stmts.begin(),
                                             ifStmt->thenBlock->stmts.end());
    std::vector<const ast::Stmt *> elseStmts;
    if (ifStmt->elseStmt)
      elseStmts.push_back(ifStmt->elseStmt);
    guardedIf(*this, cond, vars, [&] { emitGuarded(thenStmts); },
              [&] { emitGuarded(elseStmts); }, l);
    if (rest.empty())
      return;
    // The rest runs only if the branch did not break or continue.
    SetVector<const ast::Node *> restVars;
    for (const ast::Stmt *r : rest) {
      SetVector<const ast::Node *> assigned = assignedOuterVars(r);
      restVars.insert(assigned.begin(), assigned.end());
    }
    restVars.insert(flags.broken);
    restVars.insert(flags.active);
    guardedIf(*this, frame->vars[flags.active], restVars,
              [&] { emitGuarded(rest); }, nullptr, l);
    return;
  }
}

void Emitter::emitControlledLoop(const ast::Stmt *loop) {
  Location l = loc(loop);
  auto *forStmt = ast::dyn_cast<ast::ForStmt>(loop);
  auto *whileStmt = ast::dyn_cast<ast::WhileStmt>(loop);
  const ast::BlockStmt *body = forStmt ? forStmt->body : whileStmt->body;
  // Keys for the flags: nodes of this loop no variable uses.
  LoopFlags flags{body, forStmt ? static_cast<const ast::Node *>(forStmt->iterable)
                                : whileStmt->cond};
  std::optional<RangeBounds> range;
  if (forStmt)
    range = emitRangeBounds(forStmt);
  SetVector<const ast::Node *> carried = assignedOuterVars(body);
  SmallVector<Value> inits;
  if (range)
    inits.push_back(range->lb);
  inits.append(valuesOf(carried.getArrayRef()));
  inits.push_back(boolConstant(b, false, l)); // broken
  SmallVector<Type> types;
  for (Value v : inits)
    types.push_back(v.getType());
  SmallVector<Location> locs(types.size(), l);
  DenseMap<const ast::Node *, Value> outer = frame->vars;
  size_t first = range ? 1 : 0;

  auto whileOp = b.create<scf::WhileOp>(l, types, inits);
  Block *before = b.createBlock(&whileOp.getBefore(), {}, types, locs);
  for (auto [i, var] : llvm::enumerate(carried))
    frame->vars[var] = before->getArgument(first + i);
  Value running;
  if (range) {
    running = rangeCondition(before->getArgument(0), *range, l);
  } else {
    const sema::ExprInfo &c = info(whileStmt->cond);
    running = toCondition(emitExpr(whileStmt->cond), c.type.elem(), l);
  }
  Value notBroken = b.create<arith::XOrIOp>(l, before->getArguments().back(),
                                            boolConstant(b, true, l));
  Value cond = b.create<arith::AndIOp>(l, running, notBroken);
  b.create<scf::ConditionOp>(l, cond, before->getArguments());

  Block *after = b.createBlock(&whileOp.getAfter(), {}, types, locs);
  if (range)
    frame->vars[forStmt] = after->getArgument(0);
  for (auto [i, var] : llvm::enumerate(carried))
    frame->vars[var] = after->getArgument(first + i);
  frame->vars[flags.broken] = after->getArguments().back();
  frame->vars[flags.active] = boolConstant(b, true, l);
  loopFlags.push_back(flags);
  emitGuarded(std::vector<const ast::Stmt *>(body->stmts.begin(), body->stmts.end()));
  loopFlags.pop_back();
  SmallVector<Value> next;
  if (range)
    next.push_back(b.create<arith::AddIOp>(l, after->getArgument(0), range->step));
  next.append(valuesOf(carried.getArrayRef()));
  next.push_back(frame->vars[flags.broken]);
  b.create<scf::YieldOp>(l, next);

  frame->vars = outer;
  b.setInsertionPointAfter(whileOp);
  for (auto [i, var] : llvm::enumerate(carried))
    frame->vars[var] = whileOp.getResult(first + i);
}

} // namespace blk::irgen
