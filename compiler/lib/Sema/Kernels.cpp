//===- Kernels.cpp - kernel params, attributes, specialisations -----------===//
//
// Expects the main module's scope (imports and global consts done).
// Guarantees for every kernel: a KernelInfo with params (spellings, hints,
// runtime indices), `@autotune` (Autotune.cpp), grid source, and one
// Specialization per `@config` (or one from `-D`), each with its body
// analysed and its `@grid` and `@requires` folded (LaunchExpr.cpp).
// Diagnostics of the specialisations are merged (ConfigDiagnostics.cpp):
// one per mistake, with a note listing the configs it fails in.
// Tests: tests/lit/sema/fail_arange_pow2_seed.blk, config_*.blk.
//
//===----------------------------------------------------------------------===//
#include "SemaImpl.h"

#include "blk/Sema/Suggest.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <set>

namespace blk::sema::detail {

/// `@config` keys that shape the launch rather than name a const parameter
/// (sorted: the did-you-mean lists start from them).
static const std::vector<std::string> &launchKeys() {
  static const std::vector<std::string> kKeys = {"exp2_on_fma", "num_stages", "num_warps",
                                                 "persistent",  "programs_per_sm", "tma",
                                                 "warp_specialize"};
  return kKeys;
}

} // namespace blk::sema::detail

bool blk::sema::isLaunchKey(const std::string &name) {
  return std::binary_search(detail::launchKeys().begin(), detail::launchKeys().end(), name);
}

namespace blk::sema::detail {

/// The launch keys that are `true` or `false`.
static bool isBooleanLaunchKey(const std::string &name) {
  return name == "warp_specialize" || name == "persistent" || name == "tma";
}

/// Parses a `-D` value: an integer (decimal/0x/0b, optional sign) or a boolean.
static std::optional<ConstValue> parseDefineValue(std::string text) {
  if (text == "true" || text == "false")
    return ConstValue::boolean(text == "true");
  text.erase(std::remove(text.begin(), text.end(), '_'), text.end());
  bool neg = !text.empty() && text[0] == '-';
  std::string_view digits(text);
  if (neg)
    digits.remove_prefix(1);
  int base = 10;
  if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X'))
    base = 16, digits.remove_prefix(2);
  else if (digits.size() > 2 && digits[0] == '0' && (digits[1] == 'b' || digits[1] == 'B'))
    base = 2, digits.remove_prefix(2);
  if (digits.empty())
    return std::nullopt;
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v, base);
  if (ec != std::errc() || ptr != digits.data() + digits.size())
    return std::nullopt;
  return ConstValue::integer(neg ? -v : v);
}

namespace {
/// Per-kernel construction of params, attributes and specialisations.
class KernelBuilder {
public:
  KernelBuilder(Analyzer &a, ModuleScope &scope,
                const std::map<std::string, ConstValue> &defines)
      : a(a), scope(scope), defines(defines),
        checker(a, a.result.globals, scope, SpecContext{}) {}

  void build(KernelInfo &k);

private:
  void buildParams(KernelInfo &k);
  void buildHints(KernelParam &kp);
  void buildAttributes(KernelInfo &k, std::vector<const ast::Attribute *> &configs);
  void buildSpecialize(KernelInfo &k, const ast::Attribute *attr);
  void buildSpecs(KernelInfo &k, const std::vector<const ast::Attribute *> &configs);
  void checkConfigValue(const KernelInfo &k, const ast::Argument *arg, const ConstValue &v);
  /// `num_warps`, `num_stages`, `programs_per_sm`, `warp_specialize`,
  /// `persistent`, `tma` and `exp2_on_fma` from `values` into `s`; reports
  /// a launch they cannot make.
  void readLaunchKeys(const KernelInfo &k, const ast::Attribute *attr,
                      const std::map<std::string, ConstValue> &values, Specialization &s);
  void analyzeSpec(KernelInfo &k, Specialization &s, std::vector<Diagnostic> &sink);
  void warnUnmaskedStores(const KernelInfo &k);

  Analyzer &a;
  ModuleScope &scope;
  const std::map<std::string, ConstValue> &defines;
  BodyChecker checker; // module scope: types, @config values
  std::vector<const ast::Expr *> gridExprs;
  std::vector<const ast::Expr *> requiresExprs; ///< one per `@requires`
};
} // namespace

