//===- Autotune.cpp - `@autotune(key = …, bucket = …, restore = …, zero = …)` -===//
//
// Expects the kernel's parameters built (KernelBuilder::buildParams).
// Guarantees KernelInfo::autotune (set iff the kernel has `@autotune`) and
// KernelInfo::autotuneKey: key names are runtime integer parameters,
// `restore`/`zero` name pointer parameters, each at most once, `bucket` is
// `pow2`, `exact` or strictly ascending positive integer literals. Every
// other spelling is an error at the offending name with a did-you-mean (a
// keyword given twice is the parser's error, parse_duplicate_named_arg).
// Tests: tests/lit/sema/fail_sema_autotune_*.blk, render_autotune.blk.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include "blk/Sema/Suggest.h"

#include <algorithm>
#include <map>

namespace blk::sema::detail {

namespace {

const std::vector<std::string> kKeywords = {"key", "bucket", "restore", "zero"};

/// Parses one `@autotune` into `k`, reporting every mistake.
class AutotuneParser {
public:
  AutotuneParser(Analyzer &a, KernelInfo &k) : a(a), k(k) {}

  void parse(const ast::Attribute *attr);

private:
  void parseBucket(const ast::Argument *arg, AutotuneInfo &info);
  /// The parameter names of `key = [...]` (integers) or `restore`/`zero`
  /// (pointers); `taken` holds the names the other pointer list took.
  std::vector<std::string> parseNames(const ast::Argument *arg, bool pointers,
                                      const std::map<std::string, std::string> &taken);
  /// Why `p` cannot be listed (empty when it can).
  static std::string mismatch(const KernelParam &p, bool pointers, const std::string &keyword);
  DiagBuilder reportName(const ast::Expr *e, const std::string &text, bool pointers,
                         const std::string &keyword);

