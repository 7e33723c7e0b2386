//===- Completion.cpp - textDocument/completion ---------------------------===//
//
// Offers, at a cursor: after `@`, the attributes; after `module.`, the fns
// and consts of that imported module; otherwise the names in scope (innermost
// first, shadowed ones dropped), the built-ins with their signatures, the
// scalar types and the keywords. The client filters by the typed prefix.
// Works on the last good parse while the cursor's declaration does not
// parse (the server maps the cursor, Fallback.h).
// Tests: tests/lit/lsp/lsp_e2e.py.
//
//===----------------------------------------------------------------------===//

#include "AstQuery.h"
#include "blk/Lsp/BuiltinDocs.h"
#include "blk/Lsp/Features.h"

#include <set>

namespace blk::lsp {

using namespace blk::ast;
using nlohmann::json;

/// LSP CompletionItemKind values used here.
enum ItemKind {
  kFunctionItem = 3,
  kVariableItem = 6,
  kModuleItem = 9,
  kKeywordItem = 14,
  kConstantItem = 21,
  kTypeItem = 25,
  kPropertyItem = 10
};

static int itemKind(DeclRef::Kind kind) {
  switch (kind) {
  case DeclRef::Kind::Function:
  case DeclRef::Kind::Kernel:
    return kFunctionItem;
  case DeclRef::Kind::GlobalConst:
    return kConstantItem;
  case DeclRef::Kind::Import:
    return kModuleItem;
  default:
    return kVariableItem;
  }
}

static const char *detailOf(DeclRef::Kind kind) {
  switch (kind) {
  case DeclRef::Kind::Local:
    return "local";
  case DeclRef::Kind::Param:
    return "param";
  case DeclRef::Kind::LoopVar:
    return "loop variable";
  case DeclRef::Kind::GlobalConst:
    return "const";
  case DeclRef::Kind::Function:
    return "fn";
  case DeclRef::Kind::Kernel:
    return "kernel";
  case DeclRef::Kind::Import:
    return "module";
  }
  return "";
}

/// The members of the module imported as `alias`.
static json moduleMembers(const Analysis &analysis, std::string_view alias) {
  json items = json::array();
  const Module *m = importedModule(analysis, alias);
  if (!m)
    return items;
  for (const Decl *d : m->decls) {
    if (auto *fn = dyn_cast<FunctionDecl>(d); fn && !fn->isKernel)
      items.push_back(
          {{"label", fn->name}, {"kind", kFunctionItem}, {"detail", "fn"}});
    else if (auto *c = dyn_cast<ConstDecl>(d))
      items.push_back(
          {{"label", c->name}, {"kind", kConstantItem}, {"detail", "const"}});
  }
  return items;
}

static json attributeItems() {
  static const char *const kAttributes[][2] = {
      {"config", "@config(NAME = value, …, num_warps = W, num_stages = S, "
                 "programs_per_sm = P): one "
                 "specialisation"},
      {"autotune", "@autotune(key = [args…]): time the configs per key value"},
      {"grid",
       "@grid(e0[, e1[, e2]]): launch grid over scalar params and constants"},
      {"specialize",
       "@specialize(p, …): entries for integer args equal to 1 / multiples "
       "of 16, picked at launch"},
      {"aligned", "@aligned(N): parameter hint, pointer aligned to N bytes"},
      {"multiple_of",
       "@multiple_of(N): parameter hint, value a multiple of N"}};
  json items = json::array();
  for (const auto &a : kAttributes)
    items.push_back(
        {{"label", a[0]}, {"kind", kPropertyItem}, {"detail", a[1]}});
  return items;
}

json completionAt(const Analysis *analysis, std::string_view text,
                  uint32_t offset, uint32_t analysedOffset) {
  if (offset > text.size())
    offset = uint32_t(text.size());
  uint32_t wordBegin = offset;
  identifierAt(text, offset, &wordBegin);
  char before = wordBegin > 0 ? text[wordBegin - 1] : '\0';
  if (before == '@')
    return attributeItems();

  if (before == '.' && wordBegin >= 2) {
    std::string_view base = identifierAt(text, wordBegin - 1);
    return analysis ? moduleMembers(*analysis, base) : json::array();
  }

  json items = json::array();
  std::set<std::string> seen;
  if (analysis && analysis->module) {
    std::vector<DeclRef> scope =
        visibleDecls(*analysis->module, analysedOffset);
    for (auto it = scope.rbegin(); it != scope.rend(); ++it) {
      if (!seen.insert(it->name).second)
        continue; // shadowed
      items.push_back({{"label", it->name},
                       {"kind", itemKind(it->kind)},
                       {"detail", detailOf(it->kind)},
                       {"sortText", "0" + it->name}});
    }
  }
  for (const BuiltinDoc &doc : builtinDocs()) {
    if (seen.count(std::string(doc.name)))
      continue;
    items.push_back({{"label", std::string(doc.name)},
                     {"kind", kFunctionItem},
                     {"detail", std::string(doc.signature)},
                     {"documentation", std::string(doc.doc)},
                     {"sortText", "1" + std::string(doc.name)}});
  }
  for (std::string_view type : scalarTypeNames())
    items.push_back({{"label", std::string(type)},
                     {"kind", kTypeItem},
                     {"sortText", "2" + std::string(type)}});
  for (std::string_view kw : keywords())
    items.push_back({{"label", std::string(kw)},
                     {"kind", kKeywordItem},
                     {"sortText", "3" + std::string(kw)}});
  return items;
}

} // namespace blk::lsp