void KernelBuilder::buildHints(KernelParam &kp) {
  for (const ast::Attribute *h : kp.decl->hints) {
    bool aligned = h->name == "aligned", multiple = h->name == "multiple_of";
    if (!aligned && !multiple) {
      DiagBuilder d = a.report(DiagId::sema_unknown_attribute, h->nameRange, {h->name});
      if (std::optional<std::string> near = closestName(h->name, {"aligned", "multiple_of"}))
        d.note(DiagId::note_sema_hint, SourceRange(), {didYouMean("@" + *near)});
      continue;
    }
    if (h->args.size() != 1 || h->args[0]->isNamed()) {
      a.report(DiagId::sema_invalid_attribute, h->getRange(),
               {h->name, "expected one integer, as in `@" + h->name + "(16)`"});
      continue;
    }
    const ast::Expr *e = h->args[0]->value;
    ExprInfo info = checker.checkExpr(e);
    std::optional<int64_t> v = checker.requireConstInt(e, info, "the hint value");
    if (!v || kp.type.isError())
      continue;
    if (aligned && !kp.type.isPointerLike()) {
      a.report(DiagId::sema_invalid_attribute, h->getRange(),
               {h->name, "only pointer parameters can be aligned"});
    } else if (multiple && !kp.type.isIntLike()) {
      a.report(DiagId::sema_invalid_attribute, h->getRange(),
               {h->name, "only integer parameters can have `@multiple_of`"});
    } else if (*v <= 0 || (aligned && !isPowerOfTwo(*v))) {
      a.report(DiagId::sema_invalid_attribute, e->getRange(),
               {h->name, aligned ? "the alignment must be a positive power of two"
                                 : "the value must be positive"});
    } else {
      (aligned ? kp.aligned : kp.multipleOf) = *v;
    }
  }
}

void KernelBuilder::buildParams(KernelInfo &k) {
  for (const ast::Param *p : k.decl->params) {
    KernelParam kp;
    kp.decl = p;
    kp.name = p->name;
    kp.isConst = p->isConst;
    if (!p->type) {
      if (p->isConst) {
        kp.type = Type::scalar(ScalarKind::I32); // `const BLOCK` defaults to i32
      } else {
        a.report(DiagId::sema_kernel_param, p->nameRange,
                 {p->name, "needs a type, as in `" + p->name + ": i32` or `" + p->name + ": *f32`"});
      }
    } else {
      kp.type = checker.resolveType(p->type);
      if (kp.type.isBlock()) {
        a.report(DiagId::sema_kernel_param, p->type->getRange(),
                 {p->name, "cannot be a block; kernel parameters are scalars or pointers"});
        kp.type = Type::error();
      } else if (kp.type.isScalar() && !kp.type.isPointerLike() && isFp8(kp.type.elem())) {
        // The runtime passes scalars by value in their C++ type; fp8 has none.
        a.report(DiagId::sema_kernel_param, p->type->getRange(),
                 {p->name, "cannot be an fp8 scalar; pass an `f32` (and convert it with `as`) "
                           "or a pointer to fp8"});
        kp.type = Type::error();
      } else if (p->isConst && !kp.type.isError() && !kp.type.isIntLike()) {
        a.report(DiagId::sema_kernel_param, p->type->getRange(),
                 {p->name, "is `const`, so it must be an integer or `bool`"});
        kp.type = Type::error();
      }
    }
    if (!kp.type.isError())
      kp.typeSpelling = kp.type.str();
    buildHints(kp);
    unsigned index = unsigned(k.params.size());
    if (p->isConst) {
      k.constParams.push_back(index);
    } else {
      kp.runtimeIndex = int(k.runtimeParams.size());
      k.runtimeParams.push_back(index);
    }
    for (const KernelParam &other : k.params)
      if (other.name == p->name)
        a.report(DiagId::sema_redefinition, p->nameRange, {p->name})
            .note(DiagId::note_sema_previous_binding, other.decl->nameRange, {p->name});
    k.params.push_back(std::move(kp));
  }
}

