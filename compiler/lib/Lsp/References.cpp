//===- References.cpp - textDocument/references, rename, prepareRename ----===//
//
// A name refers to one declaration node (a let, param, loop variable,
// const, fn, kernel or import); references are every name of the document
// that refers to the same node. The node comes from Sema's bindings in
// analysed code and from syntactic scopes elsewhere (an uncalled generic
// fn), as for go-to-definition. Names in a kernel's attributes
// (`@config(BLOCK = …)`, `@grid(cdiv(n, BLOCK))`, `@autotune(key = [n])`,
// `@specialize(n)`) refer to its parameters, so renaming a const parameter
// renames its config entries too. Rename edits the document only and
// refuses names declared in another file, keywords and non-identifiers.
// Tests: tests/lit/lsp/references.test, tests/lit/lsp/rename.test.
//
//===----------------------------------------------------------------------===//

#include "AstQuery.h"
#include "blk/Lsp/BuiltinDocs.h"
#include "blk/Lsp/Features.h"
#include "blk/Lsp/Uri.h"

#include <functional>

namespace blk::lsp {

using namespace blk::ast;
using nlohmann::json;

/// The range of the name a declaration node introduces.
static SourceRange declNameRange(const Node *decl) {
  if (auto *imp = dyn_cast_or_null<ImportDecl>(decl))
    return imp->alias.empty() && !imp->pathRanges.empty()
               ? imp->pathRanges.back()
               : imp->aliasRange;
  if (auto *let = dyn_cast_or_null<LetStmt>(decl))
    return let->nameRange;
  if (auto *p = dyn_cast_or_null<Param>(decl))
    return p->nameRange;
  if (auto *f = dyn_cast_or_null<ForStmt>(decl))
    return f->varRange;
  if (auto *c = dyn_cast_or_null<ConstDecl>(decl))
    return c->nameRange;
  if (auto *fn = dyn_cast_or_null<FunctionDecl>(decl))
    return fn->nameRange;
  return {};
}

/// The parameter `word` of the function whose attributes hold `offset`.
static const Node *attributeParam(const Module &module, uint32_t offset,
                                  std::string_view word) {
  for (const Decl *d : module.decls) {
    auto *fn = dyn_cast<FunctionDecl>(d);
    if (!fn)
      continue;
    for (const Attribute *a : fn->attributes) {
      SourceRange r = a->getRange();
      if (offset < r.begin.offset || offset > r.end.offset)
        continue;
      for (const Param *p : fn->params)
        if (p->name == word)
          return p;
      return nullptr;
    }
  }
  return nullptr;
}

/// The declaration node the name at `offset` declares or refers to.
static const Node *declOf(const Analysis &analysis, uint32_t offset) {
  const Module &module = *analysis.module;
  std::string_view word = identifierAt(analysis.text(), offset);
  if (word.empty())
    return nullptr;
  if (const Node *p = attributeParam(module, offset, word))
    return p;
  if (auto decl = declNameAt(module, offset))
    return decl->node;
  if (analysis.sema) {
    std::vector<sema::SemaResult::HoverEntry> entries;
    if (const Expr *expr = analysis.sema->exprAt(module, offset, &entries)) {
      // On `m` of `m.f`, the import; on `f`, the member's declaration.
      if (auto *member = dyn_cast<MemberExpr>(expr);
          member && member->base && offset < member->memberRange.begin.offset)
        expr = member->base;
      for (const auto &e : entries)
        if (const sema::NameBinding *b =
                e.instance ? e.instance->binding(expr) : nullptr;
            b && b->decl)
          return b->decl;
      if (isa<NameExpr>(expr) && findBuiltinDoc(word) && entries.size())
        return nullptr; // a built-in
    }
  }
  std::vector<DeclRef> scope = visibleDecls(module, offset);
  for (auto it = scope.rbegin(); it != scope.rend(); ++it)
    if (it->name == word)
      return it->node;
  return nullptr;
}

/// Every name range in the document that refers to `target`.
static std::vector<SourceRange> occurrences(const Analysis &analysis,
                                            const Node *target) {
  std::vector<SourceRange> found;
  auto check = [&](SourceRange r) {
    if (r.isValid() && r.begin.file == analysis.mainFile &&
        declOf(analysis, r.begin.offset) == target)
      found.push_back(r);
  };
  std::function<void(const Node *)> visit = [&](const Node *node) {
    if (!node)
      return;
    if (auto *name = dyn_cast<NameExpr>(node))
      check(name->getRange());
    else if (auto *member = dyn_cast<MemberExpr>(node))
      check(member->memberRange);
    else if (auto *arg = dyn_cast<Argument>(node); arg && arg->isNamed())
      check(arg->nameRange);
    else if (!isa<Module>(node))
      if (SourceRange r = declNameRange(node); r.isValid())
        check(r);
    forEachChild(node, visit);
  };
  visit(analysis.module);
  std::sort(found.begin(), found.end(), [](SourceRange a, SourceRange b) {
    return a.begin.offset < b.begin.offset;
  });
  found.erase(std::unique(found.begin(), found.end(),
                          [](SourceRange a, SourceRange b) {
                            return a.begin.offset == b.begin.offset;
                          }),
              found.end());
  return found;
}

json referencesAt(const Analysis &analysis, uint32_t offset,
                  bool includeDeclaration) {
  json out = json::array();
  if (!analysis.module)
    return out;
  const Node *target = declOf(analysis, offset);
  if (!target)
    return out;
  SourceRange declRange = declNameRange(target);
  // A declaration in another file (an imported fn) is listed first.
  if (includeDeclaration && declRange.isValid() &&
      declRange.begin.file != analysis.mainFile)
    out.push_back(toLspLocation(analysis, declRange));
  for (SourceRange r : occurrences(analysis, target)) {
    if (!includeDeclaration && r.begin.offset == declRange.begin.offset &&
        r.begin.file == declRange.begin.file)
      continue;
    out.push_back(toLspLocation(analysis, r));
  }
  return out;
}

/// Why `name` cannot be a new name, or empty.
static std::string invalidName(const std::string &name) {
  bool ok = !name.empty() && !std::isdigit(static_cast<unsigned char>(name[0]));
  for (char c : name)
    ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '_');
  if (!ok)
    return "`" + name + "` is not an identifier";
  for (std::string_view kw : keywords())
    if (kw == name)
      return "`" + name + "` is a keyword";
  return "";
}

