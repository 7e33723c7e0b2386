//===- CheckStmt.cpp - statements, scopes, bindings -----------------------===//
//
// Expects a BodyChecker over one instance; guarantees every statement is
// checked (§5), names are bound in block scopes with shadowing and
// unused-`let` warnings (§8.7), conditions are scalars (§8.3), `var`
// reassignments keep their type and shape without narrowing (§8.5), and an
// `if` whose condition is constant analyses only the taken branch (IRGen
// lowers only that branch too).
// Tests: tests/lit/sema/fail_sema_block_condition.blk, warn_*.blk.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

namespace blk::sema::detail {

BodyChecker::BodyChecker(Analyzer &analyzer, FunctionInstance &instance,
                         ModuleScope &module, SpecContext spec)
    : analyzer(analyzer), instance(instance), module(module), spec(spec) {
  scopes.emplace_back();
}

BodyChecker::Symbol *BodyChecker::lookupLocal(const std::string &name) {
  for (auto it = scopes.rbegin(); it != scopes.rend(); ++it)
    if (auto found = it->find(name); found != it->end())
      return &found->second;
  return nullptr;
}

void BodyChecker::popScope() {
  // Report in source order: the map's order is arbitrary.
  std::vector<const Symbol *> unused;
  for (const auto &[name, sym] : scopes.back())
    if (sym.warnUnused && !sym.used)
      unused.push_back(&sym);
  std::sort(unused.begin(), unused.end(), [](const Symbol *a, const Symbol *b) {
    return a->range.begin.offset < b->range.begin.offset;
  });
  for (const Symbol *s : unused)
    analyzer.report(DiagId::sema_unused_let, s->range, {s->binding.name});
  scopes.pop_back();
}

void BodyChecker::declare(const std::string &name, SourceRange range, NameBinding binding,
                          const ast::Node *decl, VarInfo info, bool warnUnused) {
  instance.vars[decl] = std::move(info);
  binding.name = name;
  auto &scope = scopes.back();
  if (auto it = scope.find(name); it != scope.end()) {
    if (it->second.binding.kind != NameBinding::Kind::Param &&
        it->second.binding.kind != NameBinding::Kind::ShapeVar) {
      analyzer.report(DiagId::sema_redefinition, range, {name})
          .note(DiagId::note_sema_previous_binding, it->second.range, {name});
      return;
    }
  } else if (Symbol *outer = lookupLocal(name)) {
    analyzer.report(DiagId::sema_shadowed_name, range, {name})
        .note(DiagId::note_sema_previous_binding, outer->range, {name});
  } else if (module.names.count(name) &&
             module.names.at(name).kind != NameBinding::Kind::Function) {
    const ast::Node *prev = module.names.at(name).decl;
    analyzer.report(DiagId::sema_shadowed_name, range, {name})
        .note(DiagId::note_sema_previous_binding, prev->getRange(), {name});
  }
  Symbol sym;
  sym.binding = binding;
  sym.range = range;
  sym.decl = decl;
  // A binding whose value is in error was reported already: no follow-on warning.
  sym.warnUnused = warnUnused && name[0] != '_' && !instance.vars[decl].type.isError();
  scope[name] = sym;
}

void BodyChecker::bindParam(const ast::Param *p, VarInfo info) {
  Symbol sym;
  sym.binding = {NameBinding::Kind::Param, p, p->name};
  sym.range = p->nameRange;
  sym.decl = p;
  instance.vars[p] = std::move(info);
  scopes.back()[p->name] = sym;
}

void BodyChecker::checkKernel(const KernelInfo &kernel, const Specialization &s) {
  pushScope();
  for (const KernelParam &p : kernel.params) {
    VarInfo v;
    v.type = p.type;
    if (p.isConst) {
      auto it = std::find_if(s.config.begin(), s.config.end(),
                             [&](const ConfigValue &c) { return c.name == p.name; });
      if (it == s.config.end())
        v.type = Type::error(); // reported as missing; poison silences uses
      else
        v.value = it->value;
    }
    bindParam(p.decl, v);
  }
  if (kernel.decl->body)
    checkBlock(kernel.decl->body);
  // Keep the param scope: @grid expressions are checked in it afterwards.
}

void BodyChecker::checkBlock(const ast::BlockStmt *block, bool newScope) {
  if (newScope)
    pushScope();
  for (const ast::Stmt *s : block->stmts)
    checkStmt(s);
  if (newScope)
    popScope();
}

void BodyChecker::checkStmt(const ast::Stmt *s) {
  switch (s->getKind()) {
  case ast::NodeKind::Block: return checkBlock(ast::cast<ast::BlockStmt>(s));
  case ast::NodeKind::Let: return checkLet(ast::cast<ast::LetStmt>(s));
  case ast::NodeKind::Assign: return checkAssign(ast::cast<ast::AssignStmt>(s));
  case ast::NodeKind::If: return checkIf(ast::cast<ast::IfStmt>(s));
  case ast::NodeKind::For: return checkFor(ast::cast<ast::ForStmt>(s));
  case ast::NodeKind::While: return checkWhile(ast::cast<ast::WhileStmt>(s));
  case ast::NodeKind::Return: return checkReturn(ast::cast<ast::ReturnStmt>(s));
  case ast::NodeKind::StaticAssert:
    return checkStaticAssert(ast::cast<ast::StaticAssertStmt>(s));
  case ast::NodeKind::Break:
  case ast::NodeKind::Continue:
    if (loopDepth == 0)
      analyzer.report(DiagId::sema_loop_control_outside_loop, s->getRange(),
                      {s->getKind() == ast::NodeKind::Break ? "break" : "continue"});
    return;
  case ast::NodeKind::ExprStmt:
    checkExpr(ast::cast<ast::ExprStmt>(s)->expr);
    return;
  default: return;
  }
}

/// Can a value of type `from` be stored into a binding of type `to` without
/// changing its type or shape (broadcast and widening allowed)?
bool fitsInto(const ExprInfo &from, const Type &to, bool &narrowing) {
  narrowing = false;
  if (from.type.isPointerLike() != to.isPointerLike())
    return false;
  if (!broadcastsTo(from.type.shape(), to.shape()))
    return false;
  if (from.type.isPointerLike())
    return from.type.elem() == to.elem();
  // An untyped literal adopts the target's type, except a float literal
  // cannot silently become an integer.
  if (from.isUntypedLiteral ? isFloat(from.type.elem()) && !isFloat(to.elem())
                            : isNarrowing(from.type.elem(), to.elem()))
    narrowing = true;
  return true;
}

void BodyChecker::checkLet(const ast::LetStmt *s) {
  ExprInfo init = checkExpr(s->init);
  VarInfo var;
  var.type = init.type;
  var.isMutable = s->binding == ast::BindingKind::Var;
  if (init.type.isVoid()) {
    analyzer.report(DiagId::sema_no_value, s->init->getRange(),
                    {analyzer.sourceText(s->init->getRange())});
    var.type = Type::error();
  } else if (!init.type.isError() && !init.type.isValue()) {
    analyzer.report(DiagId::sema_not_a_value, s->init->getRange(),
                    {"`" + analyzer.sourceText(s->init->getRange()) + "` (a " + init.type.str() + ")"});
    var.type = Type::error();
  }
  if (s->binding == ast::BindingKind::Const) {
    if (!var.type.isError() && !init.value) {
      DiagBuilder d = analyzer.report(DiagId::sema_not_constant, s->init->getRange(),
                                      {"the value of `const " + s->name + "`"});
      addNonConstNote(d, s->init);
      var.type = Type::error();
    }
    var.value = init.value;
  } else if (s->binding == ast::BindingKind::Let) {
    var.value = init.value; // a let of a constant folds like the constant
  }
  // `let two = 2.0;` stays untyped like the literal (Python floats in Triton).
  var.isUntypedLiteral = s->binding != ast::BindingKind::Var && !s->type && init.isUntypedLiteral;
  // An untyped literal bound to a name gets its default type (i32 / f32).
  if (s->type && !var.type.isError()) {
    Type declared = resolveType(s->type);
    bool narrowing = false;
    if (!declared.isError() && !fitsInto(init, declared, narrowing)) {
      analyzer.report(DiagId::sema_assign_type, s->init->getRange(),
                      {init.type.str(), s->name, declared.str()});
    } else if (narrowing) {
      analyzer.report(DiagId::sema_narrowing_assign, s->init->getRange(),
                      {init.type.str(), s->name, declared.str()});
    }
    if (!declared.isError()) {
      var.type = declared;
      if (var.value && !declared.isPointerLike())
        var.value = isFloat(declared.elem()) ? ConstValue::floating(var.value->getFloat())
                                             : *var.value;
    }
  }
  declare(s->name, s->nameRange, {NameBinding::Kind::Local, s, s->name}, s, var,
          s->binding == ast::BindingKind::Let);
}

void BodyChecker::checkAssign(const ast::AssignStmt *s) {
  ExprInfo value = checkExpr(s->value);
  auto *target = ast::dyn_cast<ast::NameExpr>(s->target);
  if (!target) {
    checkExpr(s->target);
    return;
  }
  // `x = …` for a new x (Python's way): say how blk declares it.
  bool broken = module.module && module.module->brokenNames.count(target->name);
  if (!lookupLocal(target->name) && !module.names.count(target->name) &&
      !parseScalarKind(target->name) && !broken) {
    analyzer.report(DiagId::sema_unknown_name, target->getRange(), {target->name})
        .note(DiagId::note_sema_hint, SourceRange(),
              {"declare it with `let " + target->name + " = …`, or `var " + target->name +
               " = …` to assign it again later"});
    return;
  }
  ExprInfo current = checkExpr(target);
  if (current.type.isError())
    return;
  const NameBinding *b = instance.binding(target);
  const VarInfo *var = b ? instance.var(b->decl) : nullptr;
  if (!var || !var->isMutable) {
    std::string what = "`" + target->name + "`";
    std::string kind = !b ? "the name"
                       : b->kind == NameBinding::Kind::Param   ? "the parameter"
                       : b->kind == NameBinding::Kind::LoopVar ? "the loop variable"
                       : b->kind == NameBinding::Kind::Local   ? "the binding"
                                                               : "the constant";
    DiagBuilder d = analyzer.report(DiagId::sema_assign_immutable, s->target->getRange(),
                                    {kind, target->name});
    if (b && b->decl)
      d.note(DiagId::note_sema_declared_here, b->decl->getRange(), {target->name});
    return;
  }
  ExprInfo result = value;
  ast::BinaryOp op;
  if (ast::binaryOpOf(s->op, op))
    result = binaryResult(op, current, value, s->opRange, s->getRange(), s->target, s->value);
  if (result.type.isError())
    return;
  bool narrowing = false;
  if (!fitsInto(result, var->type, narrowing)) {
    analyzer.report(DiagId::sema_assign_type, s->value->getRange(),
                    {result.type.str(), "var " + target->name, var->type.str()})
        .note(DiagId::note_sema_hint, SourceRange(),
              {"a `var` keeps the type and shape of its first value"});
  } else if (narrowing) {
    analyzer.report(DiagId::sema_narrowing_assign, s->value->getRange(),
                    {result.type.str(), "var " + target->name, var->type.str()})
        .note(DiagId::note_sema_hint, SourceRange(),
              {"convert explicitly with `as " + std::string(spelling(var->type.elem())) + "`"});
  }
}

bool BodyChecker::checkCondition(const ast::Expr *cond, const char *what) {
  ExprInfo c = checkExpr(cond);
  if (c.type.isError())
    return false;
  if (c.type.isBlock()) {
    analyzer.report(DiagId::sema_block_condition, cond->getRange(), {what, c.type.str()})
        .note(DiagId::note_sema_use_where, SourceRange());
    return false;
  }
  if (!c.type.isScalar() || c.type.isFloatLike()) {
    analyzer.report(DiagId::sema_condition_type, cond->getRange(), {what, c.type.str()});
    return false;
  }
  return true;
}

void BodyChecker::checkIf(const ast::IfStmt *s) {
  checkCondition(s->cond, "the condition of `if`");
  const ExprInfo *c = instance.lookup(s->cond);
  // A constant condition (`if BLOCK > 64`) selects one branch at compile time.
  if (c && c->value) {
    if (c->value->getBool())
      checkBlock(s->thenBlock);
    else if (s->elseStmt)
      checkStmt(s->elseStmt);
    return;
  }
  checkBlock(s->thenBlock);
  if (s->elseStmt)
    checkStmt(s->elseStmt);
}

void BodyChecker::checkWhile(const ast::WhileStmt *s) {
  checkCondition(s->cond, "the condition of `while`");
  ++loopDepth;
  checkBlock(s->body);
  --loopDepth;
}

void BodyChecker::checkReturn(const ast::ReturnStmt *s) {
  ExprInfo v;
  v.type = Type::voidType();
  if (s->value)
    v = checkExpr(s->value);
  if (!instance.decl || instance.decl->isKernel) {
    analyzer.report(DiagId::sema_return_in_kernel, s->getRange());
    return;
  }
  // fn bodies are inlined into structured control flow (scf.for/while), which
  // has no early exit out of several regions; a return in a loop would need
  // flags threaded through every enclosing loop and statement (v0: refused).
  if (loopDepth > 0) {
    analyzer.report(DiagId::sema_return_in_loop, s->getRange())
        .note(DiagId::note_sema_hint, SourceRange(),
              {"keep the result in a `var`, `break` out of the loop, and `return` after it"});
    return;
  }
  if (!fnReturn || v.type.isError()) {
    // An erroneous return poisons the call's result instead of cascading.
    if (!fnReturn || !fnReturn->isError())
      fnReturn = v.type;
    fnReturnRange = s->getRange();
    return;
  }
  if (fnReturn->isError())
    return;
  bool narrowing = false;
  if (v.type != *fnReturn && !(v.type.isValue() && fnReturn->isValue() &&
                               fitsInto(v, *fnReturn, narrowing) && !narrowing)) {
    analyzer.report(DiagId::sema_return_type, s->getRange(),
                    {instance.decl->name, v.type.str(),
                     "it returns `" + fnReturn->str() + "` elsewhere"})
        .note(DiagId::note_sema_previous_binding, fnReturnRange, {"return"});
  }
}

void BodyChecker::checkStaticAssert(const ast::StaticAssertStmt *s) {
  ExprInfo c = checkExpr(s->cond);
  if (s->message)
    checkExpr(s->message);
  if (c.type.isError())
    return;
  std::optional<int64_t> v = requireConstInt(s->cond, c, "the condition of `static_assert`");
  if (!v || *v)
    return;
  std::string msg = s->message ? ": " + s->message->value : "";
  DiagBuilder d = analyzer.report(DiagId::sema_static_assert_failed, s->cond->getRange(), {msg});
  addValueNotes(d, s->cond);
}

} // namespace blk::sema::detail