void KernelBuilder::buildAttributes(KernelInfo &k,
                                    std::vector<const ast::Attribute *> &configs) {
  bool sawGrid = false;
  for (const ast::Attribute *attr : k.decl->attributes) {
    if (attr->name == "config") {
      configs.push_back(attr);
    } else if (attr->name == "grid") {
      if (sawGrid)
        a.report(DiagId::sema_invalid_attribute, attr->getRange(),
                 {"grid", "a kernel has at most one `@grid`"});
      sawGrid = true;
      if (attr->args.empty() || attr->args.size() > 3)
        a.report(DiagId::sema_invalid_attribute, attr->getRange(),
                 {"grid", "expected 1 to 3 expressions, got " + std::to_string(attr->args.size())});
      for (const ast::Argument *arg : attr->args) {
        if (arg->isNamed() || gridExprs.size() == 3)
          continue;
        gridExprs.push_back(arg->value);
        k.gridRanges.push_back(arg->value->getRange());
        k.gridSource.push_back(a.sourceText(arg->value->getRange()));
      }
    } else if (attr->name == "autotune") {
      buildAutotune(a, k, attr);
    } else if (attr->name == "requires") {
      if (attr->args.size() != 1 || attr->args[0]->isNamed()) {
        a.report(DiagId::sema_invalid_attribute, attr->getRange(),
                 {"requires", "expected one condition, as in `@requires(n_cols <= BLOCK)`"});
        continue;
      }
      requiresExprs.push_back(attr->args[0]->value);
    } else if (attr->name == "specialize") {
      buildSpecialize(k, attr);
    } else {
      DiagBuilder d = a.report(DiagId::sema_unknown_attribute, attr->nameRange, {attr->name});
      if (std::optional<std::string> near =
              closestName(attr->name, {"autotune", "config", "grid", "requires", "specialize"}))
        d.note(DiagId::note_sema_hint, SourceRange(), {didYouMean("@" + *near)});
    }
  }
}

void KernelBuilder::buildSpecialize(KernelInfo &k, const ast::Attribute *attr) {
  if (!k.specialize.empty() || attr->args.empty()) {
    a.report(DiagId::sema_invalid_attribute, attr->getRange(),
             {"specialize", k.specialize.empty() ? "expected integer parameters, as in "
                                                   "`@specialize(stride_x)`"
                                                 : "a kernel has at most one `@specialize`"});
    return;
  }
  for (const ast::Argument *arg : attr->args) {
    auto *n = ast::dyn_cast<ast::NameExpr>(arg->value);
    auto it = std::find_if(k.params.begin(), k.params.end(), [&](const KernelParam &p) {
      return n && !arg->isNamed() && p.name == n->name;
    });
    std::string why;
    if (it == k.params.end())
      why = "`" + a.sourceText(arg->getRange()) + "` is not a parameter of `" + k.name + "`";
    else if (it->isConst || !it->type.isIntLike() || it->type.isBoolLike())
      why = "`" + it->name + "` is not a runtime integer parameter";
    else if (std::count(k.specialize.begin(), k.specialize.end(), unsigned(it - k.params.begin())))
      why = "`" + it->name + "` is listed twice";
    else if (k.specialize.size() == kMaxSpecialized)
      why = "at most " + std::to_string(kMaxSpecialized) +
            " parameters (each one triples the entries compiled)";
    if (!why.empty()) {
      a.report(DiagId::sema_invalid_attribute, arg->getRange(), {"specialize", why});
      continue;
    }
    k.specialize.push_back(unsigned(it - k.params.begin()));
  }
}