/// The declaration to rename at `offset`, or why there is none.
static const Node *renameTarget(const Analysis &analysis, uint32_t offset,
                                std::string &error) {
  const Node *target = analysis.module ? declOf(analysis, offset) : nullptr;
  if (!target) {
    error = "no renamable name here (a built-in, a keyword or nothing)";
    return nullptr;
  }
  SourceRange r = declNameRange(target);
  if (!r.isValid() || r.begin.file != analysis.mainFile) {
    error = "`" + std::string(identifierAt(analysis.text(), offset)) +
            "` is declared in another file; rename it there";
    return nullptr;
  }
  return target;
}

json prepareRenameAt(const Analysis &analysis, uint32_t offset,
                     std::string &error) {
  if (!renameTarget(analysis, offset, error))
    return nullptr;
  uint32_t begin = 0;
  std::string_view word = identifierAt(analysis.text(), offset, &begin);
  return {{"range", toLspRange(analysis, SourceRange(analysis.mainFile, begin,
                                                     uint32_t(word.size())))},
          {"placeholder", std::string(word)}};
}

json renameAt(const Analysis &analysis, uint32_t offset,
              const std::string &newName, std::string &error) {
  error = invalidName(newName);
  if (!error.empty())
    return nullptr;
  const Node *target = renameTarget(analysis, offset, error);
  if (!target)
    return nullptr;
  json edits = json::array();
  for (SourceRange r : occurrences(analysis, target))
    edits.push_back({{"range", toLspRange(analysis, r)}, {"newText", newName}});
  std::string uri =
      pathToUri(analysis.sourceManager().getPath(analysis.mainFile));
  return {{"changes", {{uri, std::move(edits)}}}};
}

} // namespace blk::lsp
