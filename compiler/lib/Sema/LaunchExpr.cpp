//===- LaunchExpr.cpp - `@grid` and `@requires` folded per specialisation ----===//
//
// Expects the expression checked in the specialisation's kernel instance
// (its const parameters have values). Guarantees the manifest's tree
// (docs/manifest.md): const values folded to `{"int": v}`, runtime integer
// parameters as `{"param": i}`, and the operators the runtime evaluates.
// `@requires` adds comparisons and `&& || !`; a constant operand of those
// is simplified away, so a condition is either constant (true: dropped;
// false: a warning naming the config) or tests an argument.
// Tests: tests/lit/sema/fail_sema_grid_expr.blk, fail_sema_requires*.blk,
// warn_sema_requires_false.blk, tests/lit/irgen/kernel-attributes.blk.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include <algorithm>
#include <functional>
#include <map>

namespace blk::sema::detail {

namespace {

/// Folds one expression of one specialisation; reports what it cannot.
class LaunchExprFolder {
public:
  LaunchExprFolder(Analyzer &a, const FunctionInstance &inst, const KernelInfo &k,
                   LaunchExprKind kind)
      : a(a), inst(inst), k(k), kind(kind) {}

  std::optional<GridNode> fold(const ast::Expr *e);

private:
  std::optional<GridNode> foldOp(std::string op, std::vector<const ast::Expr *> args);
  std::optional<GridNode> unsupported(const ast::Expr *e);
  bool forRequires() const { return kind == LaunchExprKind::Requires; }