/// What a `@config` value must be for its parameter: an integer that fits
/// an integer parameter's type, a boolean for `i1`, a number for a float;
/// the launch keys take integers, but `warp_specialize` and `persistent`
/// booleans. Reports
/// it otherwise.
/// (A `-D` value is only parsed as an integer or a boolean, in
/// analyzeKernels, not range-checked against the parameter.)
void KernelBuilder::checkConfigValue(const KernelInfo &k, const ast::Argument *arg,
                                     const ConstValue &v) {
  bool flag = isBooleanLaunchKey(arg->name);
  std::string typeName = flag ? "bool" : "i32";
  ScalarKind kind = flag ? ScalarKind::I1 : ScalarKind::I32;
  for (const KernelParam &p : k.params)
    if (p.isConst && p.name == arg->name) {
      typeName = p.typeSpelling;
      kind = p.type.elem();
    }
  std::string want;
  if (kind == ScalarKind::I1) {
    if (!v.isBool())
      want = "`true` or `false`";
  } else if (isFloat(kind)) {
    if (v.isBool())
      want = "a number";
  } else if (!v.isInt()) {
    want = "an integer";
  } else {
    unsigned w = bitWidth(kind);
    int64_t x = v.getInt();
    bool fits = isUnsigned(kind) ? x >= 0 && (w == 64 || x <= int64_t((uint64_t(1) << w) - 1))
                                 : w == 64 || (x >= -(int64_t(1) << (w - 1)) &&
                                               x <= (int64_t(1) << (w - 1)) - 1);
    if (!fits)
      want = "an integer that fits it";
  }
  if (!want.empty())
    a.report(DiagId::sema_config_value_type, arg->value->getRange(),
             {arg->name, typeName, want, v.str()});
}

/// Why `warp_specialize` cannot have the consumer warps `numWarps`, or ""
/// when it can: the consumers are whole warpgroups, and with the producers
/// they must fit one program.
static std::string warpSpecializeProblem(int64_t numWarps) {
  if (numWarps % 4 != 0)
    return "`warp_specialize` needs `num_warps` a multiple of 4 (the consumers are whole "
           "warpgroups), found " +
           std::to_string(numWarps);
  if (numWarps + kProducerWarps > 32)
    return "`warp_specialize` adds " + std::to_string(kProducerWarps) +
           " producer warps to `num_warps` = " + std::to_string(numWarps) +
           ", more than the 32 warps of a program";
  return "";
}

void KernelBuilder::readLaunchKeys(const KernelInfo &k, const ast::Attribute *attr,
                                   const std::map<std::string, ConstValue> &values,
                                   Specialization &s) {
  auto invalid = [&](const std::string &why) {
    a.report(DiagId::sema_invalid_attribute, attr ? attr->getRange() : k.decl->nameRange,
             {"config", why});
  };
  if (auto it = values.find("num_warps"); it != values.end())
    s.numWarps = it->second.getInt();
  if (auto it = values.find("num_stages"); it != values.end())
    s.numStages = it->second.getInt();
  if (auto it = values.find("warp_specialize"); it != values.end())
    s.warpSpecialize = it->second.getBool(); // not a boolean: reported (checkConfigValue)
  if (auto it = values.find("tma"); it != values.end())
    s.tma = it->second.getBool();
  if (auto it = values.find("persistent"); it != values.end())
    s.persistent = it->second.getBool();
  // The loop blk-make-persistent adds walks the programs of one axis.
  if (s.persistent && gridExprs.size() != 1) {
    invalid(gridExprs.empty()
                ? "`persistent` needs a `@grid`: its programs are what each program walks"
                : "`persistent` needs a one-axis `@grid`, found " +
                      std::to_string(gridExprs.size()) + " axes");
    s.persistent = false;
  }
  if (auto it = values.find("exp2_on_fma"); it != values.end() && it->second.isInt()) {
    s.exp2OnFma = it->second.getInt(); // not an integer: reported (checkConfigValue)
    if (s.exp2OnFma != 0 && (s.exp2OnFma < 2 || s.exp2OnFma > 16)) {
      invalid("`exp2_on_fma` must be 0 (off) or from 2 to 16 (one exp2 in N on the FMA units)");
      s.exp2OnFma = 0;
    }
  }
  if (auto it = values.find("programs_per_sm"); it != values.end()) {
    s.programsPerSm = it->second.getInt();
    if (s.programsPerSm < 1 || s.programsPerSm > 32) {
      invalid("`programs_per_sm` must be from 1 to 32");
      s.programsPerSm = 0;
    }
  }
  if (!isPowerOfTwo(s.numWarps) || s.numWarps > 32 || s.numStages < 1) {
    invalid("`num_warps` must be a power of two from 1 to 32 and `num_stages` at least 1");
    s.numWarps = std::clamp<int64_t>(s.numWarps, 1, 32);
    s.numStages = std::max<int64_t>(s.numStages, 1);
  } else if (s.warpSpecialize) {
    std::string why = warpSpecializeProblem(s.numWarps);
    if (!why.empty()) {
      invalid(why);
      s.warpSpecialize = false;
    }
  }
  // An SM holds at most 2048 threads (sm_80/sm_90; fewer on sm_86/89):
  // a larger target is one ptxas cannot meet.
  int64_t threads = s.threads();
  if (s.programsPerSm * threads > 2048) {
    invalid("`programs_per_sm` = " + std::to_string(s.programsPerSm) + " of " +
            std::to_string(threads) + " threads is more than the 2048 threads an SM holds");
    s.programsPerSm = 0;
  }
}

