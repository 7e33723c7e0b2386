//===- CheckCall.cpp - calls, fn instantiation, loops, written types ------===//
//
// Expects a BodyChecker; guarantees: a call to a `fn` creates one
// FunctionInstance per call site, typed with the concrete argument types
// (annotations checked, shape names such as `N` in `f32[N]` bound), with
// recursion reported; diagnostics inside the callee get a "called here" note.
// Also: `for` over range/static_range, written types (TypeRef), shape rules
// (§8.1) and the notes that explain constants (which @config / -D supplied
// a value, why an expression is not constant).
// Tests: tests/lit/sema/fail_sema_recursion.blk, fn_generic.blk, …
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include "blk/Sema/Suggest.h"

#include <set>

namespace blk::sema::detail {

ExprInfo BodyChecker::checkCall(const ast::CallExpr *e) {
  ExprInfo callee = checkExpr(e->callee);
  const NameBinding *b = instance.binding(e->callee);
  auto checkArgsOnly = [&] {
    for (const ast::Argument *a : e->args)
      checkExpr(a->value);
    return ExprInfo();
  };
  if (callee.type.isError())
    return checkArgsOnly();
  if (b && b->kind == NameBinding::Kind::Builtin && b->name != "inf" && b->name != "nan") {
    if (b->name == "range" || b->name == "static_range") {
      analyzer.report(DiagId::sema_range_outside_for, e->getRange(), {b->name});
      return checkArgsOnly();
    }
    return checkBuiltin(e, b->name);
  }
  if (b && b->kind == NameBinding::Kind::Function) {
    ModuleScope *fnModule = &module;
    if (auto *m = ast::dyn_cast<ast::MemberExpr>(e->callee)) {
      const NameBinding *base = instance.binding(m->base);
      auto it = module.imports.find(ast::cast<ast::ImportDecl>(base->decl));
      fnModule = it == module.imports.end() ? nullptr : it->second;
    }
    if (!fnModule)
      return checkArgsOnly();
    return checkFnCall(e, ast::cast<ast::FunctionDecl>(b->decl), *fnModule);
  }
  analyzer.report(DiagId::sema_not_callable, e->callee->getRange(),
                  {analyzer.sourceText(e->callee->getRange())});
  return checkArgsOnly();
}

ExprInfo BodyChecker::checkFnCall(const ast::CallExpr *e, const ast::FunctionDecl *fn,
                                  ModuleScope &fnModule) {
  std::vector<ExprInfo> args(fn->params.size());
  std::vector<SourceRange> ranges(fn->params.size());
  std::vector<bool> given(fn->params.size(), false);
  bool failed = false;
  size_t positional = 0;
  for (const ast::Argument *a : e->args) {
    ExprInfo info = checkExpr(a->value);
    failed |= info.type.isError();
    size_t slot = positional;
    if (a->isNamed()) {
      slot = fn->params.size();
      for (size_t i = 0; i < fn->params.size(); ++i)
        if (fn->params[i]->name == a->name)
          slot = i;
      if (slot == fn->params.size()) {
        std::vector<std::string> names;
        for (const ast::Param *p : fn->params)
          names.push_back(p->name);
        DiagBuilder d = analyzer.report(DiagId::sema_unknown_named_arg, a->nameRange,
                                        {fn->name, a->name});
        if (std::optional<std::string> near = closestName(a->name, names))
          d.note(DiagId::note_sema_hint, SourceRange(), {didYouMean(*near)});
        failed = true;
        continue;
      }
    } else {
      ++positional;
    }
    if (slot >= fn->params.size())
      continue;
    args[slot] = info;
    ranges[slot] = a->value->getRange();
    given[slot] = true;
  }
  size_t count = std::count(given.begin(), given.end(), true);
  if (positional > fn->params.size() || count != fn->params.size()) {
    analyzer.report(DiagId::sema_arg_count, e->getRange(),
                    {fn->name, fn->params.size(), e->args.size()})
        .note(DiagId::note_sema_declared_here, fn->nameRange, {fn->name});
    return ExprInfo();
  }
  if (failed)
    return ExprInfo();
  if (std::find(analyzer.callStack.begin(), analyzer.callStack.end(), fn) !=
      analyzer.callStack.end()) {
    analyzer.report(DiagId::sema_recursion, e->getRange(), {fn->name})
        .note(DiagId::note_sema_declared_here, fn->nameRange, {fn->name});
    return ExprInfo();
  }
  // Checking a call checks the callee's body inside this frame, several KB of
  // stack per level: bound the nesting well below what overflows 8 MB.
  if (analyzer.callStack.size() >= kMaxCallDepth) {
    analyzer.report(DiagId::sema_call_too_deep, e->getRange(), {kMaxCallDepth})
        .note(DiagId::note_sema_hint, SourceRange(),
              {"merge small functions, or compute the chain in a loop"});
    return ExprInfo();
  }
  if (analyzer.stackUsed() > analyzer.stackBudget) {
    analyzer
        .report(DiagId::sema_call_stack_exhausted, e->getRange(),
                {analyzer.callStack.size() + 1})
        .note(DiagId::note_sema_hint, SourceRange(),
              {"split long expressions with `let`s, or merge small functions"});
    return ExprInfo();
  }
  // Instances are per call site: a call tree that doubles at every level
  // would explode, so the number per specialisation is bounded.
  if (++analyzer.instanceCount > kMaxInstances) {
    if (analyzer.instanceCount == kMaxInstances + 1)
      analyzer.report(DiagId::sema_too_many_instances, e->getRange(), {kMaxInstances});
    return ExprInfo();
  }
  auto inst = std::make_unique<FunctionInstance>();
  inst->decl = fn;
  inst->module = fnModule.module;
  inst->parent = &instance;
  inst->callSite = e;
  size_t before = analyzer.sink ? analyzer.sink->size() : 0;
  analyzer.callStack.push_back(fn);
  BodyChecker callee(analyzer, *inst, fnModule, spec);
  bool ok = callee.checkFunction(args, ranges);
  analyzer.callStack.pop_back();
  if (analyzer.sink) {
    // Point from errors inside the callee back to this call. A deep chain
    // lists its innermost calls and, in the last slot, the outermost one.
    for (size_t i = before; i < analyzer.sink->size(); ++i) {
      Diagnostic &d = (*analyzer.sink)[i];
      DiagnosticNote note{
          DiagId::note_sema_called_from,
          formatDiagnostic(diagFormat(DiagId::note_sema_called_from),
                           {fn->name}),
          e->getRange()};
      size_t chain = std::count_if(
          d.notes.begin(), d.notes.end(), [](const DiagnosticNote &n) {
            return n.id == DiagId::note_sema_called_from;
          });
      if (chain >= kMaxCallNotes)
        d.notes.back() = std::move(note);
      else
        d.notes.push_back(std::move(note));
    }
  }
  ExprInfo info;
  if (ok)
    info.type = inst->returnType;
  instance.calls[e] = std::move(inst);
  return info;
}

bool BodyChecker::checkFunction(const std::vector<ExprInfo> &args,
                                const std::vector<SourceRange> &argRanges) {
  const ast::FunctionDecl *fn = instance.decl;
  pushScope();
  bool ok = true;
  for (size_t i = 0; i < fn->params.size(); ++i) {
    const ast::Param *p = fn->params[i];
    VarInfo v;
    v.type = args[i].type;
    if (p->isConst) {
      if (!args[i].value) {
        analyzer.report(DiagId::sema_not_constant, argRanges[i],
                        {"argument `" + p->name + "` of `" + fn->name + "`"});
        ok = false;
      }
      v.value = args[i].value;
    }
    if (const ast::TypeRef *t = p->type) {
      std::optional<ScalarKind> elem = parseScalarKind(t->elementName);
      if (!elem) {
        reportUnknownType(t->elementName, t->elementRange);
        ok = false;
        continue;
      }
      const Type &a = args[i].type;
      bool match = a.isValue() && a.isPointerLike() == t->isPointer &&
                   a.rank() == t->dims.size() &&
                   (a.elem() == *elem || (args[i].isUntypedLiteral && !t->isPointer));
      for (size_t d = 0; match && d < t->dims.size(); ++d) {
        const ast::Expr *dim = t->dims[d];
        auto *name = ast::dyn_cast<ast::NameExpr>(dim);
        if (name && !lookupLocal(name->name) && !module.names.count(name->name)) {
          VarInfo sv;
          sv.type = Type::scalar(ScalarKind::I32);
          sv.value = ConstValue::integer(a.shape()[d]);
          declare(name->name, name->getRange(), {NameBinding::Kind::ShapeVar, name, name->name},
                  name, sv, false);
        }
        ExprInfo di = checkExpr(dim);
        match = di.value && di.value->getInt() == a.shape()[d];
      }
      if (!match) {
        analyzer.report(DiagId::sema_arg_type, argRanges[i],
                        {p->name, fn->name, "`" + analyzer.sourceText(t->getRange()) + "`",
                         a.str()});
        ok = false;
        continue;
      }
      v.type = t->isPointer ? Type::pointerBlock(*elem, a.shape()) : Type::block(*elem, a.shape());
      if (v.value)
        v.value = isFloat(*elem) ? ConstValue::floating(v.value->getFloat()) : *v.value;
    }
    instance.paramTypes.push_back(v.type);
    bindParam(p, v);
  }
  if (!ok) {
    popScope();
    return false;
  }
  if (fn->body)
    checkBlock(fn->body);
  instance.returnType = fnReturn.value_or(Type::voidType());
  if (fn->returnType) {
    Type declared = resolveType(fn->returnType);
    bool narrowing = false;
    ExprInfo got;
    got.type = instance.returnType;
    if (!declared.isError() && !instance.returnType.isError() &&
        (!instance.returnType.isValue() || !fitsInto(got, declared, narrowing) ||
         narrowing)) {
      analyzer.report(DiagId::sema_return_type,
                      fnReturn ? fnReturnRange : fn->returnType->getRange(),
                      {fn->name, instance.returnType.str(),
                       "it is declared to return `" + declared.str() + "`"});
    }
    instance.returnType = declared;
  }
  popScope();
  return true;
}

/// Most iterations a `static_range` may have: each one is a copy of the body
/// (--blk-unroll-static-loops), so a large count would stall the compiler.
constexpr int64_t kMaxStaticTrips = 1024;

bool BodyChecker::checkStaticTripCount(const ast::CallExpr *call) {
  std::vector<int64_t> b;
  for (const ast::Argument *a : call->args)
    b.push_back(instance.lookup(a->value)->value->getInt());
  int64_t lo = b.size() == 1 ? 0 : b[0], hi = b.size() == 1 ? b[0] : b[1];
  int64_t step = b.size() == 3 ? b[2] : 1;
  // Computed in 128 bits: bounds may be any i64.
  __int128 span = step > 0 ? __int128(hi) - lo : __int128(lo) - hi;
  __int128 trips = span <= 0 ? 0 : (span + (step > 0 ? step : -step) - 1) / (step > 0 ? step : -step);
  if (trips <= kMaxStaticTrips)
    return true;
  analyzer.report(DiagId::sema_static_range_too_long, call->getRange(),
                  {int64_t(trips > INT64_MAX ? INT64_MAX : trips), kMaxStaticTrips})
      .note(DiagId::note_sema_hint, SourceRange(),
            {"use `range(…)` for a loop that stays a loop"});
  return false;
}

void BodyChecker::checkFor(const ast::ForStmt *s) {
  auto *call = ast::dyn_cast<ast::CallExpr>(s->iterable);
  auto *callee = call ? ast::dyn_cast<ast::NameExpr>(call->callee) : nullptr;
  bool isRange = callee && (callee->name == "range" || callee->name == "static_range") &&
                 !lookupLocal(callee->name) && !module.names.count(callee->name);
  Type ivType = Type::error();
  if (!isRange) {
    checkExpr(s->iterable);
    analyzer.report(DiagId::sema_for_iterable, s->iterable->getRange());
  } else {
    instance.names[callee] = {NameBinding::Kind::Builtin, nullptr, callee->name};
    ExprInfo fnInfo;
    fnInfo.type = Type::function();
    record(callee, fnInfo);
    bool isStatic = callee->name == "static_range";
    bool ok = !call->args.empty() && call->args.size() <= 3;
    ScalarKind iv = ScalarKind::I32;
    bool allLiteral = true;
    for (const ast::Argument *a : call->args) {
      ExprInfo info = checkExpr(a->value);
      if (info.type.isError()) {
        ok = false;
        continue;
      }
      if (a->isNamed() || !info.type.isScalar() || !info.type.isIntLike()) {
        analyzer.report(DiagId::sema_arg_type, a->getRange(),
                        {a->isNamed() ? a->name : "bound", callee->name,
                         "a positional scalar integer", info.type.str()});
        ok = false;
        continue;
      }
      if (isStatic && !requireConstInt(a->value, info, "a `static_range` bound"))
        ok = false;
      if (!info.isUntypedLiteral)
        iv = allLiteral ? info.type.elem() : promote(iv, info.type.elem());
      allLiteral &= info.isUntypedLiteral;
    }
    if (call->args.empty() || call->args.size() > 3)
      analyzer.report(DiagId::sema_arg_count, call->getRange(),
                      {callee->name, "1 to 3", call->args.size()});
    if (call->args.size() == 3) {
      const ExprInfo *step = instance.lookup(call->args[2]->value);
      if (step && step->value && step->value->getInt() == 0) {
        analyzer.report(DiagId::sema_const_eval, call->args[2]->getRange(),
                        {"the step of `" + callee->name + "` cannot be zero"});
        ok = false;
      }
    }
    if (ok && isStatic)
      ok = checkStaticTripCount(call);
    if (ok)
      ivType = Type::scalar(iv == ScalarKind::I1 ? ScalarKind::I32 : iv);
    ExprInfo callInfo;
    callInfo.type = ivType;
    record(call, callInfo);
  }
  pushScope();
  VarInfo v;
  v.type = ivType;
  declare(s->var, s->varRange, {NameBinding::Kind::LoopVar, s, s->var}, s, v, false);
  ++loopDepth;
  checkBlock(s->body);
  --loopDepth;
  popScope();
}

Type BodyChecker::resolveType(const ast::TypeRef *t) {
  if (!t)
    return Type::error();
  std::optional<ScalarKind> elem = parseScalarKind(t->elementName);
  if (!elem) {
    reportUnknownType(t->elementName, t->elementRange);
    return Type::error();
  }
  analyzer.checkTypeTarget(*elem, t->elementRange);
  Shape shape;
  for (const ast::Expr *d : t->dims) {
    ExprInfo info = checkExpr(d);
    std::optional<int64_t> v = requireConstInt(d, info, "a block dimension");
    if (!v)
      return Type::error();
    shape.push_back(*v);
  }
  if (!shape.empty() && !checkShape(shape, t->getRange(), t->dims.size() == 1 ? t->dims[0] : nullptr))
    return Type::error();
  return t->isPointer ? Type::pointerBlock(*elem, shape) : Type::block(*elem, shape);
}

std::optional<int64_t> BodyChecker::requireConstInt(const ast::Expr *e, const ExprInfo &info,
                                                    const std::string &what) {
  if (info.type.isError())
    return std::nullopt;
  if (!info.value || !info.type.isScalar()) {
    DiagBuilder d = analyzer.report(DiagId::sema_not_constant, e->getRange(), {what});
    addNonConstNote(d, e);
    return std::nullopt;
  }
  if (info.value->isFloat()) {
    analyzer.report(DiagId::sema_const_eval, e->getRange(),
                    {what + " must be an integer, found `" + info.value->str() + "`"});
    return std::nullopt;
  }
  return info.value->getInt();
}

bool BodyChecker::checkShape(const Shape &shape, SourceRange range, const ast::Expr *origin) {
  if (shape.empty() || shape.size() > kMaxRank) {
    analyzer.report(DiagId::sema_block_rank, range, {formatShape(shape), shape.size()});
    return false;
  }
  for (int64_t d : shape) {
    if (!isPowerOfTwo(d)) {
      DiagBuilder db = analyzer.report(DiagId::sema_dim_not_pow2, range, {d});
      if (origin)
        addValueNotes(db, origin);
      return false;
    }
  }
  if (numElements(shape) > kMaxElements) {
    analyzer.report(DiagId::sema_block_too_large, range,
                    {formatShape(shape), numElements(shape)});
    return false;
  }
  return checkElementsPerThread(shape, range);
}

/// What one thread holds of a block in this specialisation: refused past
/// kMaxElementsPerThread, warned about (once per body) past
/// kWarnElementsPerThread, since ptxas time grows steeply with it.
bool BodyChecker::checkElementsPerThread(const Shape &shape, SourceRange range) {
  if (!spec.spec)
    return true;
  int64_t threads = 32 * spec.spec->numWarps;
  int64_t perThread = (numElements(shape) + threads - 1) / threads;
  if (perThread <= kWarnElementsPerThread)
    return true;
  std::string where = spec.spec->label.empty() ? "the `-D` values" : spec.spec->label;
  if (perThread > kMaxElementsPerThread) {
    analyzer
        .report(DiagId::sema_block_per_thread_limit, range,
                {formatShape(shape), perThread, spec.spec->numWarps, where, kMaxElementsPerThread})
        .note(DiagId::note_sema_hint, SourceRange(),
              {"use more warps, or a smaller block and a loop over the rest"});
    return false;
  }
  if (!perThreadWarned) {
    perThreadWarned = true;
    analyzer
        .report(DiagId::sema_block_per_thread, range,
                {formatShape(shape), perThread, spec.spec->numWarps, where})
        .note(DiagId::note_sema_hint, SourceRange(),
              {"use more warps, or a smaller block and a loop over the rest"});
  }
  return true;
}

void BodyChecker::addValueNotes(DiagBuilder &d, const ast::Expr *e) {
  if (!spec.spec || !spec.kernel)
    return;
  std::set<std::string> seen;
  std::function<void(const ast::Node *, int)> walk = [&](const ast::Node *n, int depth) {
    if (!n || depth > 16)
      return;
    if (auto *name = ast::dyn_cast<ast::NameExpr>(n)) {
      const NameBinding *b = instance.binding(name);
      if (!b)
        return;
      if (b->kind == NameBinding::Kind::Local) {
        auto *let = ast::cast<ast::LetStmt>(b->decl);
        if (let->binding != ast::BindingKind::Var)
          walk(let->init, depth + 1);
        return;
      }
      if (b->kind != NameBinding::Kind::Param || !seen.insert(b->name).second)
        return;
      const Specialization &s = *spec.spec;
      auto cv = std::find_if(s.config.begin(), s.config.end(),
                             [&](const ConfigValue &c) { return c.name == b->name; });
      bool isKernelConst = cv != s.config.end() &&
                           std::any_of(spec.kernel->params.begin(), spec.kernel->params.end(),
                                       [&](const KernelParam &p) { return p.decl == b->decl; });
      if (!isKernelConst)
        return;
      if (std::count(s.fromDefines.begin(), s.fromDefines.end(), b->name)) {
        d.note(DiagId::note_sema_define_value, SourceRange(), {b->name, cv->value.str()});
        return;
      }
      if (!s.configAttr)
        return;
      for (const ast::Argument *a : s.configAttr->args)
        if (a->name == b->name)
          d.note(DiagId::note_sema_config_value, a->getRange(), {b->name, cv->value.str()});
      return;
    }
    ast::forEachChild(n, [&](const ast::Node *c) { walk(c, depth); });
  };
  walk(e, 0);
}

void BodyChecker::addNonConstNote(DiagBuilder &d, const ast::Expr *e) {
  std::string why;
  SourceRange where;
  std::function<void(const ast::Node *, int)> walk = [&](const ast::Node *n, int depth) {
    if (!n || !why.empty() || depth > 16)
      return;
    if (auto *name = ast::dyn_cast<ast::NameExpr>(n)) {
      const NameBinding *b = instance.binding(name);
      const VarInfo *v = b ? instance.var(b->decl) : nullptr;
      if (!b || (v && v->value))
        return;
      if (b->kind == NameBinding::Kind::Param)
        why = "the runtime parameter `" + name->name + "`";
      else if (b->kind == NameBinding::Kind::LoopVar)
        why = "the loop variable `" + name->name + "`";
      else if (b->kind == NameBinding::Kind::Local &&
               ast::cast<ast::LetStmt>(b->decl)->binding == ast::BindingKind::Var)
        why = "the variable `" + name->name + "`";
      else if (b->kind == NameBinding::Kind::Local)
        return walk(ast::cast<ast::LetStmt>(b->decl)->init, depth + 1);
      else
        return;
      where = name->getRange();
      return;
    }
    if (auto *call = ast::dyn_cast<ast::CallExpr>(n)) {
      const NameBinding *b = instance.binding(call->callee);
      if (b && b->kind == NameBinding::Kind::Builtin &&
          (b->name == "program_id" || b->name == "num_programs" || b->name == "load" ||
           b->name.rfind("atomic_", 0) == 0)) {
        why = "`" + b->name + "`";
        where = call->getRange();
        return;
      }
    }
    ast::forEachChild(n, [&](const ast::Node *c) { walk(c, depth); });
  };
  walk(e, 0);
  if (!why.empty())
    d.note(DiagId::note_sema_not_constant_because, where, {why});
}

} // namespace blk::sema::detail
