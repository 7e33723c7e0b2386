//===- Hover.cpp - textDocument/hover -------------------------------------===//
//
// For the name or expression under the cursor: its type and block shape in
// every specialisation that analysed it. One line when all agree
// (`offsets: i32[1024]`), else one line per `@config`
// (`BLOCK=1024 → i32[1024]`). Built-ins, attributes and `@autotune`'s
// keywords show their form and one-line doc; kernels and fns their header
// and configs. Tests:
// tests/lit/lsp/lsp_e2e.py.
//
//===----------------------------------------------------------------------===//

#include "AstQuery.h"
#include "blk/Lsp/BuiltinDocs.h"
#include "blk/Lsp/Features.h"

#include <functional>

namespace blk::lsp {

using namespace blk::ast;
using nlohmann::json;

/// `name: type` when every fact agrees, else `name:` and one line per config.
static std::string formatFacts(const std::string &name,
                               std::vector<Fact> facts) {
  if (facts.empty())
    return name;
  bool allSame = true;
  for (const Fact &f : facts)
    allSame = allSame && f.type == facts.front().type;
  if (allSame)
    return name + ": " + facts.front().type;
  std::string text = name + ":";
  std::vector<std::string> seen;
  for (const Fact &f : facts) {
    std::string line = f.label + " → " + f.type;
    // A fn called twice in one spec with the same result adds nothing.
    if (std::find(seen.begin(), seen.end(), line) != seen.end())
      continue;
    seen.push_back(line);
    text += "\n" + line;
  }
  return text;
}

static json markdown(const std::string &code, const std::string &extra = "") {
  std::string value = "```blk\n" + code + "\n```";
  if (!extra.empty())
    value += "\n" + extra;
  return {{"kind", "markdown"}, {"value", value}};
}

static json hoverResult(const Analysis &analysis, const json &contents,
                        SourceRange range) {
  json h = {{"contents", contents}};
  if (range.isValid())
    h["range"] = toLspRange(analysis, range);
  return h;
}

static json builtinHover(const Analysis &analysis, const BuiltinDoc &doc,
                         SourceRange range) {
  return hoverResult(analysis,
                     markdown(std::string(doc.signature), std::string(doc.doc)),
                     range);
}

/// Source text of `range` (in any loaded file), on one line and shortened.
static std::string sourceText(const Analysis &analysis, SourceRange range,
                              size_t maxLen = 48) {
  if (!range.isValid())
    return "expression";
  std::string_view text = analysis.sourceManager().getText(range.begin.file);
  if (range.end.offset > text.size() || range.end.offset < range.begin.offset)
    return "expression";
  std::string out;
  for (char c : text.substr(range.begin.offset, range.length())) {
    if (c == '\n' || c == '\r' || c == '\t')
      c = ' ';
    if (c == ' ' && !out.empty() && out.back() == ' ')
      continue;
    out += c;
  }
  while (!out.empty() && out.back() == ' ')
    out.pop_back();
  if (out.size() > maxLen)
    out = out.substr(0, maxLen - 3) + "...";
  return out;
}

/// `kernel name(params…)` / `fn name(params…) -> T` as written.
static std::string functionHeader(const Analysis &analysis,
                                  const FunctionDecl *fn) {
  // The decl's range starts at its attributes; show from the keyword on.
  FileId file = fn->nameRange.begin.file;
  std::string_view text = analysis.sourceManager().getText(file);
  uint32_t begin = fn->getBegin().offset;
  size_t keyword = text.substr(0, fn->nameRange.begin.offset)
                       .rfind(fn->isKernel ? "kernel" : "fn");
  if (keyword != std::string_view::npos && keyword >= begin)
    begin = uint32_t(keyword);
  uint32_t end =
      fn->body ? fn->body->getBegin().offset : fn->getRange().end.offset;
  return sourceText(
      analysis, SourceRange(SourceLoc{file, begin}, SourceLoc{file, end}), 400);
}

/// Header of `fn`, its specialisations (kernel) or the result type of
/// `call` per config (fn called there); `range` is in the document.
static json functionHover(const Analysis &analysis, const FunctionDecl *fn,
                          SourceRange range,
                          const std::vector<Fact> &callFacts = {}) {
  std::string head = functionHeader(analysis, fn);
  std::string extra;
  if (fn->isKernel && analysis.sema)
    if (const sema::KernelInfo *k = analysis.sema->kernel(fn->name))
      for (const sema::Specialization &spec : k->specializations)
        extra += "\n- `" + spec.label + "` → `" + spec.entryName + "`";
  if (!extra.empty())
    extra = "specialisations:" + extra;
  if (!callFacts.empty())
    head += "\n" + formatFacts("// this call returns", callFacts);
  return hoverResult(analysis, markdown(head, extra), range);
}

/// The call whose callee is `callee`, if any.
static const CallExpr *callOf(const Module &module, const Expr *callee) {
  const CallExpr *found = nullptr;
  std::function<void(const Node *)> visit = [&](const Node *node) {
    if (found || !node)
      return;
    if (!isa<Module>(node) &&
        (node->getRange().begin.offset > callee->getRange().begin.offset ||
         node->getRange().end.offset < callee->getRange().end.offset))
      return;
    if (auto *call = dyn_cast<CallExpr>(node); call && call->callee == callee) {
      found = call;
      return;
    }
    forEachChild(node, visit);
  };
  visit(&module);
  return found;
}

/// Why a name or expression has no type to show.
static std::string missingTypeText(const Analysis &analysis, uint32_t offset) {
  for (const Decl *d : analysis.module->decls)
    if (auto *fn = dyn_cast<FunctionDecl>(d);
        fn && !fn->isKernel && fn->getRange().begin.offset <= offset &&
        offset < fn->getRange().end.offset)
      return "<generic: typed at each call, and no analysed call reaches it>";
  return "<unknown: this expression has errors (see the diagnostics)>";
}

static json declHover(const Analysis &analysis, const DeclRef &decl) {
  if (decl.kind == DeclRef::Kind::Kernel ||
      decl.kind == DeclRef::Kind::Function)
    return functionHover(analysis, cast<FunctionDecl>(decl.node),
                         decl.nameRange);
  if (decl.kind == DeclRef::Kind::Import)
    return hoverResult(
        analysis,
        markdown("import " + cast<ImportDecl>(decl.node)->dottedName()),
        decl.nameRange);
  std::vector<Fact> facts;
  if (analysis.sema)
    facts = declFacts(*analysis.sema, decl.node);
  std::string prefix = decl.kind == DeclRef::Kind::Param     ? "param "
                       : decl.kind == DeclRef::Kind::LoopVar ? "loop variable "
                       : decl.kind == DeclRef::Kind::GlobalConst ? "const "
                       : decl.isMutable                          ? "var "
                                                                 : "let ";
  std::string body =
      facts.empty() ? decl.name + ": " +
                          missingTypeText(analysis, decl.nameRange.begin.offset)
                    : formatFacts(decl.name, facts);
  return hoverResult(analysis, markdown(prefix + body), decl.nameRange);
}

static bool holds(SourceRange range, uint32_t offset) {
  return range.isValid() && range.begin.offset <= offset && offset < range.end.offset;
}

/// The attribute name (`@requires`, `@aligned`), `@autotune` keyword
/// (`bucket`) or bucket (`pow2`) under the cursor: its form and doc.
static json attributeHover(const Analysis &analysis, uint32_t offset) {
  auto docHover = [&](const BuiltinDoc *doc, SourceRange range) -> json {
    return doc ? hoverResult(analysis,
                             markdown(std::string(doc->signature), std::string(doc->doc)), range)
               : json(nullptr);
  };
  auto inAttribute = [&](const Attribute *a) -> json {
    if (holds(a->nameRange, offset))
      return docHover(findDoc(attributeDocs(), a->name), a->nameRange);
    if (a->name != "autotune")
      return nullptr;
    for (const Argument *arg : a->args) {
      if (holds(arg->nameRange, offset))
        return docHover(findDoc(autotuneKeywordDocs(), arg->name), arg->nameRange);
      auto *value = dyn_cast_or_null<NameExpr>(arg->value);
      if (arg->name == "bucket" && value && holds(value->getRange(), offset))
        return docHover(findDoc(bucketDocs(), value->name), value->getRange());
    }
    return nullptr;
  };
  for (const Decl *d : analysis.module->decls) {
    auto *fn = dyn_cast<FunctionDecl>(d);
    if (!fn || !holds(fn->getRange(), offset))
      continue;
    for (const Attribute *a : fn->attributes)
      if (json h = inAttribute(a); !h.is_null())
        return h;
    for (const Param *p : fn->params)
      for (const Attribute *hint : p->hints)
        if (json h = inAttribute(hint); !h.is_null())
          return h;
  }
  return nullptr;
}

json hoverAt(const Analysis &analysis, uint32_t offset) {
  if (!analysis.module)
    return nullptr;
  if (json h = attributeHover(analysis, offset); !h.is_null())
    return h;
  if (auto decl = declNameAt(*analysis.module, offset))
    return declHover(analysis, *decl);
  if (!analysis.sema)
    return nullptr;

  std::vector<sema::SemaResult::HoverEntry> entries;
  const Expr *expr = analysis.sema->exprAt(*analysis.module, offset, &entries);
  if (!expr) {
    // Not in any analysed expression (e.g. an uncalled generic fn): a
    // built-in name still has its documentation.
    uint32_t begin = 0;
    std::string_view word = identifierAt(analysis.text(), offset, &begin);
    if (const BuiltinDoc *doc = findBuiltinDoc(word))
      return builtinHover(
          analysis, *doc,
          SourceRange(analysis.mainFile, begin, uint32_t(word.size())));
    return nullptr;
  }

  // A name bound to a built-in (and not shadowed) shows its documentation.
  if (auto *name = dyn_cast<NameExpr>(expr)) {
    bool builtin = findBuiltinDoc(name->name) != nullptr;
    for (const auto &e : entries)
      if (const sema::NameBinding *b =
              e.instance ? e.instance->binding(expr) : nullptr)
        builtin = builtin && b->kind == sema::NameBinding::Kind::Builtin;
    if (builtin)
      return builtinHover(analysis, *findBuiltinDoc(name->name),
                          expr->getRange());
  }

  // A `fn` name: its header and, when called here, the call's result.
  for (const auto &e : entries) {
    const sema::NameBinding *b =
        e.instance ? e.instance->binding(expr) : nullptr;
    auto *fn = b ? dyn_cast_or_null<FunctionDecl>(b->decl) : nullptr;
    if (!fn || b->kind != sema::NameBinding::Kind::Function)
      continue;
    std::vector<Fact> callFacts;
    if (const CallExpr *call = callOf(*analysis.module, expr))
      for (const auto &e2 : entries)
        if (const sema::ExprInfo *info =
                e2.instance ? e2.instance->lookup(call) : nullptr;
            info && !info->type.isError())
          callFacts.push_back(
              {configLabel(e2.spec), typeText(info->type, info->value)});
    return functionHover(analysis, fn, expr->getRange(), callFacts);
  }

  std::vector<Fact> facts;
  for (const auto &e : entries)
    if (e.info && !e.info->type.isError())
      facts.push_back(
          {configLabel(e.spec), typeText(e.info->type, e.info->value)});
  std::string name = isa<NameExpr>(expr)
                         ? cast<NameExpr>(expr)->name
                         : sourceText(analysis, expr->getRange());
  if (facts.empty())
    return hoverResult(
        analysis, markdown(name + ": " + missingTypeText(analysis, offset)),
        expr->getRange());
  return hoverResult(analysis, markdown(formatFacts(name, facts)),
                     expr->getRange());
}

} // namespace blk::lsp