void KernelBuilder::buildSpecs(KernelInfo &k,
                               const std::vector<const ast::Attribute *> &configs) {
  auto isConstParam = [&](const std::string &name) {
    for (unsigned i : k.constParams)
      if (k.params[i].name == name)
        return true;
    return false;
  };
  std::vector<const ast::Attribute *> sources = configs;
  if (sources.empty())
    sources.push_back(nullptr); // the single specialisation made from -D
  for (const ast::Attribute *attr : sources) {
    Specialization s;
    s.configAttr = attr;
    std::map<std::string, ConstValue> values;
    if (attr) {
      for (const ast::Argument *arg : attr->args) {
        if (!arg->isNamed()) {
          a.report(DiagId::sema_invalid_attribute, arg->getRange(),
                   {"config", "arguments are named, as in `@config(BLOCK = 128)`"});
          continue;
        }
        bool special = isLaunchKey(arg->name);
        if (!special && !isConstParam(arg->name)) {
          DiagBuilder d =
              a.report(DiagId::sema_unknown_config_param, arg->nameRange, {arg->name, k.name});
          std::vector<std::string> names = launchKeys();
          for (unsigned i : k.constParams)
            names.push_back(k.params[i].name);
          if (std::optional<std::string> near = closestName(arg->name, names))
            d.note(DiagId::note_sema_hint, SourceRange(), {didYouMean(*near)});
          continue;
        }
        ExprInfo info = checker.checkExpr(arg->value);
        if (info.type.isError())
          continue;
        if (!info.value) {
          DiagBuilder db = a.report(DiagId::sema_not_constant, arg->value->getRange(),
                                    {"the value of `" + arg->name + "`"});
          checker.addNonConstNote(db, arg->value);
          continue;
        }
        // A refused value is kept: the error stops the build, and its
        // absence would only add "has no value" errors.
        checkConfigValue(k, arg, *info.value);
        values[arg->name] = *info.value;
      }
    }
    for (const auto &[name, v] : defines) {
      if (isLaunchKey(name) || isConstParam(name)) {
        values[name] = v;
        s.fromDefines.push_back(name);
      }
    }
    readLaunchKeys(k, attr, values, s);
    for (unsigned i : k.constParams) {
      const KernelParam &p = k.params[i];
      auto it = values.find(p.name);
      if (it == values.end())
        continue; // reported per specialisation (analyzeSpec)
      ConstValue v = it->second;
      if (p.type.isBoolLike() && !v.isBool())
        v = ConstValue::boolean(v.getBool());
      else if (!p.type.isBoolLike() && !v.isInt())
        v = ConstValue::integer(v.getInt());
      s.config.push_back({p.name, v});
      s.label += (s.label.empty() ? "" : ", ") + p.name + "=" + v.str();
    }
    s.label += (s.label.empty() ? "" : ", ") + std::string("num_warps=") +
               std::to_string(s.numWarps);
    if (s.warpSpecialize)
      s.label += ", warp_specialize=true";
    if (s.persistent)
      s.label += ", persistent=true";
    s.entryName = mangleEntryName(k.name, s.config, s.numWarps, s.warpSpecialize, s.persistent);
    // `-D` overrides can make configs identical (and the entry name covers
    // every value that selects one): keep the first, so each entry is unique.
    auto same = std::find_if(k.specializations.begin(), k.specializations.end(),
                             [&](const Specialization &other) { return other.entryName == s.entryName; });
    if (same == k.specializations.end()) {
      k.specializations.push_back(std::move(s));
    } else if (attr && same->configAttr && s.fromDefines.empty() && same->fromDefines.empty()) {
      // Written twice in the source (only `num_stages`/`programs_per_sm`/
      // `tma`/`exp2_on_fma` differ, or nothing): say so rather than drop
      // one silently.
      a.report(DiagId::sema_duplicate_config, attr->getRange(), {s.entryName})
          .note(DiagId::note_previous_here, same->configAttr->getRange(), {"@config"})
          .note(DiagId::note_sema_hint, SourceRange(),
                {"an entry is named by its const values, `num_warps`, "
                 "`warp_specialize` and `persistent`; change one of them, or delete this "
                 "line"});
    }
  }
}

