//===- AstQuery.cpp - Cursor queries over the AST and Sema facts ----------===//

#include "AstQuery.h"

#include <cctype>
#include <functional>

namespace blk::lsp {

using namespace blk::ast;

static bool contains(SourceRange r, uint32_t offset) {
  // Inclusive end: a cursor just after a name still names it.
  return r.isValid() && r.begin.offset <= offset && offset <= r.end.offset;
}

static bool containsStrict(SourceRange r, uint32_t offset) {
  return r.isValid() && r.begin.offset <= offset && offset < r.end.offset;
}

std::optional<DeclRef> declNameAt(const Module &module, uint32_t offset) {
  std::optional<DeclRef> found;
  std::function<void(const Node *)> visit = [&](const Node *node) {
    if (found || !node)
      return;
    // Only descend into nodes whose range can hold the cursor.
    if (!isa<Module>(node) && !contains(node->getRange(), offset))
      return;
    if (auto *let = dyn_cast<LetStmt>(node);
        let && contains(let->nameRange, offset))
      found = DeclRef{DeclRef::Kind::Local, let->name, let, let->nameRange,
                      let->binding == BindingKind::Var};
    else if (auto *p = dyn_cast<Param>(node);
             p && contains(p->nameRange, offset))
      found = DeclRef{DeclRef::Kind::Param, p->name, p, p->nameRange};
    else if (auto *f = dyn_cast<ForStmt>(node);
             f && contains(f->varRange, offset))
      found = DeclRef{DeclRef::Kind::LoopVar, f->var, f, f->varRange};
    else if (auto *c = dyn_cast<ConstDecl>(node);
             c && contains(c->nameRange, offset))
      found = DeclRef{DeclRef::Kind::GlobalConst, c->name, c, c->nameRange};
    else if (auto *fn = dyn_cast<FunctionDecl>(node);
             fn && contains(fn->nameRange, offset))
      found = DeclRef{fn->isKernel ? DeclRef::Kind::Kernel
                                   : DeclRef::Kind::Function,
                      fn->name, fn, fn->nameRange};
    else if (auto *imp = dyn_cast<ImportDecl>(node)) {
      SourceRange r = imp->alias.empty() && !imp->pathRanges.empty()
                          ? SourceRange::join(imp->pathRanges.front(),
                                              imp->pathRanges.back())
                          : imp->aliasRange;
      if (contains(r, offset) || contains(imp->getRange(), offset))
        found = DeclRef{DeclRef::Kind::Import, imp->bindingName(), imp, r};
    }
    if (!found)
      forEachChild(node, visit);
  };
  visit(&module);
  return found;
}

namespace {
/// Collects the names visible at one offset inside a function body.
class ScopeCollector {
public:
  ScopeCollector(uint32_t offset, std::vector<DeclRef> &out)
      : offset(offset), out(out) {}

  void block(const BlockStmt *b) {
    if (!b)
      return;
    for (const Stmt *s : b->stmts) {
      if (s->getRange().begin.offset > offset)
        return;
      stmt(s);
    }
  }

private:
  void stmt(const Stmt *s) {
    bool inside = containsStrict(s->getRange(), offset);
    if (auto *let = dyn_cast<LetStmt>(s)) {
      // Visible only after its own statement.
      if (!inside)
        out.push_back({DeclRef::Kind::Local, let->name, let, let->nameRange,
                       let->binding == BindingKind::Var});
      return;
    }
    if (!inside)
      return;
    if (auto *ifs = dyn_cast<IfStmt>(s)) {
      if (ifs->thenBlock && contains(ifs->thenBlock->getRange(), offset))
        block(ifs->thenBlock);
      else if (ifs->elseStmt)
        stmt(ifs->elseStmt);
    } else if (auto *f = dyn_cast<ForStmt>(s)) {
      if (f->body && contains(f->body->getRange(), offset)) {
        out.push_back({DeclRef::Kind::LoopVar, f->var, f, f->varRange});
        block(f->body);
      }
    } else if (auto *w = dyn_cast<WhileStmt>(s)) {
      block(w->body);
    } else if (auto *b = dyn_cast<BlockStmt>(s)) {
      block(b);
    }
  }

