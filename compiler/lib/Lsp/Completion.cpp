//===- Completion.cpp - textDocument/completion ---------------------------===//
//
// Offers, at a cursor: after `@`, the attributes; in `@autotune(`, its
// keywords (after `bucket =`, `pow2` and `exact`); after `module.`, the fns
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

#include <optional>
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

static json docItems(const std::vector<BuiltinDoc> &docs, int kind) {
  json items = json::array();
  for (const BuiltinDoc &doc : docs)
    items.push_back({{"label", std::string(doc.name)},
                     {"kind", kind},
                     {"detail", std::string(doc.signature)},
                     {"documentation", std::string(doc.doc)}});
  return items;
}

/// Inside the parentheses of `@autotune(`, at the start of an argument
/// (`key`, `bucket`, …) or after `bucket =` (`pow2`, `exact`): the items
/// there; nullopt elsewhere. Text only, so it works while the line is
/// half typed.
static std::optional<json> autotuneItems(std::string_view text, uint32_t wordBegin) {
  int depth = 0;
  size_t i = wordBegin;
  while (i > 0) {
    char c = text[--i];
    if (c == ')' || c == ']')
      ++depth;
    else if ((c == '(' || c == '[') && depth > 0)
      --depth;
    else if (c == '[' || c == ';' || c == '{' || c == '}')
      return std::nullopt; // inside a list, or past the declaration's start
    else if (c == '(')
      break;
  }
  if (i == 0 || text[i] != '(')
    return std::nullopt;
  std::string_view before = text.substr(0, i);
  while (!before.empty() && before.back() == ' ')
    before.remove_suffix(1);
  if (!before.ends_with("@autotune"))
    return std::nullopt;
  size_t prev = wordBegin;
  while (prev > i + 1 && (text[prev - 1] == ' ' || text[prev - 1] == '\t'))
    --prev;
  char last = text[prev - 1];
  if (last == '(' || last == ',')
    return docItems(autotuneKeywordDocs(), kPropertyItem);
  if (last == '=') {
    std::string_view lhs = text.substr(0, prev - 1);
    while (!lhs.empty() && (lhs.back() == ' ' || lhs.back() == '\t'))
      lhs.remove_suffix(1);
    if (lhs.ends_with("bucket"))
      return docItems(bucketDocs(), kConstantItem);
  }
  return std::nullopt;
}

json completionAt(const Analysis *analysis, std::string_view text,
                  uint32_t offset, uint32_t analysedOffset) {
  if (offset > text.size())
    offset = uint32_t(text.size());
  uint32_t wordBegin = offset;
  identifierAt(text, offset, &wordBegin);
  char before = wordBegin > 0 ? text[wordBegin - 1] : '\0';
  if (before == '@')
    return docItems(attributeDocs(), kPropertyItem);
  if (std::optional<json> items = autotuneItems(text, wordBegin))
    return *items;

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