  Analyzer &a;
  KernelInfo &k;
};

} // namespace

std::string AutotuneParser::mismatch(const KernelParam &p, bool pointers,
                                     const std::string &keyword) {
  if (p.type.isError())
    return "";
  if (pointers) {
    if (p.isConst || !p.type.isPointerLike())
      return "`" + p.name + "` is " + (p.isConst ? "a const parameter" : "`" + p.typeSpelling + "`") +
             "; `" + keyword + "` names the buffers a timed run " +
             (keyword == "zero" ? "accumulates into" : "changes");
    return "";
  }
  if (p.isConst)
    return "`" + p.name + "` is a const parameter: each config fixes its value, so it cannot "
                          "choose between configs";
  if (p.type.isPointerLike() || !p.type.isIntLike() || p.type.isBoolLike())
    return "`" + p.name + "` is `" + p.typeSpelling +
           "`; the key names the integer arguments (sizes) a config is chosen for";
  return "";
}

DiagBuilder AutotuneParser::reportName(const ast::Expr *e, const std::string &text,
                                       bool pointers, const std::string &keyword) {
  if (pointers)
    return a.report(DiagId::sema_autotune_pointer, e->getRange(), {text, keyword, k.name});
  return a.report(DiagId::sema_autotune_key, e->getRange(), {text, k.name});
}

std::vector<std::string>
AutotuneParser::parseNames(const ast::Argument *arg, bool pointers,
                           const std::map<std::string, std::string> &taken) {
  std::vector<std::string> names;
  auto *list = ast::dyn_cast<ast::ListExpr>(arg->value);
  if (!list) {
    a.report(DiagId::sema_invalid_attribute, arg->value->getRange(),
             {"autotune", "`" + arg->name + "` takes a list of " +
                              (pointers ? "pointer parameters, as in `" + arg->name + " = [out]`"
                                        : std::string("integer parameters, as in `key = [M, N]`"))});
    return names;
  }
  std::vector<std::string> candidates;
  for (const KernelParam &p : k.params)
    if (mismatch(p, pointers, arg->name).empty() && !p.type.isError())
      candidates.push_back(p.name);
  std::map<std::string, const ast::Expr *> seen;
  for (const ast::Expr *e : list->elements) {
    auto *n = ast::dyn_cast<ast::NameExpr>(e);
    if (!n) {
      reportName(e, a.sourceText(e->getRange()), pointers, arg->name)
          .note(DiagId::note_sema_hint, SourceRange(), {"list parameters by name"});
      continue;
    }
    auto it = std::find_if(k.params.begin(), k.params.end(),
                           [&](const KernelParam &p) { return p.name == n->name; });
    if (it == k.params.end()) {
      DiagBuilder d = reportName(e, n->name, pointers, arg->name);
      if (std::optional<std::string> near = closestName(n->name, candidates))
        d.note(DiagId::note_sema_hint, SourceRange(), {didYouMean(*near)});
      continue;
    }
    if (std::string why = mismatch(*it, pointers, arg->name); !why.empty()) {
      reportName(e, n->name, pointers, arg->name).note(DiagId::note_sema_hint, SourceRange(), {why});
      continue;
    }
    if (it->type.isError())
      continue;
    if (auto first = seen.find(n->name); first != seen.end()) {
      a.report(DiagId::sema_invalid_attribute, e->getRange(),
               {"autotune", "`" + n->name + "` is listed twice in `" + arg->name + "`"})
          .note(DiagId::note_previous_here, first->second->getRange(), {n->name});
      continue;
    }
    if (auto other = taken.find(n->name); other != taken.end()) {
      a.report(DiagId::sema_invalid_attribute, e->getRange(),
               {"autotune", "`" + n->name + "` is in both `" + other->second + "` and `" +
                                arg->name + "`: a timed run either restores a buffer or zeroes it"});
      continue;
    }
    seen[n->name] = e;
    names.push_back(n->name);
  }
  return names;
}

void AutotuneParser::parseBucket(const ast::Argument *arg, AutotuneInfo &info) {
  const ast::Expr *v = arg->value;
  static const std::string kForms =
      "expected `pow2`, `exact` or ascending bounds, as in `bucket = [1, 16, 64, 256]`";
  if (auto *n = ast::dyn_cast<ast::NameExpr>(v)) {
    if (n->name == "pow2" || n->name == "exact") {
      info.bucket = n->name == "pow2" ? AutotuneBucket::Pow2 : AutotuneBucket::Exact;
      return;
    }
    DiagBuilder d = a.report(DiagId::sema_invalid_attribute, v->getRange(),
                             {"autotune", "unknown bucket `" + n->name + "`; " + kForms});
    if (std::optional<std::string> near = closestName(n->name, {"pow2", "exact"}))
      d.note(DiagId::note_sema_hint, SourceRange(), {didYouMean(*near)});
    return;
  }
  auto *list = ast::dyn_cast<ast::ListExpr>(v);
  if (!list || list->elements.empty()) {
    a.report(DiagId::sema_invalid_attribute, v->getRange(), {"autotune", kForms});
    return;
  }
  std::vector<int64_t> bounds;
  for (const ast::Expr *e : list->elements) {
    auto *lit = ast::dyn_cast<ast::IntLiteralExpr>(e);
    std::string why;
    if (!lit)
      why = "bucket bounds are integer literals, as in `bucket = [1, 16, 64, 256]`";
    else if (lit->value == 0 || lit->value > uint64_t(INT64_MAX))
      why = "bucket bounds must be positive 64-bit integers";
    else if (!bounds.empty() && int64_t(lit->value) <= bounds.back())
      why = "bucket bounds must be strictly ascending: `" + lit->spelling + "` follows `" +
            std::to_string(bounds.back()) + "`";
    if (!why.empty()) {
      a.report(DiagId::sema_invalid_attribute, e->getRange(), {"autotune", why});
      return;
    }
    bounds.push_back(int64_t(lit->value));
  }
  info.bucket = AutotuneBucket::List;
  info.bucketBounds = std::move(bounds);
}

void AutotuneParser::parse(const ast::Attribute *attr) {
  if (k.autotune) {
    a.report(DiagId::sema_invalid_attribute, attr->getRange(),
             {"autotune", "a kernel has at most one `@autotune`"});
    return;
  }
  AutotuneInfo info;
  std::map<std::string, std::string> pointerLists; // name -> `restore` or `zero`
  for (const ast::Argument *arg : attr->args) {
    if (!arg->isNamed()) {
      a.report(DiagId::sema_invalid_attribute, arg->getRange(),
               {"autotune", "arguments are named: `key = [M, N]`, `bucket = pow2`, "
                            "`restore = [p]`, `zero = [q]`"});
      continue;
    }
    if (std::find(kKeywords.begin(), kKeywords.end(), arg->name) == kKeywords.end()) {
      DiagBuilder d = a.report(DiagId::sema_invalid_attribute, arg->nameRange,
                               {"autotune", "unknown keyword `" + arg->name +
                                                "` (keywords: `key`, `bucket`, `restore`, `zero`)"});
      if (std::optional<std::string> near = closestName(arg->name, kKeywords))
        d.note(DiagId::note_sema_hint, SourceRange(), {didYouMean(*near)});
      continue;
    }
    if (arg->name == "bucket") {
      parseBucket(arg, info);
    } else if (arg->name == "key") {
      k.autotuneKey = parseNames(arg, false, {});
    } else {
      std::vector<std::string> names = parseNames(arg, true, pointerLists);
      for (const std::string &name : names)
        pointerLists[name] = arg->name;
      (arg->name == "restore" ? info.restore : info.zero) = std::move(names);
    }
  }
  k.autotune = std::move(info);
}

void buildAutotune(Analyzer &analyzer, KernelInfo &kernel, const ast::Attribute *attr) {
  AutotuneParser(analyzer, kernel).parse(attr);
}

} // namespace blk::sema::detail