void KernelBuilder::analyzeSpec(KernelInfo &k, Specialization &s,
                                std::vector<Diagnostic> &sink) {
  a.sink = &sink;
  a.sinkErrors = 0;
  a.instanceCount = 0;
  a.unmaskedStores.clear();
  a.unmaskedLoads.clear();
  s.body = std::make_unique<FunctionInstance>();
  s.body->decl = k.decl;
  s.body->module = scope.module;
  BodyChecker body(a, *s.body, scope, SpecContext{&k, &s});
  for (unsigned i : k.constParams) {
    const KernelParam &p = k.params[i];
    bool has = std::any_of(s.config.begin(), s.config.end(),
                           [&](const ConfigValue &c) { return c.name == p.name; });
    if (has || p.type.isError())
      continue;
    DiagBuilder db = a.report(DiagId::sema_missing_const_value, p.decl->nameRange,
                              {p.name, k.name});
    db.note(DiagId::note_sema_give_value, SourceRange(), {p.name});
  }
  body.checkKernel(k, s);
  for (const ast::Expr *g : gridExprs) {
    ExprInfo info = body.checkExpr(g);
    if (info.type.isError())
      continue;
    if (!info.type.isIntLike() || !info.type.isScalar()) {
      a.report(DiagId::sema_grid_expr, g->getRange(),
               {"must be a scalar integer, found `" + info.type.str() + "`"});
      continue;
    }
    if (std::optional<GridNode> n = foldLaunchExpr(a, g, *s.body, k, LaunchExprKind::Grid))
      s.grid.push_back(std::move(*n));
  }
  if (!s.grid.empty() && s.grid.size() == gridExprs.size())
    s.gridJson = launchExprsJson(s.grid);
  foldRequirements(a, body, k, s, requiresExprs);
  warnUnmaskedStores(k);
  s.hasErrors = a.sinkErrors != 0;
  a.sink = nullptr;
}

/// Finds a `cdiv(n, …)` in a grid expression whose `n` is not a parameter
/// hinted `@multiple_of`: the grid then rounds up past `n`.
static const ast::CallExpr *roundingCdiv(const ast::Node *n, const KernelInfo &k) {
  if (auto *c = ast::dyn_cast<ast::CallExpr>(n)) {
    auto *callee = ast::dyn_cast<ast::NameExpr>(c->callee);
    if (callee && callee->name == "cdiv" && !c->args.empty()) {
      auto *num = ast::dyn_cast<ast::NameExpr>(c->args[0]->value);
      bool hinted = num && std::any_of(k.params.begin(), k.params.end(), [&](const KernelParam &p) {
                      return p.name == num->name && p.multipleOf;
                    });
      if (!hinted)
        return c;
    }
  }
  const ast::CallExpr *found = nullptr;
  ast::forEachChild(n, [&](const ast::Node *child) {
    if (!found)
      found = roundingCdiv(child, k);
  });
  return found;
}