  Analyzer &a;
  const FunctionInstance &inst;
  const KernelInfo &k;
  LaunchExprKind kind;
};

GridNode intNode(int64_t v) {
  GridNode n;
  n.intValue = v;
  return n;
}

/// `and`/`or`/`not` with a constant operand, simplified: their operands are
/// conditions (Sema types `&&`, `||` operands as booleans), so `x and 1` is `x`.
GridNode simplifyLogic(GridNode n) {
  auto isInt = [](const GridNode &g) { return g.kind == GridNode::Kind::Int; };
  if (n.op == "not" && n.args.size() == 1 && isInt(n.args[0]))
    return intNode(n.args[0].intValue == 0);
  if ((n.op != "and" && n.op != "or") || n.args.size() != 2)
    return n;
  bool isAnd = n.op == "and";
  for (size_t i = 0; i < 2; ++i) {
    if (!isInt(n.args[i]))
      continue;
    bool truth = n.args[i].intValue != 0;
    if (truth == isAnd) // `x and true`, `x or false`: x
      return std::move(n.args[1 - i]);
    return intNode(truth ? 1 : 0); // `x and false`, `x or true`
  }
  return n;
}

} // namespace

std::optional<GridNode> LaunchExprFolder::unsupported(const ast::Expr *e) {
  if (forRequires())
    a.report(DiagId::sema_requires_expr, e->getRange(),
             {"must be built from integer parameters, constants, `+ - * / %`, `cdiv`, `min`, "
              "`max`, comparisons, `&&`, `||` and `!`"});
  else
    a.report(DiagId::sema_grid_expr, e->getRange(),
             {"must be built from integer parameters, constants, `+ - * / %`, `cdiv`, "
              "`min` and `max`"});
  return std::nullopt;
}

std::optional<GridNode> LaunchExprFolder::foldOp(std::string op,
                                                 std::vector<const ast::Expr *> args) {
  GridNode n;
  n.kind = GridNode::Kind::Op;
  n.op = std::move(op);
  for (const ast::Expr *arg : args) {
    std::optional<GridNode> c = fold(arg);
    if (!c)
      return std::nullopt;
    n.args.push_back(std::move(*c));
  }
  return forRequires() ? simplifyLogic(std::move(n)) : n;
}

std::optional<GridNode> LaunchExprFolder::fold(const ast::Expr *e) {
  const ExprInfo *info = inst.lookup(e);
  if (!info || info->type.isError())
    return std::nullopt;
  // `@grid` checks its result type as a whole; a condition's operands are
  // integers at every level (a float compared is not something the
  // runtime evaluates).
  if (forRequires() && (!info->type.isScalar() || !info->type.isIntLike())) {
    a.report(DiagId::sema_requires_expr, e->getRange(),
             {"is built from integers, but `" + a.sourceText(e->getRange()) + "` is `" +
              info->type.str() + "`"});
    return std::nullopt;
  }
  if (info->value)
    return intNode(info->value->getInt());
  if (auto *n = ast::dyn_cast<ast::NameExpr>(e)) {
    const NameBinding *b = inst.binding(n);
    for (const KernelParam &p : k.params)
      if (b && b->decl == p.decl && !p.isConst && p.type.isIntLike()) {
        GridNode node;
        node.kind = GridNode::Kind::Param;
        node.paramIndex = unsigned(p.runtimeIndex);
        return node;
      }
    return unsupported(e);
  }
  if (auto *u = ast::dyn_cast<ast::UnaryExpr>(e)) {
    if (u->op == ast::UnaryOp::Neg)
      return foldOp("neg", {u->operand});
    if (u->op == ast::UnaryOp::Not && forRequires())
      return foldOp("not", {u->operand});
    return unsupported(e);
  }
  if (auto *b = ast::dyn_cast<ast::BinaryExpr>(e)) {
    using B = ast::BinaryOp;
    static const std::map<B, const char *> arith = {
        {B::Add, "add"}, {B::Sub, "sub"}, {B::Mul, "mul"}, {B::Div, "div"}, {B::Rem, "mod"}};
    static const std::map<B, const char *> logic = {
        {B::Lt, "lt"}, {B::Le, "le"}, {B::Gt, "gt"},         {B::Ge, "ge"},
        {B::Eq, "eq"}, {B::Ne, "ne"}, {B::LogicalAnd, "and"}, {B::LogicalOr, "or"}};
    if (auto it = arith.find(b->op); it != arith.end())
      return foldOp(it->second, {b->lhs, b->rhs});
    if (auto it = logic.find(b->op); it != logic.end() && forRequires())
      return foldOp(it->second, {b->lhs, b->rhs});
    return unsupported(e);
  }
  if (auto *c = ast::dyn_cast<ast::CallExpr>(e)) {
    auto *callee = ast::dyn_cast<ast::NameExpr>(c->callee);
    bool positional = std::none_of(c->args.begin(), c->args.end(),
                                   [](const ast::Argument *x) { return x->isNamed(); });
    if (callee && positional && c->args.size() == 2 &&
        (callee->name == "cdiv" || callee->name == "min" || callee->name == "max"))
      return foldOp(callee->name, {c->args[0]->value, c->args[1]->value});
  }
  return unsupported(e);
}

std::optional<GridNode> foldLaunchExpr(Analyzer &analyzer, const ast::Expr *e,
                                       const FunctionInstance &inst, const KernelInfo &kernel,
                                       LaunchExprKind kind) {
  return LaunchExprFolder(analyzer, inst, kernel, kind).fold(e);
}

std::string launchExprsJson(const std::vector<GridNode> &nodes) {
  std::string out = "[";
  for (size_t i = 0; i < nodes.size(); ++i)
    out += (i ? ", " : "") + nodes[i].toJson();
  return out + "]";
}

/// The first name in `e` that is a pointer parameter of `k`, or nullptr:
/// such a condition is refused before it is typed (comparing a pointer
/// would otherwise read as pointer arithmetic).
static const ast::NameExpr *pointerParamIn(const ast::Node *e, const KernelInfo &k) {
  if (auto *n = ast::dyn_cast<ast::NameExpr>(e))
    for (const KernelParam &p : k.params)
      if (p.name == n->name && !p.isConst && p.type.isPointerLike())
        return n;
  const ast::NameExpr *found = nullptr;
  ast::forEachChild(e, [&](const ast::Node *child) {
    if (!found)
      found = pointerParamIn(child, k);
  });
  return found;
}

void foldRequirements(Analyzer &a, BodyChecker &body, const KernelInfo &k, Specialization &s,
                      const std::vector<const ast::Expr *> &conditions) {
  for (const ast::Expr *cond : conditions) {
    if (const ast::NameExpr *ptr = pointerParamIn(cond, k)) {
      a.report(DiagId::sema_requires_expr, ptr->getRange(),
               {"cannot test the pointer parameter `" + ptr->name + "`"})
          .note(DiagId::note_sema_hint, SourceRange(),
                {"conditions are over runtime integer parameters, const parameters and "
                 "integers"});
      continue;
    }
    ExprInfo info = body.checkExpr(cond);
    if (info.type.isError())
      continue;
    if (!info.type.isScalar() || !info.type.isBoolLike()) {
      a.report(DiagId::sema_requires_expr, cond->getRange(),
               {"must be true or false, found `" + info.type.str() + "`"})
          .note(DiagId::note_sema_hint, SourceRange(),
                {"compare the value, as in `@requires(n_cols <= BLOCK)`"});
      continue;
    }
    std::optional<GridNode> n = foldLaunchExpr(a, cond, *s.body, k, LaunchExprKind::Requires);
    if (!n)
      continue;
    if (n->kind != GridNode::Kind::Int) {
      s.requirements.push_back(std::move(*n));
      continue;
    }
    if (n->intValue == 0)
      a.report(DiagId::sema_requires_false, cond->getRange(),
               {a.sourceText(cond->getRange()), s.label});
  }
  if (!s.requirements.empty())
    s.requirementsJson = launchExprsJson(s.requirements);
}

} // namespace blk::sema::detail
