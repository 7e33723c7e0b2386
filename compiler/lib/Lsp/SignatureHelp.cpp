//===- SignatureHelp.cpp - textDocument/signatureHelp ---------------------===//
//
// Signature help is asked for while a call is being typed, when the
// statement usually does not parse, so the open call is found in the text:
// a forward scan to the cursor (skipping comments and strings) keeps the
// stack of open brackets; the innermost `(` after a name is the call, its
// top-level commas give the argument index, and `name:` at the start of the
// current argument selects that keyword parameter. Built-ins use the
// signatures of BuiltinDocs; `fn`s (of the document or an imported module,
// `mod.f(`) their declared parameters, from the current analysis or the
// last good one. Tests: tests/lit/lsp/signature-help.test.
//
//===----------------------------------------------------------------------===//

#include "AstQuery.h"
#include "blk/Lsp/BuiltinDocs.h"
#include "blk/Lsp/Features.h"

#include <cctype>

namespace blk::lsp {

using namespace blk::ast;
using nlohmann::json;

namespace {
/// A call whose `(` is open at the cursor.
struct OpenCall {
  std::string module; ///< `mod` of `mod.f(`, else empty
  std::string callee;
  unsigned argIndex = 0;
  std::string keyword; ///< `name` when the argument starts `name:`
  std::string partial; ///< the argument when it is one word so far
};

struct Bracket {
  char open;
  uint32_t pos;
  unsigned commas = 0;
  uint32_t argBegin; ///< just after `(` or the last top-level comma
};
} // namespace

static bool isIdent(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

/// The identifier ending just before `end` (spaces skipped); its start in
/// `begin`.
static std::string_view wordBefore(std::string_view text, uint32_t end,
                                   uint32_t &begin) {
  while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == '\t'))
    --end;
  begin = end;
  while (begin > 0 && isIdent(text[begin - 1]))
    --begin;
  return text.substr(begin, end - begin);
}

static std::optional<OpenCall> openCallAt(std::string_view text,
                                          uint32_t offset) {
  std::vector<Bracket> stack;
  offset = std::min<uint32_t>(offset, uint32_t(text.size()));
  for (uint32_t i = 0; i < offset; ++i) {
    char c = text[i];
    if (c == '/' && i + 1 < offset && text[i + 1] == '/') {
      while (i < offset && text[i] != '\n')
        ++i;
    } else if (c == '/' && i + 1 < offset && text[i + 1] == '*') {
      size_t close = text.find("*/", i + 2);
      if (close == std::string_view::npos || close + 2 > offset)
        return std::nullopt; // the cursor is inside a comment
      i = uint32_t(close + 1);
    } else if (c == '"') {
      for (++i; i < offset && text[i] != '"' && text[i] != '\n'; ++i)
        if (text[i] == '\\')
          ++i;
      if (i >= offset)
        return std::nullopt; // inside a string
    } else if (c == '(' || c == '[' || c == '{') {
      stack.push_back({c, i, 0, i + 1});
    } else if (c == ')' || c == ']' || c == '}') {
      if (!stack.empty())
        stack.pop_back();
      // A `}` closes every call left open inside its block.
      if (c == '}')
        while (!stack.empty() && stack.back().open != '{')
          stack.pop_back();
    } else if (c == ',' && !stack.empty()) {
      ++stack.back().commas;
      stack.back().argBegin = i + 1;
    } else if (c == ';') {
      // A statement ended: calls before it are not open any more.
      while (!stack.empty() && stack.back().open != '{')
        stack.pop_back();
    }
  }
  if (stack.empty() || stack.back().open != '(')
    return std::nullopt;
  const Bracket &b = stack.back();
  OpenCall call;
  uint32_t begin = 0;
  call.callee = std::string(wordBefore(text, b.pos, begin));
  if (call.callee.empty() ||
      std::isdigit(static_cast<unsigned char>(call.callee[0])))
    return std::nullopt;
  if (begin > 0 && text[begin - 1] == '.') {
    uint32_t moduleBegin = 0;
    call.module = std::string(wordBefore(text, begin - 1, moduleBegin));
  }
  call.argIndex = b.commas;
  // `name:` at the start of the current argument.
  std::string_view arg = text.substr(b.argBegin, offset - b.argBegin);
  size_t s = arg.find_first_not_of(" \t\r\n");
  if (s != std::string_view::npos) {
    size_t e = s;
    while (e < arg.size() && isIdent(arg[e]))
      ++e;
    size_t colon = arg.find_first_not_of(" \t", e);
    if (e > s && colon != std::string_view::npos && arg[colon] == ':')
      call.keyword = std::string(arg.substr(s, e - s));
    else if (e > s &&
             arg.find_first_not_of(" \t\r\n", e) == std::string_view::npos)
      call.partial = std::string(arg.substr(s, e - s));
  }
  return call;
}