void KernelBuilder::warnUnmaskedStores(const KernelInfo &k) {
  if (a.unmaskedStores.empty() && a.unmaskedLoads.empty())
    return;
  for (const ast::Expr *g : gridExprs) {
    const ast::CallExpr *cdiv = roundingCdiv(g, k);
    if (!cdiv)
      continue;
    for (const ast::CallExpr *store : a.unmaskedStores)
      a.report(DiagId::sema_store_unmasked, store->getRange(), {a.sourceText(cdiv->getRange())})
          .note(DiagId::note_sema_hint, cdiv->getRange(),
                {"the grid rounds up here: mask the store, e.g. `mask: offsets < n`"});
    for (const ast::CallExpr *load : a.unmaskedLoads)
      a.report(DiagId::sema_load_unmasked, load->getRange(), {a.sourceText(cdiv->getRange())})
          .note(DiagId::note_sema_hint, cdiv->getRange(),
                {"the grid rounds up here: mask the load, e.g. `mask: offsets < n, other: 0.0`"});
    return;
  }
}

void KernelBuilder::build(KernelInfo &k) {
  buildParams(k);
  std::vector<const ast::Attribute *> configs;
  buildAttributes(k, configs);
  buildSpecs(k, configs);
  std::vector<std::vector<Diagnostic>> sinks(k.specializations.size());
  for (size_t i = 0; i < k.specializations.size(); ++i)
    analyzeSpec(k, k.specializations[i], sinks[i]);
  mergeConfigDiagnostics(a, k, sinks);
}

void analyzeKernels(Analyzer &a, ModuleScope &scope) {
  std::map<std::string, ConstValue> defines;
  for (const auto &[name, text] : a.options.defines) {
    std::optional<ConstValue> v = parseDefineValue(text);
    if (!v) {
      a.report(DiagId::sema_bad_define, SourceRange(),
               {name + "=" + text, "the value must be an integer or `true`/`false`"});
      continue;
    }
    // Launch keys take their @config type: `-D warp_specialize=1` and
    // `-D num_warps=true` are refused as they are in a @config.
    if (isLaunchKey(name) && isBooleanLaunchKey(name) != v->isBool()) {
      a.report(DiagId::sema_bad_define, SourceRange(),
               {name + "=" + text, "`" + name + "` is " +
                                       (isBooleanLaunchKey(name) ? "`true` or `false`"
                                                                 : "an integer")});
      continue;
    }
    defines[name] = *v;
  }
  size_t count = 0;
  for (const ast::Decl *d : scope.module->decls)
    if (auto *f = ast::dyn_cast<ast::FunctionDecl>(d); f && f->isKernel)
      ++count;
  // Specialisations point at their KernelInfo: no reallocation afterwards.
  a.result.kernels.reserve(count);
  for (const ast::Decl *d : scope.module->decls) {
    auto *f = ast::dyn_cast<ast::FunctionDecl>(d);
    if (!f || !f->isKernel)
      continue;
    if (a.options.keptKernelDiagnostics && a.options.defines.empty())
      if (const std::vector<Diagnostic> *kept = a.options.keptKernelDiagnostics(*f)) {
        for (const Diagnostic &diag : *kept)
          a.accept(diag);
        ++a.result.skippedKernels;
        continue;
      }
    size_t before = a.diags.getDiagnostics().size();
    KernelInfo &k = a.result.kernels.emplace_back();
    k.decl = f;
    k.name = f->name;
    KernelBuilder(a, scope, defines).build(k);
    if (a.options.kernelAnalyzed && !a.diags.limitReached()) {
      const std::vector<Diagnostic> &all = a.diags.getDiagnostics();
      a.options.kernelAnalyzed(*f, std::vector<Diagnostic>(all.begin() + before, all.end()));
    }
  }
  // A -D that no kernel takes is most likely misspelt (kernels without it
  // ignore it by design, so it is a warning, once per name).
  std::vector<std::string> taken = launchKeys();
  for (const KernelInfo &k : a.result.kernels)
    for (unsigned i : k.constParams)
      taken.push_back(k.params[i].name);
  std::sort(taken.begin(), taken.end());
  for (const auto &[name, v] : defines) {
    if (std::binary_search(taken.begin(), taken.end(), name))
      continue;
    DiagBuilder d = a.report(DiagId::sema_unused_define, SourceRange(), {name});
    if (std::optional<std::string> near = closestName(name, taken))
      d.note(DiagId::note_sema_hint, SourceRange(), {didYouMean("-D " + *near + "=…")});
  }
}

} // namespace blk::sema::detail