  uint32_t offset;
  std::vector<DeclRef> &out;
};
} // namespace

std::vector<DeclRef> visibleDecls(const Module &module, uint32_t offset) {
  std::vector<DeclRef> out;
  const FunctionDecl *enclosing = nullptr;
  for (const Decl *d : module.decls) {
    if (auto *c = dyn_cast<ConstDecl>(d))
      out.push_back({DeclRef::Kind::GlobalConst, c->name, c, c->nameRange});
    else if (auto *imp = dyn_cast<ImportDecl>(d))
      out.push_back(
          {DeclRef::Kind::Import, imp->bindingName(), imp,
           imp->alias.empty() ? imp->pathRanges.back() : imp->aliasRange});
    else if (auto *fn = dyn_cast<FunctionDecl>(d)) {
      out.push_back(
          {fn->isKernel ? DeclRef::Kind::Kernel : DeclRef::Kind::Function,
           fn->name, fn, fn->nameRange});
      if (contains(fn->getRange(), offset))
        enclosing = fn;
    }
  }
  if (!enclosing)
    return out;
  for (const Param *p : enclosing->params)
    out.push_back({DeclRef::Kind::Param, p->name, p, p->nameRange});
  if (enclosing->body && contains(enclosing->body->getRange(), offset))
    ScopeCollector(offset, out).block(enclosing->body);
  return out;
}

static bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

std::string_view identifierAt(std::string_view text, uint32_t offset,
                              uint32_t *begin) {
  if (offset > text.size())
    return {};
  uint32_t b = offset, e = offset;
  while (b > 0 && isIdentChar(text[b - 1]))
    --b;
  while (e < text.size() && isIdentChar(text[e]))
    ++e;
  if (b == e || std::isdigit(static_cast<unsigned char>(text[b])))
    return {};
  if (begin)
    *begin = b;
  return text.substr(b, e - b);
}

static void addCallees(const sema::Specialization *spec,
                       const sema::FunctionInstance &inst,
                       std::vector<InstanceRef> &out, unsigned depth) {
  out.push_back({spec, &inst});
  // Recursion is an error in blk, but stay bounded on a broken result.
  if (depth > 64)
    return;
  for (const auto &[call, callee] : inst.calls)
    if (callee)
      addCallees(spec, *callee, out, depth + 1);
}

std::vector<InstanceRef> allInstances(const sema::SemaResult &sema) {
  std::vector<InstanceRef> out;
  for (const sema::KernelInfo &kernel : sema.kernels)
    for (const sema::Specialization &spec : kernel.specializations)
      if (spec.body)
        addCallees(&spec, *spec.body, out, 0);
  out.push_back({nullptr, &sema.globals});
  return out;
}

std::string configLabel(const sema::Specialization *spec) {
  if (!spec)
    return "module";
  if (spec->config.empty())
    return spec->label.empty() ? "default" : spec->label;
  std::string label;
  for (const sema::ConfigValue &cv : spec->config) {
    if (!label.empty())
      label += ", ";
    label += cv.name + "=" + cv.value.str();
  }
  return label;
}

SourceRange bindingDeclRange(const sema::NameBinding &binding) {
  const Node *decl = binding.decl;
  if (!decl)
    return {};
  if (auto *let = dyn_cast<LetStmt>(decl))
    return let->nameRange;
  if (auto *p = dyn_cast<Param>(decl))
    return p->nameRange;
  if (auto *f = dyn_cast<ForStmt>(decl))
    return f->varRange;
  if (auto *c = dyn_cast<ConstDecl>(decl))
    return c->nameRange;
  if (auto *fn = dyn_cast<FunctionDecl>(decl))
    return fn->nameRange;
  if (auto *imp = dyn_cast<ImportDecl>(decl))
    return imp->getRange();
  return decl->getRange();
}

std::string typeText(const sema::Type &type,
                     const std::optional<sema::ConstValue> &value) {
  std::string text = type.str();
  if (value)
    text += " = " + value->str();
  return text;
}

std::vector<Fact> declFacts(const sema::SemaResult &sema,
                            const ast::Node *decl) {
  std::vector<Fact> facts;
  for (const InstanceRef &ref : allInstances(sema)) {
    const sema::VarInfo *var = ref.instance->var(decl);
    if (var && !var->type.isError()) {
      facts.push_back({configLabel(ref.spec), typeText(var->type, var->value)});
      continue;
    }
    // Module constants may only be recorded through their initialiser.
    if (auto *c = dyn_cast<ConstDecl>(decl))
      if (const sema::ExprInfo *info = ref.instance->lookup(c->init);
          info && !info->type.isError())
        facts.push_back(
            {configLabel(ref.spec), typeText(info->type, info->value)});
  }
  return facts;
}

const Module *importedModule(const Analysis &analysis, const ImportDecl *imp) {
  if (!analysis.sema || !imp)
    return nullptr;
  std::string suffix;
  for (const std::string &part : imp->path)
    suffix += "/" + part;
  suffix += ".blk";
  const SourceManager &sm = analysis.sourceManager();
  for (const Module *m : analysis.sema->modules) {
    const std::string &path = sm.getPath(m->file);
    if (m->file != analysis.mainFile && path.size() >= suffix.size() &&
        path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0)
      return m;
  }
  return nullptr;
}

const Module *importedModule(const Analysis &analysis, std::string_view alias) {
  if (!analysis.module)
    return nullptr;
  const ImportDecl *imp = nullptr;
  for (const Decl *d : analysis.module->decls)
    if (auto *i = dyn_cast<ImportDecl>(d); i && i->bindingName() == alias)
      imp = i;
  return importedModule(analysis, imp);
}

} // namespace blk::lsp
