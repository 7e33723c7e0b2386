//===- SemaResult.cpp - read access to Sema's results ---------------------===//
//
// Lookups on FunctionInstance, the manifest form of `@grid` nodes, and the
// hover helper (innermost expression at an offset, and its facts in every
// specialisation / fn instance).
// Tests: tests/unit/Sema/SemaTest.cpp.
//
//===----------------------------------------------------------------------===//
#include "blk/Sema/Sema.h"

namespace blk::sema {

const ExprInfo *FunctionInstance::lookup(const ast::Expr *e) const {
  auto it = exprs.find(e);
  return it == exprs.end() ? nullptr : &it->second;
}

const NameBinding *FunctionInstance::binding(const ast::Expr *e) const {
  auto it = names.find(e);
  return it == names.end() ? nullptr : &it->second;
}

const VarInfo *FunctionInstance::var(const ast::Node *decl) const {
  auto it = vars.find(decl);
  return it == vars.end() ? nullptr : &it->second;
}

const FunctionInstance *FunctionInstance::callee(const ast::CallExpr *call) const {
  auto it = calls.find(call);
  return it == calls.end() ? nullptr : it->second.get();
}

std::string GridNode::toJson() const {
  switch (kind) {
  case Kind::Int: return "{\"int\": " + std::to_string(intValue) + "}";
  case Kind::Param: return "{\"param\": " + std::to_string(paramIndex) + "}";
  case Kind::Op: break;
  }
  std::string out = "{\"op\": \"" + op + "\", \"args\": [";
  for (size_t i = 0; i < args.size(); ++i)
    out += (i ? ", " : "") + args[i].toJson();
  return out + "]}";
}

const KernelInfo *SemaResult::kernel(const std::string &name) const {
  for (const KernelInfo &k : kernels)
    if (k.name == name)
      return &k;
  return nullptr;
}

/// Collects `e`'s facts from `inst` and every fn instance below it.
static void collect(const ast::Expr *e, const Specialization *spec,
                    const FunctionInstance &inst,
                    std::vector<SemaResult::HoverEntry> &out) {
  if (const ExprInfo *info = inst.lookup(e))
    out.push_back({spec, &inst, info});
  for (const auto &[call, callee] : inst.calls)
    collect(e, spec, *callee, out);
}

const ast::Expr *SemaResult::exprAt(const ast::Module &module, uint32_t offset,
                                    std::vector<HoverEntry> *entries) const {
  const ast::Expr *best = nullptr;
  std::function<void(const ast::Node *)> walk = [&](const ast::Node *n) {
    SourceRange r = n->getRange();
    bool contains = r.begin.offset <= offset && offset < r.end.offset;
    if (!contains && !ast::isa<ast::Module>(n))
      return;
    if (auto *e = ast::dyn_cast<ast::Expr>(n))
      best = e; // children are visited after parents: the last hit is innermost
    ast::forEachChild(n, walk);
  };
  walk(&module);
  if (best && entries) {
    entries->clear();
    collect(best, nullptr, globals, *entries);
    for (const KernelInfo &k : kernels)
      for (const Specialization &s : k.specializations)
        if (s.body)
          collect(best, &s, *s.body, *entries);
  }
  return best;
}

} // namespace blk::sema
