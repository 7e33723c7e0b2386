//===- SemanticTokens.cpp - textDocument/semanticTokens/full --------------===//
//
// Colours the names the TextMate grammar cannot tell apart: what each
// identifier declares or refers to. One walk over the AST keeps the lexical
// scopes itself (module names; a function's parameters; lets after their
// statement; loop variables in their body), so it is linear in the file
// and works where Sema did not run (an uncalled generic fn, a module with
// errors). Keywords, numbers, strings and comments stay with the grammar.
// Tokens: namespace (imports), type (`f32` in a type or as a dtype
// argument), parameter, variable, function, decorator (`@config`),
// property (keyword argument names); modifiers: declaration, readonly
// (`const`, `let`, loop variables, const params), defaultLibrary
// (built-ins). Tests: tests/lit/lsp/semantic-tokens.test.
//
//===----------------------------------------------------------------------===//

#include "AstQuery.h"
#include "blk/Lsp/BuiltinDocs.h"
#include "blk/Lsp/Features.h"

#include <algorithm>
#include <map>

namespace blk::lsp {

using namespace blk::ast;
using nlohmann::json;

namespace {
// Indices into semanticTokensLegend()'s lists.
constexpr unsigned kNamespace = 0, kType = 1, kParameter = 2, kVariable = 3,
                   kFunction = 4, kDecorator = 5, kProperty = 6;
// Bits of the modifier list.
constexpr unsigned kDeclaration = 1, kReadonly = 2, kDefaultLibrary = 4;

struct Token {
  SourceRange range;
  unsigned type;
  unsigned modifiers;
};

/// What a name in scope is.
struct Meaning {
  unsigned type;
  unsigned modifiers; ///< without kDeclaration
};

class TokenCollector {
public:
  explicit TokenCollector(const Analysis &analysis)
      : analysis(analysis), file(analysis.mainFile) {}
  std::vector<Token> tokens;

  void module(const Module &m) {
    scopes.emplace_back();
    // Module names are visible everywhere in it, before their declaration.
    for (const Decl *d : m.decls) {
      if (auto *c = dyn_cast<ConstDecl>(d))
        declare(c->name, {kVariable, kReadonly});
      else if (auto *fn = dyn_cast<FunctionDecl>(d))
        declare(fn->name, {kFunction, 0});
      else if (auto *imp = dyn_cast<ImportDecl>(d))
        declare(imp->bindingName(), {kNamespace, 0});
    }
    for (const Decl *d : m.decls)
      node(d);
  }

private:
  const Analysis &analysis;
  FileId file;
  std::vector<std::map<std::string, Meaning>> scopes;

  void declare(const std::string &name, Meaning meaning) {
    scopes.back()[name] = meaning;
  }
  void add(SourceRange r, unsigned type, unsigned modifiers) {
    if (r.isValid() && r.begin.file == file && r.end.offset > r.begin.offset)
      tokens.push_back({r, type, modifiers});
  }
  void declaration(SourceRange r, const std::string &name, Meaning meaning) {
    declare(name, meaning);
    add(r, meaning.type, meaning.modifiers | kDeclaration);
  }

  void name(const NameExpr *n) {
    for (auto it = scopes.rbegin(); it != scopes.rend(); ++it)
      if (auto found = it->find(n->name); found != it->end())
        return add(n->getRange(), found->second.type, found->second.modifiers);
    if (findBuiltinDoc(n->name))
      return add(n->getRange(), kFunction, kDefaultLibrary);
    for (std::string_view t : scalarTypeNames())
      if (t == n->name)
        return add(n->getRange(), kType, kDefaultLibrary);
  }

  void children(const Node *n) {
    forEachChild(n, [this](const Node *child) { node(child); });
  }

