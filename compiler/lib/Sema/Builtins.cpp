//===- Builtins.cpp - signatures and typing of the §7 built-ins -----------===//
//
// Expects a call whose callee resolved to a built-in. Binds positional and
// named arguments against the built-in's signature, then types the call:
// program/creation/memory/shape/select/reduce/math/dot/misc groups of §7,
// with §8 rules 1 (arange/zeros/full shapes), 2 (mask/other/store value
// shapes), 4 (dot dimensions, reduction axes) and 5 (loads through pointers).
// Math and reductions are in BuiltinsMath.cpp.
// Tests: tests/lit/sema/fail_sema_mask_shape.blk, fail_sema_arange_not_pow2.blk, …
//
//===----------------------------------------------------------------------===//
#include "BuiltinChecker.h"

#include "blk/Sema/Suggest.h"

#include <map>
#include <set>

namespace blk::sema::detail {

namespace {
struct Signature {
  std::vector<const char *> params;
  unsigned required;
};
} // namespace

static const std::map<std::string, Signature> &signatures() {
  static const std::map<std::string, Signature> table = [] {
    std::map<std::string, Signature> t = {
        {"program_id", {{"axis"}, 1}},
        {"num_programs", {{"axis"}, 1}},
        {"arange", {{"start", "end"}, 2}},
        {"zeros", {{"shape", "dtype"}, 2}},
        {"full", {{"shape", "value", "dtype"}, 3}},
        // `cache_modifier`/`eviction_policy` are Triton's spellings of cache/evict.
        {"load", {{"pointer", "mask", "other", "cache", "evict", "volatile", "cache_modifier",
                   "eviction_policy"}, 1}},
        {"store", {{"pointer", "value", "mask", "cache", "evict", "cache_modifier",
                    "eviction_policy"}, 2}},
        {"atomic_cas", {{"pointer", "cmp", "val"}, 3}},
        {"broadcast_to", {{"x", "shape"}, 2}},
        {"reshape", {{"x", "shape"}, 2}},
        {"trans", {{"x", "dims"}, 1}},
        {"permute", {{"x", "dims"}, 2}},
        {"expand_dims", {{"x", "axis"}, 2}},
        {"where", {{"cond", "x", "y"}, 3}},
        {"maximum", {{"x", "y"}, 2}},
        {"minimum", {{"x", "y"}, 2}},
        {"clamp", {{"x", "min", "max"}, 3}},
        {"cumsum", {{"x", "axis"}, 1}},
        {"fma", {{"x", "y", "z"}, 3}},
        // `input_precision` is Triton's spelling of `precision`.
        {"dot", {{"a", "b", "acc", "precision", "input_precision"}, 2}},
        {"cdiv", {{"x", "div"}, 2}},
        {"multiple_of", {{"x", "values"}, 2}},
        {"max_contiguous", {{"x", "values"}, 2}},
        {"assert", {{"cond", "msg"}, 1}},
        {"range", {{"start", "end", "step"}, 1}},
        {"static_range", {{"start", "end", "step"}, 1}},
    };
    for (const char *n : {"atomic_add", "atomic_max", "atomic_min", "atomic_and", "atomic_or",
                          "atomic_xor", "atomic_xchg"})
      t[n] = {{"pointer", "value", "mask"}, 2};
    for (const char *n : {"sum", "max", "min", "prod", "argmax", "argmin"})
      t[n] = {{"x", "axis"}, 1};
    for (const char *n : {"exp", "exp2", "log", "log2", "sqrt", "rsqrt", "abs", "floor", "ceil",
                          "sin", "cos", "tanh", "erf", "sigmoid"})
      t[n] = {{"x"}, 1};
    t["print"] = {{}, 0}; // variadic, checked by hand
    return t;
  }();
  return table;
}

bool isBuiltinName(const std::string &name) { return signatures().count(name) != 0; }

std::vector<std::string> builtinNames() {
  std::vector<std::string> names;
  for (const auto &entry : signatures())
    names.push_back(entry.first);
  return names;
}

BuiltinChecker::BuiltinChecker(BodyChecker &c, const ast::CallExpr *call, std::string name)
    : c(c), a(c.analyzer), call(call), name(std::move(name)) {}

bool BuiltinChecker::bind() {
  const Signature &sig = signatures().at(name);
  args.assign(sig.params.size(), nullptr);
  infos.assign(sig.params.size(), ExprInfo());
  size_t positional = 0;
  bool ok = true;
  for (const ast::Argument *arg : call->args) {
    ExprInfo info = c.checkExpr(arg->value);
    size_t slot = positional;
    if (arg->isNamed()) {
      slot = sig.params.size();
      for (size_t i = 0; i < sig.params.size(); ++i)
        if (arg->name == sig.params[i])
          slot = i;
      if (slot == sig.params.size()) {
        DiagBuilder d = a.report(DiagId::sema_unknown_named_arg, arg->nameRange, {name, arg->name});
        if (std::optional<std::string> near = closestName(
                arg->name, std::vector<std::string>(sig.params.begin(), sig.params.end())))
          d.note(DiagId::note_sema_hint, SourceRange(), {didYouMean(*near)});
        ok = false;
        continue;
      }
    } else if (++positional > sig.params.size()) {
      continue;
    }
    args[slot] = arg;
    infos[slot] = info;
    if (info.type.isError())
      poisoned = true;
  }
  size_t given = std::count_if(args.begin(), args.end(), [](auto *x) { return x; });
  size_t requiredGiven = 0;
  for (size_t i = 0; i < sig.required; ++i)
    requiredGiven += args[i] != nullptr;
  // Too few: name the first missing required argument (`store(p)` lacks
  // its value), which says more than the count.
  if (positional <= sig.params.size() && requiredGiven < sig.required) {
    size_t missing = 0;
    while (args[missing])
      ++missing;
    a.report(DiagId::sema_missing_arg, call->getRange(), {name, sig.params[missing]})
        .note(DiagId::note_sema_hint, SourceRange(),
              {"`" + name + "` takes (" + [&] {
                 std::string list;
                 for (size_t i = 0; i < sig.params.size(); ++i)
                   list += (i ? ", " : "") + std::string(sig.params[i]) +
                           (i < sig.required ? "" : "?");
                 return list;
               }() + ")"});
    return false;
  }
  if (positional > sig.params.size() || requiredGiven < sig.required) {
    std::string count = sig.required == sig.params.size()
                            ? std::to_string(sig.required)
                            : std::to_string(sig.required) + " to " +
                                  std::to_string(sig.params.size());
    a.report(DiagId::sema_arg_count, call->getRange(),
             {name, count, std::max(given, positional)});
    return false;
  }
  return ok && !poisoned;
}

/// A shape for messages: a scalar's empty shape reads "[] (a scalar)".
static std::string shapeText(const Shape &s) {
  return s.empty() ? "[] (a scalar)" : formatShape(s);
}

bool BuiltinChecker::has(size_t i) const { return i < args.size() && args[i]; }

SourceRange BuiltinChecker::range(size_t i) const {
  return has(i) ? args[i]->value->getRange() : call->getRange();
}

void BuiltinChecker::badArg(size_t i, const std::string &expected, const std::string &hint) {
  const Signature &sig = signatures().at(name);
  DiagBuilder d = a.report(DiagId::sema_arg_type, range(i),
                           {sig.params[i], name, expected, infos[i].type.str()});
  if (!hint.empty())
    d.note(DiagId::note_sema_hint, SourceRange(), {hint});
}

bool BuiltinChecker::requireValue(size_t i, bool allowPointer) {
  const Type &t = infos[i].type;
  if (t.isValue() && (allowPointer || !t.isPointerLike()))
    return true;
  badArg(i, allowPointer ? "a value" : "a number or a block of numbers");
  return false;
}

std::optional<int64_t> BuiltinChecker::constInt(size_t i, const std::string &what) {
  return c.requireConstInt(args[i]->value, infos[i], what);
}

std::optional<Shape> BuiltinChecker::shapeArg(size_t i) {
  const ast::Expr *e = args[i]->value;
  Shape shape;
  std::vector<const ast::Expr *> elems;
  if (auto *list = ast::dyn_cast<ast::ListExpr>(e))
    elems.assign(list->elements.begin(), list->elements.end());
  else
    elems.push_back(e);
  for (const ast::Expr *x : elems) {
    const ExprInfo *info = c.instance.lookup(x);
    if (!info || info->type.isError())
      return std::nullopt;
    std::optional<int64_t> v = c.requireConstInt(x, *info, "a block dimension");
    if (!v)
      return std::nullopt;
    shape.push_back(*v);
  }
  if (!c.checkShape(shape, call->getRange(), e))
    return std::nullopt;
  return shape;
}

std::optional<std::vector<int64_t>> BuiltinChecker::intListArg(size_t i) {
  std::optional<Shape> dims;
  const ast::Expr *e = args[i]->value;
  std::vector<const ast::Expr *> elems;
  if (auto *list = ast::dyn_cast<ast::ListExpr>(e))
    elems.assign(list->elements.begin(), list->elements.end());
  else
    elems.push_back(e);
  std::vector<int64_t> out;
  for (const ast::Expr *x : elems) {
    const ExprInfo *info = c.instance.lookup(x);
    if (!info || info->type.isError())
      return std::nullopt;
    std::optional<int64_t> v = c.requireConstInt(x, *info, "each value");
    if (!v)
      return std::nullopt;
    out.push_back(*v);
  }
  return out;
}

std::optional<int64_t> BuiltinChecker::axisArg(size_t i, unsigned rank, bool inclusive) {
  std::optional<int64_t> axis = constInt(i, "the axis");
  if (!axis)
    return std::nullopt;
  int64_t limit = inclusive ? rank + 1 : rank;
  if (*axis < 0 || *axis >= limit) {
    a.report(DiagId::sema_axis_out_of_range, range(i), {*axis, rank});
    return std::nullopt;
  }
  return axis;
}

void BuiltinChecker::checkMask(size_t maskIndex, const Type &ptr) {
  if (!has(maskIndex))
    return;
  const Type &m = infos[maskIndex].type;
  if (!m.isBoolLike()) {
    a.report(DiagId::sema_mask_not_bool, range(maskIndex), {m.str()})
        .note(DiagId::note_sema_hint, SourceRange(),
              {"build a mask with a comparison, e.g. `offsets < n`"});
    return;
  }
  if (broadcastsTo(m.shape(), ptr.shape()))
    return;
  DiagBuilder d = a.report(DiagId::sema_mask_shape, range(maskIndex),
                           {shapeText(m.shape()), shapeText(ptr.shape())});
  d.label(range(maskIndex), "mask shape " + formatShape(m.shape()));
  d.label(range(0), "pointer shape " + formatShape(ptr.shape()));
  const Shape &ms = m.shape(), &ps = ptr.shape();
  if (ms.size() == 1 && ps.size() == 2 && ms[0] == ps[0])
    d.note(DiagId::note_sema_hint, SourceRange(),
           {"shapes are aligned from the right; index the mask as `mask[:, None]` (shape [" +
            std::to_string(ms[0]) + ", 1]) to apply it to rows"});
  else if (ms.size() == 1 && ps.size() == 2 && ms[0] == ps[1])
    d.note(DiagId::note_sema_hint, SourceRange(),
           {"index the mask as `mask[None, :]` to apply it to columns"});
  else if (ps.empty())
    d.note(DiagId::note_sema_hint, SourceRange(), {"a scalar pointer takes a scalar mask"});
}

/// A string-literal option: `cache:`/`evict:` (a PTX cache operator or
/// eviction policy), `dot`'s `precision:`. A leading `.` as in Triton is
/// accepted; "" is the default.
void BuiltinChecker::checkOptionArg(size_t i, std::initializer_list<const char *> allowed) {
  if (!has(i))
    return;
  auto *literal = ast::dyn_cast<ast::StringLiteralExpr>(args[i]->value);
  std::string list;
  for (const char *s : allowed)
    list += std::string(list.empty() ? "" : ", ") + "\"" + s + "\"";
  if (!literal) {
    badArg(i, "a string literal: " + list);
    return;
  }
  std::string v = literal->value;
  if (!v.empty() && v[0] == '.')
    v.erase(0, 1);
  if (v.empty() || std::any_of(allowed.begin(), allowed.end(),
                               [&](const char *s) { return v == s; }))
    return;
  const Signature &sig = signatures().at(name);
  a.report(DiagId::sema_arg_type, range(i),
           {sig.params[i], name, "one of " + list, "\"" + literal->value + "\""});
}

/// `store(p, 2147483648)` into `*i32`: a literal the element type cannot
/// hold changes on the way (wraps, or a float loses its fraction).
void BuiltinChecker::warnLiteralNarrowing(size_t i, ScalarKind elem) {
  if (!has(i) || !infos[i].isUntypedLiteral || !infos[i].value || isFloat(elem) ||
      elem == ScalarKind::I1)
    return;
  const ConstValue &v = *infos[i].value;
  ConstValue stored = convertConst(v, elem);
  bool changed = v.isFloat() ? double(stored.getInt()) != v.getFloat()
                             : stored.getInt() != v.getInt();
  // A u64 above 2^63 is held negative: compare its bits.
  if (!v.isFloat() && isUnsigned(elem) && bitWidth(elem) == 64)
    changed = false;
  if (!changed)
    return;
  std::string now = isUnsigned(elem) && stored.getInt() < 0 ? std::to_string(uint64_t(stored.getInt()))
                                                            : stored.str();
  a.report(DiagId::sema_store_literal_narrowing, range(i),
           {v.str(), std::string(spelling(elem)), now})
      .note(DiagId::note_sema_hint, SourceRange(),
            {"write a value that `" + std::string(spelling(elem)) +
             "` holds, or store into a wider element type"});
}

ExprInfo BuiltinChecker::memory() {
  const Type &ptr = infos[0].type;
  ExprInfo out;
  if (!ptr.isPointerLike()) {
    badArg(0, "a pointer or a block of pointers");
    return out;
  }
  ScalarKind elem = ptr.elem();
  // The IR verifier's rule (blk.atomic_rmw, blk.atomic_cas): the GPU has no
  // 1- or 8-bit atomics, except that an exchange of bytes is a plain store.
  if (name.rfind("atomic_", 0) == 0) {
    if (c.rejectFp8("`" + name + "`", Type::block(elem, ptr.shape()), range(0)))
      return out;
    bool xchg = name == "atomic_xchg";
    unsigned width = bitWidth(elem);
    if (width < (xchg ? 8u : 16u)) {
      a.report(DiagId::sema_arg_type, range(0),
               {"pointer", name,
                xchg ? "a pointer to 8-, 16-, 32- or 64-bit elements"
                     : "a pointer to 16-, 32- or 64-bit elements",
                ptr.str()})
          .note(
              DiagId::note_sema_hint, SourceRange(),
              {width == 1 && xchg
                   ? "store `i1` values as `i8`"
                   : "widen the buffer to `i32` (`u32`), or to `i16` (`u16`)"});
      return out;
    }
  }
  if (name == "load") {
    checkMask(1, ptr);
    if (has(2) && requireValue(2, false) &&
        !broadcastsTo(infos[2].type.shape(), ptr.shape()))
      a.report(DiagId::sema_other_shape, range(2),
               {shapeText(infos[2].type.shape()), shapeText(ptr.shape())});
    for (size_t i : {3, 6})
      checkOptionArg(i, {"ca", "cg", "cs", "lu", "cv"});
    for (size_t i : {4, 7})
      checkOptionArg(i, {"evict_normal", "evict_first", "evict_last"});
    if (has(5) && !infos[5].value)
      badArg(5, "a constant boolean");
    out.type = Type::block(elem, ptr.shape());
    out.operandElem = elem;
    bool unmasked = !has(1) || (infos[1].value && infos[1].value->getBool());
    if (ptr.isBlock() && unmasked)
      a.unmaskedLoads.push_back(call);
    return out;
  }
  size_t valueIndex = 1, maskIndex = 2;
  if (name == "atomic_cas") {
    for (size_t i : {1, 2})
      if (requireValue(i, false) && !broadcastsTo(infos[i].type.shape(), ptr.shape()))
        a.report(DiagId::sema_store_value_shape, range(i),
                 {shapeText(infos[i].type.shape()), shapeText(ptr.shape())});
    out.type = Type::block(elem, ptr.shape());
    out.operandElem = elem;
    return out;
  }
  if (requireValue(valueIndex, false) &&
      !broadcastsTo(infos[valueIndex].type.shape(), ptr.shape())) {
    DiagBuilder d = a.report(DiagId::sema_store_value_shape, range(valueIndex),
                             {shapeText(infos[valueIndex].type.shape()),
                              shapeText(ptr.shape())});
    d.label(range(0), "pointer shape " + formatShape(ptr.shape()));
  }
  checkMask(maskIndex, ptr);
  warnLiteralNarrowing(valueIndex, elem);
  bool bitwise = name == "atomic_and" || name == "atomic_or" || name == "atomic_xor";
  if (bitwise && isFloat(elem))
    a.report(DiagId::sema_arg_type, range(0),
             {"pointer", name, "a pointer to integers", ptr.str()});
  out.operandElem = elem;
  out.type = name == "store" ? Type::voidType() : Type::block(elem, ptr.shape());
  bool maskAlwaysTrue = !has(maskIndex) || (infos[maskIndex].value && infos[maskIndex].value->getBool());
  if (name == "store" && ptr.isBlock() && maskAlwaysTrue)
    a.unmaskedStores.push_back(call);
  if (name == "store") {
    for (size_t i : {3, 5})
      checkOptionArg(i, {"wb", "cg", "cs", "wt"});
    for (size_t i : {4, 6})
      checkOptionArg(i, {"evict_normal", "evict_first", "evict_last"});
  }
  return out;
}

ExprInfo BuiltinChecker::creation() {
  ExprInfo out;
  if (name == "program_id" || name == "num_programs") {
    std::optional<int64_t> axis = constInt(0, "the axis of `" + name + "`");
    if (!axis)
      return out;
    if (*axis < 0 || *axis > 2) {
      a.report(DiagId::sema_arg_type, range(0), {"axis", name, "0, 1 or 2", *axis})
          .note(DiagId::note_sema_hint, SourceRange(), {"the launch grid has axes 0, 1 and 2"});
      return out;
    }
    // An axis the kernel's @grid does not have: every program is 0 on it.
    if (const KernelInfo *k = c.spec.kernel;
        k && !k->gridSource.empty() && size_t(*axis) >= k->gridSource.size()) {
      std::string grid;
      for (const std::string &g : k->gridSource)
        grid += (grid.empty() ? "" : ", ") + g;
      a.report(DiagId::sema_grid_axis_missing, call->getRange(),
               {name, std::to_string(*axis), std::to_string(k->gridSource.size()), grid,
                name == "program_id" ? "0" : "1"})
          .note(DiagId::note_sema_hint, SourceRange(),
                {"give `@grid` an axis " + std::to_string(*axis) + ", or use axis 0"});
    }
    out.type = Type::scalar(ScalarKind::I32);
    return out;
  }
  if (name == "arange") {
    std::optional<int64_t> start = constInt(0, "the start of `arange`");
    std::optional<int64_t> end = constInt(1, "the end of `arange`");
    if (!start || !end)
      return out;
    int64_t n = *end - *start;
    if (!isPowerOfTwo(n)) {
      DiagBuilder d = a.report(DiagId::sema_arange_not_pow2, call->getRange(), {n});
      c.addValueNotes(d, call);
      if (n > 0)
        d.note(DiagId::note_sema_hint, SourceRange(),
               {"use the next power of two and mask the extra elements, e.g. " +
                std::to_string(int64_t(1) << (64 - __builtin_clzll(uint64_t(n) - 1))) +
                " with `mask: offsets < n`"});
      return out;
    }
    if (!c.checkShape({n}, call->getRange(), call))
      return out;
    out.type = Type::block(ScalarKind::I32, {n});
    return out;
  }
  // zeros(shape, dtype) / full(shape, value, dtype)
  size_t dtypeIndex = name == "zeros" ? 1 : 2;
  std::optional<Shape> shape = shapeArg(0);
  const Type &dt = infos[dtypeIndex].type;
  if (!dt.isDType()) {
    // `for i1 in …` or `let f32 = …` hides the type of that name.
    std::string hint;
    if (auto *n = ast::dyn_cast<ast::NameExpr>(args[dtypeIndex]->value))
      if (parseScalarKind(n->name))
        hint = "`" + n->name + "` here is a binding, which hides the scalar type `" + n->name +
               "`; rename the binding";
    badArg(dtypeIndex, "a scalar type such as `f32`", hint);
    return out;
  }
  if (name == "full" && !(infos[1].type.isScalar()))
    badArg(1, "a scalar");
  if (!shape)
    return out;
  out.type = Type::block(dt.elem(), *shape);
  out.operandElem = dt.elem();
  return out;
}

ExprInfo BodyChecker::checkBuiltin(const ast::CallExpr *e, const std::string &name) {
  BuiltinChecker b(*this, e, name);
  if (name == "print") {
    for (size_t i = 0; i < e->args.size(); ++i) {
      ExprInfo info = checkExpr(e->args[i]->value);
      if (i == 0 && !info.type.isError() && info.type.kind() != Type::Kind::String)
        analyzer.report(DiagId::sema_arg_type, e->args[0]->value->getRange(),
                        {"format", "print", "a string literal", info.type.str()});
      if (i > 0)
        rejectFp8("`print`", info.type, e->args[i]->value->getRange());
    }
    ExprInfo out;
    out.type = Type::voidType();
    return out;
  }
  if (!b.bind())
    return ExprInfo();
  return b.dispatch();
}

} // namespace blk::sema::detail