/// The parameters of a signature text `name(a, b: x, …) -> T`, split at
/// top-level commas.
static std::vector<std::string> splitParams(std::string_view signature) {
  std::vector<std::string> params;
  size_t open = signature.find('(');
  if (open == std::string_view::npos)
    return params;
  int depth = 0;
  bool quoted = false;
  std::string current;
  for (size_t i = open + 1; i < signature.size(); ++i) {
    char c = signature[i];
    if (c == '"')
      quoted = !quoted;
    if (!quoted && (c == '(' || c == '['))
      ++depth;
    if (!quoted && (c == ')' || c == ']') && depth-- == 0)
      break;
    if (!quoted && c == ',' && depth == 0) {
      params.push_back(current);
      current.clear();
      continue;
    }
    if (!(current.empty() && c == ' '))
      current += c;
  }
  if (!current.empty() && current != "...")
    params.push_back(current);
  return params;
}

/// `mask` of `mask: m`, `ptrs` of `ptrs`.
static std::string_view paramName(std::string_view param) {
  size_t e = 0;
  while (e < param.size() && isIdent(param[e]))
    ++e;
  return param.substr(0, e);
}

static json signatureResult(std::string label, std::string doc,
                            const std::vector<std::string> &params,
                            const OpenCall &call) {
  int active = std::min<int>(int(call.argIndex), int(params.size()) - 1);
  // `name:` selects that parameter; a bare word being typed selects the
  // one keyword parameter it starts (`oth` -> `other: v`).
  const std::string &word = call.keyword.empty() ? call.partial : call.keyword;
  if (!word.empty()) {
    int match = -1, matches = 0;
    for (size_t i = 0; i < params.size(); ++i) {
      std::string_view name = paramName(params[i]);
      bool isKeyword = params[i].find(':') != std::string::npos;
      if (call.keyword.empty() ? isKeyword && name.starts_with(word)
                               : name == word) {
        match = int(i);
        ++matches;
      }
    }
    if (!call.keyword.empty())
      active = match;
    else if (matches == 1)
      active = match;
  }
  json parameters = json::array();
  for (const std::string &p : params)
    parameters.push_back({{"label", p}});
  json signature = {{"label", std::move(label)},
                    {"parameters", std::move(parameters)}};
  if (!doc.empty())
    signature["documentation"] = {{"kind", "markdown"}, {"value", doc}};
  json result = {{"signatures", json::array({signature})},
                 {"activeSignature", 0}};
  result["activeParameter"] = active < 0 ? json(nullptr) : json(active);
  return result;
}

/// The `fn` named `name` in `analysis`'s document, or in the module it
/// imports as `module`.
static const FunctionDecl *findFn(const Analysis *analysis,
                                  const std::string &module,
                                  const std::string &name) {
  if (!analysis || !analysis->module)
    return nullptr;
  const Module *m =
      module.empty() ? analysis->module : importedModule(*analysis, module);
  if (!m)
    return nullptr;
  for (const Decl *d : m->decls)
    if (auto *fn = dyn_cast<FunctionDecl>(d);
        fn && !fn->isKernel && fn->name == name)
      return fn;
  return nullptr;
}

/// Source text of `range` in `analysis`.
static std::string textOf(const Analysis &analysis, SourceRange range) {
  std::string_view text = analysis.sourceManager().getText(range.begin.file);
  if (!range.isValid() || range.end.offset > text.size())
    return "";
  return std::string(text.substr(range.begin.offset, range.length()));
}

static json fnSignature(const Analysis &analysis, const FunctionDecl *fn,
                        const OpenCall &call) {
  std::vector<std::string> params;
  for (const Param *p : fn->params)
    params.push_back(
        (p->isConst ? "const " : "") +
        (p->type ? p->name + ": " + textOf(analysis, p->type->getRange())
                 : p->name));
  std::string label = "fn " + fn->name + "(";
  for (size_t i = 0; i < params.size(); ++i)
    label += (i ? ", " : "") + params[i];
  label += ")";
  if (fn->returnType)
    label += " -> " + textOf(analysis, fn->returnType->getRange());
  OpenCall positional = call;
  positional.keyword.clear(); // fns take positional arguments only
  positional.partial.clear();
  return signatureResult(label, "", params, positional);
}

json signatureHelpAt(const Analysis *current, const Analysis *lastGood,
                     std::string_view text, uint32_t offset) {
  std::optional<OpenCall> call = openCallAt(text, offset);
  if (!call)
    return nullptr;
  for (const Analysis *a : {current, lastGood})
    if (const FunctionDecl *fn = findFn(a, call->module, call->callee))
      return fnSignature(*a, fn, *call);
  if (call->module.empty())
    if (const BuiltinDoc *doc = findBuiltinDoc(call->callee))
      return signatureResult(std::string(doc->signature), std::string(doc->doc),
                             splitParams(doc->signature), *call);
  return nullptr;
}

} // namespace blk::lsp