  void node(const Node *n) {
    if (!n)
      return;
    switch (n->getKind()) {
    case NodeKind::Name:
      return name(cast<NameExpr>(n));
    case NodeKind::Member: {
      auto *m = cast<MemberExpr>(n);
      node(m->base);
      // `math.sigmoid`: a fn or a const of the imported module.
      auto *base = dyn_cast_or_null<NameExpr>(m->base);
      const Module *imported =
          base ? importedModule(analysis, base->name) : nullptr;
      for (const Decl *d : imported ? imported->decls : std::vector<Decl *>{})
        if (auto *fn = dyn_cast<FunctionDecl>(d); fn && fn->name == m->member)
          return add(m->memberRange, kFunction, 0);
        else if (auto *c = dyn_cast<ConstDecl>(d); c && c->name == m->member)
          return add(m->memberRange, kVariable, kReadonly);
      return;
    }
    case NodeKind::TypeRef: {
      auto *t = cast<TypeRef>(n);
      add(t->elementRange, kType, 0);
      return children(n);
    }
    case NodeKind::Argument: {
      auto *a = cast<Argument>(n);
      if (a->isNamed())
        add(a->nameRange, kProperty, 0);
      return children(n);
    }
    case NodeKind::Attribute: {
      auto *a = cast<Attribute>(n);
      add(a->nameRange, kDecorator, 0);
      for (const Argument *arg : a->args) {
        // `@config(BLOCK = 64)` names a const parameter.
        if (arg->isNamed()) {
          auto found = scopes.back().find(arg->name);
          if (found != scopes.back().end())
            add(arg->nameRange, found->second.type, found->second.modifiers);
          else
            add(arg->nameRange, kProperty, 0);
        }
        node(arg->value);
      }
      return;
    }
    case NodeKind::Import: {
      auto *imp = cast<ImportDecl>(n);
      for (SourceRange r : imp->pathRanges)
        add(r, kNamespace, 0);
      add(imp->aliasRange, kNamespace, kDeclaration);
      return;
    }
    case NodeKind::ConstDecl: {
      auto *c = cast<ConstDecl>(n);
      add(c->nameRange, kVariable, kReadonly | kDeclaration);
      return children(n);
    }
    case NodeKind::Function: {
      auto *fn = cast<FunctionDecl>(n);
      add(fn->nameRange, kFunction, kDeclaration);
      scopes.emplace_back();
      for (const Param *p : fn->params)
        declare(p->name, {kParameter, p->isConst ? kReadonly : 0u});
      for (const Param *p : fn->params)
        add(p->nameRange, kParameter,
            kDeclaration | (p->isConst ? kReadonly : 0u));
      children(n);
      scopes.pop_back();
      return;
    }
    case NodeKind::Block:
      scopes.emplace_back();
      children(n);
      scopes.pop_back();
      return;
    case NodeKind::Let: {
      auto *let = cast<LetStmt>(n);
      // The initialiser sees the names before this statement.
      children(n);
      declaration(
          let->nameRange, let->name,
          {kVariable, let->binding == BindingKind::Var ? 0u : kReadonly});
      return;
    }
    case NodeKind::For: {
      auto *f = cast<ForStmt>(n);
      node(f->iterable);
      scopes.emplace_back();
      declaration(f->varRange, f->var, {kVariable, kReadonly});
      node(f->body);
      scopes.pop_back();
      return;
    }
    default:
      return children(n);
    }
  }
};
} // namespace

json semanticTokensLegend() {
  return {{"tokenTypes",
           {"namespace", "type", "parameter", "variable", "function",
            "decorator", "property"}},
          {"tokenModifiers", {"declaration", "readonly", "defaultLibrary"}}};
}

json semanticTokens(const Analysis &analysis) {
  json data = json::array();
  if (!analysis.module)
    return {{"data", data}};
  TokenCollector collector(analysis);
  collector.module(*analysis.module);
  std::vector<Token> &tokens = collector.tokens;
  std::stable_sort(tokens.begin(), tokens.end(),
                   [](const Token &a, const Token &b) {
                     return a.range.begin.offset < b.range.begin.offset;
                   });
  const LineIndex &index = analysis.lineIndex(analysis.mainFile);
  Position previous;
  uint32_t lastBegin = UINT32_MAX;
  for (const Token &t : tokens) {
    if (t.range.begin.offset == lastBegin)
      continue; // one token per name
    lastBegin = t.range.begin.offset;
    Position b = index.position(t.range.begin.offset);
    Position e = index.position(t.range.end.offset);
    if (e.line != b.line)
      continue;
    unsigned deltaLine = b.line - previous.line;
    unsigned deltaStart =
        deltaLine ? b.character : b.character - previous.character;
    data.insert(data.end(), {deltaLine, deltaStart, e.character - b.character,
                             t.type, t.modifiers});
    previous = b;
  }
  return {{"data", data}};
}

} // namespace blk::lsp
