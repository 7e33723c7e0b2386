//===- CheckExpr.cpp - types, shapes and constants of expressions ---------===//
//
// Expects names in scope; guarantees every visited Expr gets an ExprInfo in
// the instance (Type::error() when wrong, after one diagnostic; an operand in
// error silences the rules of its parent). Implements §6 operators with
// NumPy broadcasting and Triton promotion, `as` casts, `x[:, None]` indexing,
// and constant folding (ConstValue.h).
// Tests: tests/lit/sema/fail_sema_shape_mismatch.blk, fail_sema_pointer_arith.blk, …
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include "blk/Sema/Suggest.h"

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace blk::sema::detail {

bool isBuiltinName(const std::string &name); // Builtins.cpp
std::vector<std::string> builtinNames();      // Builtins.cpp

ConstOp toConstOp(ast::BinaryOp op) {
  using B = ast::BinaryOp;
  switch (op) {
  case B::LogicalOr: return ConstOp::Or;
  case B::LogicalAnd: return ConstOp::And;
  case B::BitOr: return ConstOp::BitOr;
  case B::BitXor: return ConstOp::BitXor;
  case B::BitAnd: return ConstOp::BitAnd;
  case B::Eq: return ConstOp::Eq;
  case B::Ne: return ConstOp::Ne;
  case B::Lt: return ConstOp::Lt;
  case B::Le: return ConstOp::Le;
  case B::Gt: return ConstOp::Gt;
  case B::Ge: return ConstOp::Ge;
  case B::Shl: return ConstOp::Shl;
  case B::Shr: return ConstOp::Shr;
  case B::Add: return ConstOp::Add;
  case B::Sub: return ConstOp::Sub;
  case B::Mul: return ConstOp::Mul;
  case B::Div: return ConstOp::Div;
  case B::Rem: return ConstOp::Rem;
  }
  return ConstOp::Add;
}

bool isComparison(ast::BinaryOp op) {
  return op >= ast::BinaryOp::Eq && op <= ast::BinaryOp::Ge;
}

ExprInfo BodyChecker::record(const ast::Expr *e, ExprInfo info) {
  instance.exprs[e] = info;
  return info;
}

ExprInfo BodyChecker::checkExpr(const ast::Expr *e) {
  if (!e)
    return ExprInfo();
  return record(e, checkExprImpl(e));
}

ExprInfo BodyChecker::checkExprImpl(const ast::Expr *e) {
  ExprInfo info;
  switch (e->getKind()) {
  case ast::NodeKind::IntLiteral: {
    uint64_t v = ast::cast<ast::IntLiteralExpr>(e)->value;
    info.type = Type::scalar(v <= uint64_t(INT32_MAX) ? ScalarKind::I32 : ScalarKind::I64);
    info.value = ConstValue::integer(int64_t(v));
    info.isUntypedLiteral = true;
    return info;
  }
  case ast::NodeKind::FloatLiteral:
    info.type = Type::scalar(ScalarKind::F32);
    info.value = ConstValue::floating(ast::cast<ast::FloatLiteralExpr>(e)->value);
    info.isUntypedLiteral = true;
    return info;
  case ast::NodeKind::BoolLiteral:
    info.type = Type::scalar(ScalarKind::I1);
    info.value = ConstValue::boolean(ast::cast<ast::BoolLiteralExpr>(e)->value);
    return info;
  case ast::NodeKind::StringLiteral:
    info.type = Type::string();
    return info;
  case ast::NodeKind::NoneLiteral:
  case ast::NodeKind::Slice:
    analyzer.report(DiagId::sema_invalid_index, e->getRange(),
                    {"`None` and `:` are only allowed inside `[…]`"});
    return info;
  case ast::NodeKind::List:
    for (const ast::Expr *x : ast::cast<ast::ListExpr>(e)->elements)
      checkExpr(x);
    info.type = Type::shapeList();
    return info;
  case ast::NodeKind::Name: return checkName(ast::cast<ast::NameExpr>(e));
  case ast::NodeKind::Member: return checkMember(ast::cast<ast::MemberExpr>(e));
  case ast::NodeKind::Unary: return checkUnary(ast::cast<ast::UnaryExpr>(e));
  case ast::NodeKind::Binary: return checkBinary(ast::cast<ast::BinaryExpr>(e));
  case ast::NodeKind::Cast: return checkCast(ast::cast<ast::CastExpr>(e));
  case ast::NodeKind::Call: return checkCall(ast::cast<ast::CallExpr>(e));
  case ast::NodeKind::Index: return checkIndex(ast::cast<ast::IndexExpr>(e));
  default: return info;
  }
}

std::vector<std::string> BodyChecker::visibleNames() const {
  std::vector<std::string> names = builtinNames();
  for (const auto &scope : scopes)
    for (const auto &entry : scope)
      names.push_back(entry.first);
  for (const auto &entry : module.names)
    names.push_back(entry.first);
  for (unsigned k = 0; k <= unsigned(ScalarKind::F8E5M2); ++k)
    names.push_back(std::string(spelling(ScalarKind(k))));
  names.push_back("inf");
  names.push_back("nan");
  // Sorted: the maps' order is arbitrary, and ties go to the first.
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  return names;
}

void BodyChecker::reportUnknownType(const std::string &name, SourceRange range) {
  DiagBuilder d = analyzer.report(DiagId::sema_unknown_type, range, {name});
  if (name == "constexpr") { // Triton's `BLOCK: tl.constexpr`
    d.note(DiagId::note_sema_hint, SourceRange(),
           {"compile-time parameters are written `const BLOCK: i32` (or `const BLOCK`)"});
    return;
  }
  std::vector<std::string> types;
  for (unsigned k = 0; k <= unsigned(ScalarKind::F8E5M2); ++k)
    types.push_back(std::string(spelling(ScalarKind(k))));
  types.push_back("bool");
  std::optional<std::string> near = blkTypeFor(name);
  if (!near)
    near = closestName(name, types);
  if (near)
    d.note(DiagId::note_sema_hint, SourceRange(), {didYouMean(*near)});
}

/// The note for a name that resolves nowhere: the blk type for a foreign
/// type name, `import std.X;` for a standard module used without importing
/// it, else the closest visible name.
static void noteUnknownName(DiagBuilder &d, const std::string &name,
                            const std::vector<std::string> &visible,
                            const std::vector<std::string> &stdlibDirs) {
  if (std::optional<std::string> type = blkTypeFor(name)) {
    d.note(DiagId::note_sema_hint, SourceRange(), {didYouMean(*type)});
    return;
  }
  for (const std::string &dir : stdlibDirs)
    if (std::filesystem::exists(dir + "/std/" + name + ".blk")) {
      d.note(DiagId::note_sema_hint, SourceRange(),
             {"`" + name + "` is the standard module `std." + name + "`: add `import std." + name +
              ";`"});
      return;
    }
  if (std::optional<std::string> near = closestName(name, visible))
    d.note(DiagId::note_sema_hint, SourceRange(), {didYouMean(*near)});
}

ExprInfo BodyChecker::checkName(const ast::NameExpr *e) {
  ExprInfo info;
  if (Symbol *s = lookupLocal(e->name)) {
    s->used = true;
    instance.names[e] = s->binding;
    if (const VarInfo *v = instance.var(s->decl)) {
      info.type = v->type;
      info.value = v->value;
      info.isUntypedLiteral = v->isUntypedLiteral;
    }
    return info;
  }
  if (auto it = module.names.find(e->name); it != module.names.end()) {
    const NameBinding &b = it->second;
    instance.names[e] = b;
    if (b.kind == NameBinding::Kind::GlobalConst) {
      auto c = analyzer.globalConsts.find(ast::cast<ast::ConstDecl>(b.decl));
      if (c == analyzer.globalConsts.end()) {
        analyzer.report(DiagId::sema_unknown_name, e->getRange(), {e->name})
            .note(DiagId::note_sema_declared_here, b.decl->getRange(), {e->name});
        return info;
      }
      info.type = c->second.type;
      info.value = c->second.value;
      info.isUntypedLiteral = c->second.isUntypedLiteral;
      return info;
    }
    info.type = b.kind == NameBinding::Kind::Module ? Type::module() : Type::function();
    return info;
  }
  if (e->name == "inf" || e->name == "nan") {
    instance.names[e] = {NameBinding::Kind::Builtin, nullptr, e->name};
    info.type = Type::scalar(ScalarKind::F32);
    info.value = ConstValue::floating(e->name == "inf" ? HUGE_VAL : NAN);
    info.isUntypedLiteral = true;
    return info;
  }
  if (std::optional<ScalarKind> k = parseScalarKind(e->name)) {
    instance.names[e] = {NameBinding::Kind::DType, nullptr, e->name};
    analyzer.checkTypeTarget(*k, e->getRange());
    info.type = Type::dtype(*k);
    return info;
  }
  if (isBuiltinName(e->name)) {
    instance.names[e] = {NameBinding::Kind::Builtin, nullptr, e->name};
    info.type = Type::function();
    return info;
  }
  // A declaration dropped for a syntax error already has its diagnostic.
  if (module.module && module.module->brokenNames.count(e->name))
    return info;
  DiagBuilder d = analyzer.report(DiagId::sema_unknown_name, e->getRange(), {e->name});
  noteUnknownName(d, e->name, visibleNames(), analyzer.options.stdlibDirs);
  return info;
}

/// True if `name` resolves nowhere (Triton's `tl.` / `triton.` prefixes).
static bool isTritonPrefix(const ast::Expr *base) {
  auto *n = ast::dyn_cast<ast::NameExpr>(base);
  return n && (n->name == "tl" || n->name == "triton");
}

ExprInfo BodyChecker::checkMember(const ast::MemberExpr *e) {
  ExprInfo info;
  if (isTritonPrefix(e->base) && !lookupLocal(ast::cast<ast::NameExpr>(e->base)->name) &&
      !module.names.count(ast::cast<ast::NameExpr>(e->base)->name)) {
    std::string prefix = ast::cast<ast::NameExpr>(e->base)->name;
    analyzer.report(DiagId::sema_unknown_name, e->base->getRange(), {prefix})
        .note(DiagId::note_sema_hint, SourceRange(),
              {"blk built-ins need no prefix: write `" + e->member + "` instead of `" + prefix +
               "." + e->member + "`"});
    return info;
  }
  ExprInfo base = checkExpr(e->base);
  if (base.type.isError())
    return info;
  const NameBinding *b = instance.binding(e->base);
  if (base.type.kind() != Type::Kind::Module || !b) {
    DiagBuilder d = analyzer.report(DiagId::sema_no_members, e->getRange(),
                                    {e->member, base.type.str()});
    if (e->member == "to")
      d.note(DiagId::note_sema_hint, SourceRange(), {"convert with `x as T`, e.g. `x as f16`"});
    return info;
  }
  auto imp = module.imports.find(ast::cast<ast::ImportDecl>(b->decl));
  if (imp == module.imports.end() || !imp->second)
    return info; // the failed import was reported
  ModuleScope &target = *imp->second;
  auto it = target.names.find(e->member);
  if (it == target.names.end() || it->second.kind == NameBinding::Kind::Module) {
    DiagBuilder d = analyzer.report(DiagId::sema_unknown_member, e->memberRange,
                                    {b->name, e->member});
    std::vector<std::string> members;
    for (const auto &entry : target.names)
      if (entry.second.kind != NameBinding::Kind::Module)
        members.push_back(entry.first);
    std::sort(members.begin(), members.end());
    if (std::optional<std::string> near = closestName(e->member, members))
      d.note(DiagId::note_sema_hint, SourceRange(), {didYouMean(*near)});
    return info;
  }
  instance.names[e] = it->second;
  if (it->second.kind == NameBinding::Kind::GlobalConst) {
    auto c = analyzer.globalConsts.find(ast::cast<ast::ConstDecl>(it->second.decl));
    if (c != analyzer.globalConsts.end()) {
      info.type = c->second.type;
      info.value = c->second.value;
      info.isUntypedLiteral = c->second.isUntypedLiteral;
    }
    return info;
  }
  info.type = Type::function();
  return info;
}

bool BodyChecker::rejectFp8(const std::string &what, const Type &type, SourceRange range) {
  if (!type.isValue() || type.isPointerLike() || !isFp8(type.elem()))
    return false;
  analyzer.report(DiagId::sema_fp8_compute, range, {what, type.str()})
      .note(DiagId::note_sema_hint, SourceRange(),
            {"convert it first: `x as f32` (or `as f16`), and back with `as " +
             std::string(spelling(type.elem())) + "` to store it"});
  return true;
}

ExprInfo BodyChecker::checkUnary(const ast::UnaryExpr *e) {
  ExprInfo in = checkExpr(e->operand);
  ExprInfo info;
  if (in.type.isError())
    return info;
  std::string op(ast::spelling(e->op));
  if (e->op == ast::UnaryOp::Not && in.type.isBlock()) {
    analyzer.report(DiagId::sema_block_condition, e->getRange(), {"`!`", in.type.str()})
        .note(DiagId::note_sema_use_where, SourceRange())
        .note(DiagId::note_sema_hint, SourceRange(), {"for an elementwise not, write `~x` or `x == 0`"});
    return info;
  }
  bool ok = in.type.isValue() && !in.type.isPointerLike();
  if (e->op == ast::UnaryOp::Not)
    ok = ok && in.type.isScalar() && in.type.isIntLike();
  if (e->op == ast::UnaryOp::BitNot)
    ok = ok && in.type.isIntLike();
  if (!ok) {
    analyzer.report(DiagId::sema_invalid_operand, e->getRange(), {op, in.type.str()});
    return info;
  }
  if (rejectFp8("operator `" + op + "`", in.type, e->getRange()))
    return info;
  info.type = e->op == ast::UnaryOp::Not ? in.type.withElem(ScalarKind::I1) : in.type;
  info.operandElem = in.type.elem();
  info.isUntypedLiteral = in.isUntypedLiteral;
  if (in.value) {
    ConstValue v = *in.value;
    if (e->op == ast::UnaryOp::Not && !v.isBool())
      v = ConstValue::boolean(v.getBool());
    ConstUnaryOp cop = e->op == ast::UnaryOp::Neg   ? ConstUnaryOp::Neg
                       : e->op == ast::UnaryOp::Not ? ConstUnaryOp::Not
                                                    : ConstUnaryOp::BitNot;
    ConstResult r = evalUnary(cop, v);
    if (!isOk(r)) {
      analyzer.report(DiagId::sema_const_eval, e->getRange(), {errorOf(r)});
      return ExprInfo();
    }
    info.value = info.isUntypedLiteral ? valueOf(r) : convertConst(valueOf(r), info.type.elem());
  }
  return info;
}

ExprInfo BodyChecker::checkBinary(const ast::BinaryExpr *e) {
  ExprInfo l = checkExpr(e->lhs);
  ExprInfo r = checkExpr(e->rhs);
  return binaryResult(e->op, l, r, e->opRange, e->getRange(), e->lhs, e->rhs);
}

/// Suggests `x[:, None]` when a rank-1 operand meets a rank-2 one whose first
/// dimension it matches (the classic mask trap).
static std::string broadcastHint(const Shape &a, const Shape &b) {
  const Shape &one = a.size() == 1 ? a : b;
  const Shape &two = a.size() == 1 ? b : a;
  if (one.size() != 1 || two.size() != 2 || one[0] != two[0])
    return "";
  return "shapes are aligned from the right; index the " + formatShape(one) +
         " operand as `x[:, None]` (shape [" + std::to_string(one[0]) +
         ", 1]) to pair it with the first dimension";
}

ExprInfo BodyChecker::binaryResult(ast::BinaryOp op, const ExprInfo &l, const ExprInfo &r,
                                   SourceRange opRange, SourceRange whole,
                                   const ast::Expr *lhsExpr, const ast::Expr *rhsExpr) {
  (void)opRange;
  ExprInfo info;
  if (l.type.isError() || r.type.isError())
    return info;
  std::string opText(ast::spelling(op));
  if (!l.type.isValue() || !r.type.isValue()) {
    analyzer.report(DiagId::sema_invalid_operands, whole, {opText, l.type.str(), r.type.str()});
    return info;
  }
  Shape ls = l.type.shape(), rs = r.type.shape();
  if (op == ast::BinaryOp::LogicalAnd || op == ast::BinaryOp::LogicalOr) {
    const ExprInfo &blk = l.type.isBlock() ? l : r;
    if (blk.type.isBlock()) {
      analyzer.report(DiagId::sema_block_condition, (l.type.isBlock() ? lhsExpr : rhsExpr)->getRange(),
                      {"`" + opText + "`", blk.type.str()})
          .note(DiagId::note_sema_use_where, SourceRange())
          .note(DiagId::note_sema_hint, SourceRange(),
                {std::string("to combine masks elementwise, use `") +
                 (op == ast::BinaryOp::LogicalAnd ? "&" : "|") + "`"});
      return info;
    }
    if (!l.type.isBoolLike() || !r.type.isBoolLike()) {
      analyzer.report(DiagId::sema_invalid_operands, whole, {opText, l.type.str(), r.type.str()});
      return info;
    }
    info.type = Type::scalar(ScalarKind::I1);
    info.operandElem = ScalarKind::I1;
  } else {
    std::optional<Shape> shape = broadcastShapes(ls, rs);
    if (!shape) {
      DiagBuilder d = analyzer.report(DiagId::sema_shape_mismatch, whole,
                                      {opText, formatShape(ls), formatShape(rs)});
      d.label(lhsExpr->getRange(), "shape " + formatShape(ls));
      d.label(rhsExpr->getRange(), "shape " + formatShape(rs));
      std::string hint = broadcastHint(ls, rs);
      if (!hint.empty())
        d.note(DiagId::note_sema_hint, SourceRange(), {hint});
      return info;
    }
    bool lp = l.type.isPointerLike(), rp = r.type.isPointerLike();
    if (lp || rp) {
      const ExprInfo &ptr = lp ? l : r, &off = lp ? r : l;
      bool cmp = (op == ast::BinaryOp::Eq || op == ast::BinaryOp::Ne) && lp && rp;
      if (cmp) {
        info.type = Type::block(ScalarKind::I1, *shape);
        return info;
      }
      std::string why;
      if (lp && rp)
        why = "`" + opText + "` on two pointers";
      else if (op != ast::BinaryOp::Add && !(op == ast::BinaryOp::Sub && lp))
        why = "`" + opText + "` on a pointer; only `ptr + int` and `ptr - int` are allowed";
      else if (!off.type.isIntLike())
        why = "a pointer offset must be an integer, found `" + off.type.str() + "`";
      if (!why.empty()) {
        analyzer.report(DiagId::sema_pointer_arith, whole, {why});
        return info;
      }
      info.type = Type::pointerBlock(ptr.type.elem(), *shape);
      info.operandElem = off.type.elem();
      return info;
    }
    if (rejectFp8("operator `" + opText + "`", l.type, lhsExpr->getRange()) ||
        rejectFp8("operator `" + opText + "`", r.type, rhsExpr->getRange()))
      return info;
    ScalarKind elem = promoteWithLiterals(l.type.elem(), l.isUntypedLiteral, r.type.elem(),
                                          r.isUntypedLiteral);
    bool bitwise = op == ast::BinaryOp::BitAnd || op == ast::BinaryOp::BitOr ||
                   op == ast::BinaryOp::BitXor || op == ast::BinaryOp::Shl ||
                   op == ast::BinaryOp::Shr;
    if (bitwise && (!l.type.isIntLike() || !r.type.isIntLike())) {
      analyzer.report(DiagId::sema_invalid_operands, whole, {opText, l.type.str(), r.type.str()});
      return info;
    }
    info.operandElem = elem;
    info.type = Type::block(isComparison(op) ? ScalarKind::I1 : elem, *shape);
    info.isUntypedLiteral = l.isUntypedLiteral && r.isUntypedLiteral && !isComparison(op);
  }
  if (l.value && r.value) {
    ConstValue a = *l.value, b = *r.value;
    if (info.operandElem != ScalarKind::I1 && !info.isUntypedLiteral) {
      a = convertConst(a, info.operandElem);
      b = convertConst(b, info.operandElem);
    } else if (isFloat(info.operandElem)) {
      a = ConstValue::floating(a.getFloat());
      b = ConstValue::floating(b.getFloat());
    }
    ConstResult res = evalBinary(toConstOp(op), a, b);
    if (!isOk(res)) {
      analyzer.report(DiagId::sema_const_eval, whole, {errorOf(res)});
      return ExprInfo();
    }
    info.value = info.isUntypedLiteral || info.type.elem() == ScalarKind::I1
                     ? valueOf(res)
                     : convertConst(valueOf(res), info.type.elem());
  }
  return info;
}

ExprInfo BodyChecker::checkCast(const ast::CastExpr *e) {
  ExprInfo in = checkExpr(e->operand);
  Type target = resolveType(e->type);
  ExprInfo info;
  if (in.type.isError() || target.isError())
    return info;
  bool ok = in.type.isValue() && target.isScalarLike() &&
            in.type.isPointerLike() == target.isPointerLike();
  if (!ok) {
    analyzer.report(DiagId::sema_invalid_cast, e->getRange(), {in.type.str(), target.str()});
    return info;
  }
  info.type = in.type.isPointerLike() ? Type::pointerBlock(target.elem(), in.type.shape())
                                      : Type::block(target.elem(), in.type.shape());
  info.operandElem = in.type.elem();
  if (in.value && !target.isPointerLike())
    info.value = convertConst(*in.value, target.elem());
  return info;
}

ExprInfo BodyChecker::checkIndex(const ast::IndexExpr *e) {
  ExprInfo base = checkExpr(e->base);
  ExprInfo info;
  for (const ast::Expr *idx : e->indices) {
    if (ast::isa<ast::SliceExpr>(idx) || ast::isa<ast::NoneLiteralExpr>(idx)) {
      ExprInfo v;
      v.type = Type::voidType();
      record(idx, v);
    } else {
      checkExpr(idx);
    }
  }
  if (base.type.isError())
    return info;
  if (!base.type.isValue()) {
    analyzer.report(DiagId::sema_invalid_index, e->getRange(),
                    {"`" + base.type.str() + "` cannot be indexed"});
    return info;
  }
  Shape in = base.type.shape(), out;
  size_t next = 0;
  for (const ast::Expr *idx : e->indices) {
    if (ast::isa<ast::NoneLiteralExpr>(idx)) {
      out.push_back(1);
      continue;
    }
    if (!ast::isa<ast::SliceExpr>(idx)) {
      analyzer.report(DiagId::sema_invalid_index, idx->getRange(),
                      {"use `:` or `None`, as in `x[:, None]`; elements of a block cannot be selected"});
      return info;
    }
    if (next == in.size()) {
      analyzer.report(DiagId::sema_invalid_index, e->getRange(),
                      {"`" + base.type.str() + "` has rank " + std::to_string(in.size()) +
                       " but the index has more `:`"});
      return info;
    }
    out.push_back(in[next++]);
  }
  for (; next < in.size(); ++next)
    out.push_back(in[next]); // implicit trailing `:`
  if (!checkShape(out, e->getRange(), nullptr))
    return info;
  info.type = base.type.withShape(out);
  return info;
}

} // namespace blk::sema::detail
