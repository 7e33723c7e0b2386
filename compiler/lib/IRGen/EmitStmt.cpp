//===- EmitStmt.cpp - kernels, statements, if, inlined fn calls -----------===//
//
// Variables are SSA values in the Frame; an `if` yields the outer variables
// it assigns as scf.if results. A constant condition emits only the taken
// branch (the only one Sema analysed). `fn` calls are inlined into a fresh
// Frame; a `return` inside an `if` moves the rest of the fn into both
// branches so that the scf.if yields the return value.
// Loops are in EmitLoops.cpp.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "blk/IR/BlkOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <functional>

using namespace mlir;

namespace blk::irgen {

/// True if `node` contains a `return` (fn bodies only have them).
static bool containsReturn(const ast::Node *node) {
  if (ast::isa<ast::ReturnStmt>(node))
    return true;
  bool found = false;
  ast::forEachChild(node, [&](const ast::Node *child) {
    found = found || containsReturn(child);
  });
  return found;
}

const sema::VarInfo &Emitter::varInfo(const ast::Node *decl) const {
  const sema::VarInfo *v = frame->instance->var(decl);
  if (!v || !v->type.isValue())
    ice("variable without a value type");
  return *v;
}

Value Emitter::emitAsType(const ast::Expr *e, const sema::Type &type) {
  if (type.isPointerLike())
    return emitBroadcast(e, type.shape());
  return emitAs(e, type.elem(), type.shape());
}

SetVector<const ast::Node *> Emitter::assignedOuterVars(const ast::Node *node) {
  SetVector<const ast::Node *> vars;
  std::function<void(const ast::Node *)> walk = [&](const ast::Node *n) {
    if (auto *assign = ast::dyn_cast<ast::AssignStmt>(n))
      if (const sema::NameBinding *binding = frame->instance->binding(assign->target))
        if (frame->vars.count(binding->decl))
          vars.insert(binding->decl);
    ast::forEachChild(n, walk);
  };
  walk(node);
  return vars;
}

SmallVector<Value> Emitter::valuesOf(ArrayRef<const ast::Node *> vars) {
  SmallVector<Value> values;
  for (const ast::Node *v : vars)
    values.push_back(frame->vars.lookup(v));
  return values;
}

void Emitter::emitKernel(const sema::KernelInfo &kernel,
                         const sema::Specialization &spec, Block &entry) {
  Frame kernelFrame;
  kernelFrame.instance = spec.body.get();
  frame = &kernelFrame;
  for (auto [i, index] : llvm::enumerate(kernel.runtimeParams))
    kernelFrame.vars[kernel.params[index].decl] = entry.getArgument(i);
  b.setInsertionPointToEnd(&entry);
  if (kernel.decl->body)
    emitStmts(kernel.decl->body->stmts);
  b.create<func::ReturnOp>(loc(kernel.decl));
  frame = nullptr;
}

void Emitter::emitLet(const ast::LetStmt *s) {
  const sema::VarInfo &var = varInfo(s);
  frame->vars[s] = emitAsType(s->init, var.type);
}

void Emitter::emitAssign(const ast::AssignStmt *s) {
  const sema::NameBinding *binding = frame->instance->binding(s->target);
  if (!binding || !frame->vars.count(binding->decl))
    ice("assignment to an unknown variable");
  const sema::Type &varType = varInfo(binding->decl).type;
  Value current = frame->vars[binding->decl];
  ast::BinaryOp op;
  if (!ast::binaryOpOf(s->op, op)) {
    frame->vars[binding->decl] = emitAsType(s->value, varType);
    return;
  }
  Location l = loc(s);
  const sema::ExprInfo &value = info(s->value);
  std::optional<Shape> shape =
      sema::broadcastShapes(varType.shape(), value.type.shape());
  if (!shape)
    ice("compound assignment shapes do not broadcast");
  Value result;
  if (varType.isPointerLike()) {
    Value off = pointerOffset(emitAs(s->value, value.type.elem(), *shape), value.type.elem(),
                              op == ast::BinaryOp::Sub, l);
    Value ptr = broadcastTo(current, *shape, l);
    result = b.create<AddPtrOp>(l, ptr.getType(), ptr, off);
  } else {
    ScalarKind k = sema::promoteWithLiterals(varType.elem(), false,
                                             value.type.elem(),
                                             value.isUntypedLiteral);
    Value lhs = broadcastTo(convert(current, varType.elem(), k, l), *shape, l);
    Value rhs = emitAs(s->value, k, *shape);
    result = convert(emitArith(op, lhs, rhs, k, l), k, varType.elem(), l);
  }
  if (getShapeOrEmpty(result.getType()) != ArrayRef<int64_t>(varType.shape()))
    ice("compound assignment changes the shape of a var");
  frame->vars[binding->decl] = result;
}

Flow Emitter::emitStmts(ArrayRef<const ast::Stmt *> stmts,
                        const Continuation &cont) {
  for (size_t n = 0; n < stmts.size(); ++n) {
    const ast::Stmt *s = stmts[n];
    bool returns = fnReturnType && containsReturn(s);
    Continuation next;
    if (returns) {
      next.push_back(stmts.drop_front(n + 1));
      next.insert(next.end(), cont.begin(), cont.end());
    }
    switch (s->getKind()) {
    case ast::NodeKind::Block:
      if (returns)
        return emitStmts(ast::cast<ast::BlockStmt>(s)->stmts, next);
      emitStmts(ast::cast<ast::BlockStmt>(s)->stmts);
      break;
    case ast::NodeKind::Let: emitLet(ast::cast<ast::LetStmt>(s)); break;
    case ast::NodeKind::Assign: emitAssign(ast::cast<ast::AssignStmt>(s)); break;
    case ast::NodeKind::If:
      if (returns)
        return emitIf(ast::cast<ast::IfStmt>(s), &next);
      emitIf(ast::cast<ast::IfStmt>(s), nullptr);
      break;
    case ast::NodeKind::For:
      if (returns)
        ice("`return` inside a loop is not supported");
      emitFor(ast::cast<ast::ForStmt>(s));
      break;
    case ast::NodeKind::While:
      if (returns)
        ice("`return` inside a loop is not supported");
      emitWhile(ast::cast<ast::WhileStmt>(s));
      break;
    case ast::NodeKind::Return: {
      auto *ret = ast::cast<ast::ReturnStmt>(s);
      Flow flow{true, Value()};
      if (ret->value && fnReturnType && fnReturnType->isValue())
        flow.value = emitAsType(ret->value, *fnReturnType);
      return flow;
    }
    case ast::NodeKind::Break:
    case ast::NodeKind::Continue:
      ice("`break`/`continue` reached outside loop lowering");
    case ast::NodeKind::StaticAssert: break;
    case ast::NodeKind::ExprStmt: {
      const ast::Expr *e = ast::cast<ast::ExprStmt>(s)->expr;
      if (auto *call = ast::dyn_cast<ast::CallExpr>(e))
        emitCall(call);
      else if (const sema::ExprInfo *i = frame->instance->lookup(e);
               i && i->type.isValue())
        emitExpr(e);
      break;
    }
    default: ice("unknown statement kind");
    }
  }
  if (!cont.empty())
    return emitStmts(cont.front(), Continuation(cont.begin() + 1, cont.end()));
  return Flow{};
}

/// A zero of the fn's return type, for a path that falls off the end.
static Value zeroOf(Emitter &em, const sema::Type &type, Location loc) {
  if (type.isPointerLike())
    ice("fn returning a pointer falls off its end");
  return em.constant(sema::ConstValue::integer(0), type.elem(), type.shape(), loc);
}

Flow Emitter::emitIf(const ast::IfStmt *s, const Continuation *cont) {
  const sema::ExprInfo &c = info(s->cond);
  Continuation rest = cont ? *cont : Continuation();
  if (c.value) { // decided at compile time: Sema analysed one branch only
    if (c.value->getBool())
      return emitStmts(s->thenBlock->stmts, rest);
    if (s->elseStmt)
      return emitStmts(ArrayRef<const ast::Stmt *>(&s->elseStmt, 1), rest);
    return cont ? emitStmts({}, rest) : Flow{};
  }
  Location l = loc(s);
  Value cond = toCondition(emitExpr(s->cond), c.type.elem(), l);
  // With a continuation everything after the if is inside it: only the
  // return value leaves. Otherwise the assigned outer variables do.
  bool returning = cont != nullptr;
  bool hasValue = returning && fnReturnType && fnReturnType->isValue();
  SetVector<const ast::Node *> carried;
  if (!returning)
    carried = assignedOuterVars(s);
  SmallVector<Type> types;
  for (Value v : valuesOf(carried.getArrayRef()))
    types.push_back(v.getType());
  if (hasValue)
    types.push_back(lowerType(*fnReturnType));
  auto ifOp = b.create<scf::IfOp>(l, types, cond, /*withElseRegion=*/true);
  DenseMap<const ast::Node *, Value> before = frame->vars;
  auto emitBranch = [&](Block *block, ArrayRef<const ast::Stmt *> stmts) {
    frame->vars = before;
    setInsertionPointToBodyEnd(b, block);
    Flow flow = emitStmts(stmts, rest);
    SmallVector<Value> results = valuesOf(carried.getArrayRef());
    if (hasValue)
      results.push_back(flow.returned && flow.value
                            ? flow.value
                            : zeroOf(*this, *fnReturnType, l));
    yieldValues(b, block, results, l);
  };
  emitBranch(ifOp.thenBlock(), s->thenBlock->stmts);
  if (s->elseStmt)
    emitBranch(ifOp.elseBlock(), ArrayRef<const ast::Stmt *>(&s->elseStmt, 1));
  else
    emitBranch(ifOp.elseBlock(), {});
  frame->vars = before;
  b.setInsertionPointAfter(ifOp);
  for (auto [var, result] : llvm::zip(carried, ifOp.getResults()))
    frame->vars[var] = result;
  if (!returning)
    return Flow{};
  return Flow{true, hasValue ? ifOp.getResults().back() : Value()};
}

Value Emitter::emitFnCall(const ast::CallExpr *call,
                          const sema::FunctionInstance &callee) {
  const ast::FunctionDecl *fn = callee.decl;
  std::vector<const ast::Expr *> args(fn->params.size(), nullptr);
  size_t positional = 0;
  for (const ast::Argument *arg : call->args) {
    size_t slot = positional;
    if (arg->isNamed()) {
      slot = 0;
      while (slot < fn->params.size() && fn->params[slot]->name != arg->name)
        ++slot;
    } else {
      ++positional;
    }
    if (slot >= fn->params.size())
      ice("fn argument does not bind");
    args[slot] = arg->value;
  }
  Frame callFrame;
  callFrame.instance = &callee;
  for (size_t i = 0; i < fn->params.size(); ++i) {
    const sema::VarInfo *param = callee.var(fn->params[i]);
    if (!param || !param->type.isValue())
      ice("fn parameter without a type");
    if (param->value && !param->type.isPointerLike())
      continue; // const parameter: every use is folded
    callFrame.vars[fn->params[i]] = emitAsType(args[i], param->type);
  }
  Frame *callerFrame = frame;
  const sema::Type *callerReturn = fnReturnType;
  frame = &callFrame;
  fnReturnType = &callee.returnType;
  Flow flow = fn->body ? emitStmts(fn->body->stmts) : Flow{};
  frame = callerFrame;
  fnReturnType = callerReturn;
  if (!callee.returnType.isValue())
    return Value();
  if (!flow.returned || !flow.value)
    return zeroOf(*this, callee.returnType, loc(call));
  return flow.value;
}

} // namespace blk::irgen
