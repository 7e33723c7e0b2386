//===- Manifest.cpp - parse and validate the manifest JSON
//-----------------===//
//
// Turns the JSON of docs/manifest.md into blk::Manifest, checking everything
// the launcher later relies on (types known, grid indices valid, sizes sane),
// so that a bad artifact fails at load time with a message, not at launch.
//
//===----------------------------------------------------------------------===//
#include "blk/runtime/Manifest.h"
#include "TuningJson.h"
#include "blk/runtime/Error.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <climits>
#include <charconv>
#include <utility>
#include <vector>

namespace blk {
namespace {

using Json = nlohmann::json;

/// Bounds of docs/manifest.md ("Limits"): how deep the JSON document may
/// nest (arrays and objects), and how deep one grid expression may nest
/// below its root. The document's bound is checked first, without
/// recursion, so that nothing later (the parser's walk, a message) can run
/// out of stack on a crafted artifact.
constexpr unsigned kMaxJsonNesting = 256;
constexpr unsigned kMaxGridNesting = 64;

/// Whether `root` nests arrays/objects more than `limit` levels deep; an
/// explicit stack, no recursion.
bool nestedDeeperThan(const Json &root, unsigned limit) {
  std::vector<std::pair<const Json *, unsigned>> stack{{&root, 1}};
  while (!stack.empty()) {
    auto [v, depth] = stack.back();
    stack.pop_back();
    if (!v->is_structured())
      continue;
    if (depth > limit)
      return true;
    for (const Json &child : *v)
      stack.push_back({&child, depth + 1});
  }
  return false;
}

/// `s` cut to at most `max` bytes for a message ("..." marks the cut).
std::string clip(const std::string &s, size_t max = 64) {
  return s.size() <= max ? s : s.substr(0, max) + "...";
}

/// A short description of a JSON value for a message: scalars as written
/// (strings clipped), arrays and objects by kind only, never dumped.
std::string brief(const Json &v) {
  if (v.is_array())
    return "an array";
  if (v.is_object())
    return "an object";
  if (v.is_string())
    return "\"" + clip(v.get<std::string>()) + "\"";
  return clip(v.dump());
}

/// Parsing state: the artifact name and the path inside the JSON, for errors.
class ManifestParser {
public:
  explicit ManifestParser(const std::string &origin) : origin_(origin) {}

  Manifest parse(const Json &root);

private:
  /// Throws; a long `where` (a deep grid path) keeps its start and end.
  [[noreturn]] void fail(const std::string &where, const std::string &what) {
    std::string at = where.size() <= 200 ? where
                                         : where.substr(0, 100) + "..." +
                                               where.substr(where.size() - 80);
    throw Error(origin_ + ": bad manifest: " + at + ": " + what);
  }
  const Json &field(const Json &obj, const char *key, const std::string &where);
  std::string str(const Json &obj, const char *key, const std::string &where);
  /// str() of a name: non-empty, no NUL (it reaches C APIs as a C string).
  std::string name(const Json &obj, const char *key, const std::string &where,
                   const char *emptyMessage = "empty name");
  /// The JSON integer `v` as int64_t; an unsigned one above INT64_MAX is an
  /// error, not a wrapped negative number.
  int64_t int64Of(const Json &v, const std::string &at);
  int64_t integer(const Json &obj, const char *key, const std::string &where,
                  int64_t fallback, bool required);
  /// integer() checked to lie in [lo, hi] before anyone narrows it.
  int64_t integerIn(const Json &obj, const char *key, const std::string &where,
                    int64_t fallback, bool required, int64_t lo, int64_t hi);
  ParamType type(const Json &obj, const std::string &where);
  KernelDesc kernel(const Json &k, const std::string &where);
  Specialization specialization(const Json &s, const KernelDesc &k,
                                const std::string &where);
  GridExpr gridExpr(const Json &e, const KernelDesc &k,
                    const std::string &where, unsigned depth);
  void specializedParams(const Json &list, KernelDesc &k,
                         const std::string &where);
  Variant variant(const Json &v, const KernelDesc &k, const std::string &where);
  AssumedVariant assumedVariant(const Json &v, const KernelDesc &k,
                                const std::string &where);
  void sharedSizes(const Json &obj, const std::string &where,
                   uint32_t &sharedStatic, uint32_t &sharedDynamic);
  /// An entry's optional "tensor_maps" (docs/manifest.md "Tensor maps").
  std::vector<TensorMapDesc> tensorMaps(const Json &obj, const KernelDesc &k,
                                        const std::string &where);
  TensorMapDesc tensorMap(const Json &m, const KernelDesc &k,
                          const std::string &where);
  /// KernelDesc::autotune from "autotune" (or the older "autotune_key").
  void autotune(const Json &kj, KernelDesc &k, const std::string &where);
  /// Indices of the parameters a list of names names; `pointers` says
  /// which kind they must be.
  std::vector<uint32_t> paramList(const Json &list, const KernelDesc &k,
                                  const std::string &where, bool pointers);

  const std::string &origin_;
};

const Json &ManifestParser::field(const Json &obj, const char *key,
                                  const std::string &where) {
  if (!obj.is_object())
    fail(where, "expected an object");
  auto it = obj.find(key);
  if (it == obj.end())
    fail(where, std::string("missing \"") + key + "\"");
  return *it;
}

std::string ManifestParser::str(const Json &obj, const char *key,
                                const std::string &where) {
  const Json &v = field(obj, key, where);
  if (!v.is_string())
    fail(where + "." + key, "expected a string");
  return v.get<std::string>();
}

std::string ManifestParser::name(const Json &obj, const char *key,
                                 const std::string &where,
                                 const char *emptyMessage) {
  std::string s = str(obj, key, where);
  if (s.empty())
    fail(where + "." + key, emptyMessage);
  if (s.find('\0') != std::string::npos)
    fail(where + "." + key, "the name holds a NUL character");
  return s;
}

int64_t ManifestParser::int64Of(const Json &v, const std::string &at) {
  if (!v.is_number_integer())
    fail(at, "expected an integer");
  if (v.is_number_unsigned() && v.get<uint64_t>() > uint64_t(INT64_MAX))
    fail(at, std::to_string(v.get<uint64_t>()) +
                 " is out of range (a 64-bit signed integer)");
  return v.get<int64_t>();
}

int64_t ManifestParser::integer(const Json &obj, const char *key,
                                const std::string &where, int64_t fallback,
                                bool required) {
  if (!required && (!obj.is_object() || !obj.contains(key)))
    return fallback;
  return int64Of(field(obj, key, where), where + "." + key);
}

int64_t ManifestParser::integerIn(const Json &obj, const char *key,
                                  const std::string &where, int64_t fallback,
                                  bool required, int64_t lo, int64_t hi) {
  int64_t v = integer(obj, key, where, fallback, required);
  if (v < lo || v > hi)
    fail(where + "." + key, std::to_string(v) + " is out of range (" +
                                std::to_string(lo) + " to " +
                                std::to_string(hi) + ")");
  return v;
}

ParamType ManifestParser::type(const Json &obj, const std::string &where) {
  std::string spelling = str(obj, "type", where);
  std::optional<ParamType> t = parseParamType(spelling);
  if (!t)
    fail(where + ".type", "unknown type `" + clip(spelling) + "`");
  return *t;
}

GridExpr ManifestParser::gridExpr(const Json &e, const KernelDesc &k,
                                  const std::string &where, unsigned depth) {
  if (depth > kMaxGridNesting)
    fail(where, "grid expression nested more than " +
                    std::to_string(kMaxGridNesting) + " levels deep");
  if (!e.is_object())
    fail(where, "expected a grid expression object");
  GridExpr g;
  if (e.contains("int")) {
    g.kind = GridExpr::Kind::Int;
    g.value = integer(e, "int", where, 0, true);
    return g;
  }
  if (e.contains("param")) {
    g.kind = GridExpr::Kind::Param;
    g.value = integer(e, "param", where, 0, true);
    if (g.value < 0 || size_t(g.value) >= k.params.size())
      fail(where,
           "parameter index " + std::to_string(g.value) + " out of range");
    ParamType t = k.params[size_t(g.value)].type;
    if (t.pointer || !isIntegerKind(t.elem))
      fail(where, "grid uses parameter `" +
                      clip(k.params[size_t(g.value)].name) +
                      "`, which is not a scalar integer");
    return g;
  }
  static const std::pair<const char *, GridExpr::Op> ops[] = {
      {"add", GridExpr::Op::Add}, {"sub", GridExpr::Op::Sub},
      {"mul", GridExpr::Op::Mul}, {"div", GridExpr::Op::Div},
      {"mod", GridExpr::Op::Mod}, {"cdiv", GridExpr::Op::Cdiv},
      {"min", GridExpr::Op::Min}, {"max", GridExpr::Op::Max},
      {"neg", GridExpr::Op::Neg}, {"lt", GridExpr::Op::Lt},
      {"le", GridExpr::Op::Le},   {"gt", GridExpr::Op::Gt},
      {"ge", GridExpr::Op::Ge},   {"eq", GridExpr::Op::Eq},
      {"ne", GridExpr::Op::Ne},   {"and", GridExpr::Op::And},
      {"or", GridExpr::Op::Or},   {"not", GridExpr::Op::Not}};
  std::string op = str(e, "op", where);
  g.kind = GridExpr::Kind::Op;
  bool known = false;
  for (const auto &[name, value] : ops)
    if (op == name) {
      g.op = value;
      known = true;
    }
  if (!known)
    fail(where, "unknown grid operator `" + clip(op) + "`");
  const Json &args = field(e, "args", where);
  size_t arity = g.op == GridExpr::Op::Neg || g.op == GridExpr::Op::Not ? 1 : 2;
  if (!args.is_array() || args.size() != arity)
    fail(where,
         "`" + clip(op) + "` takes " + std::to_string(arity) + " argument(s)");
  for (size_t i = 0; i < args.size(); ++i)
    g.args.push_back(gridExpr(
        args[i], k, where + ".args[" + std::to_string(i) + "]", depth + 1));
  return g;
}

Specialization ManifestParser::specialization(const Json &s,
                                              const KernelDesc &k,
                                              const std::string &where) {
  Specialization spec;
  spec.entry = name(s, "entry", where, "empty entry name");
  if (s.contains("config")) {
    const Json &config = s["config"];
    if (!config.is_object())
      fail(where + ".config", "expected an object");
    for (auto it = config.begin(); it != config.end(); ++it) {
      ConfigValue v;
      v.name = it.key();
      if (it->is_boolean()) {
        v.intValue = it->get<bool>() ? 1 : 0;
      } else if (it->is_number_integer()) {
        v.intValue = int64Of(*it, where + ".config." + clip(v.name));
      } else if (it->is_number()) {
        v.isFloat = true;
        v.floatValue = it->get<double>();
      } else {
        fail(where + ".config." + clip(v.name), "expected a number or boolean");
      }
      spec.config.push_back(v);
    }
  }
  // Each value is checked as int64_t, before it is narrowed to its int.
  int64_t warps = integer(s, "num_warps", where, 4, false);
  if (warps < 1 || warps > 32 || (warps & (warps - 1)) != 0)
    fail(where + ".num_warps",
         std::to_string(warps) + " is not a power of two from 1 to 32");
  spec.numWarps = int(warps);
  spec.numStages = int(integerIn(s, "num_stages", where, 3, false, 1, INT_MAX));
  int64_t producers = integer(s, "producer_warps", where, 0, false);
  if (producers != 0 && producers != kProducerWarps)
    fail(where + ".producer_warps", std::to_string(producers) + " is not 0 or " +
                                        std::to_string(kProducerWarps));
  spec.producerWarps = int(producers);
  int64_t launched = 32 * (warps + producers);
  int64_t threads = integer(s, "threads", where, launched, false);
  if (threads <= 0 || threads > 1024)
    fail(where, "bad launch shape: " + std::to_string(threads) + " threads, " +
                    std::to_string(warps) + " warps");
  // The code was built for 32 x (num_warps + producer_warps) threads:
  // another count runs wrong.
  if (threads != launched)
    fail(where + ".threads",
         std::to_string(threads) + ", but num_warps " + std::to_string(warps) +
             (producers ? " and producer_warps " + std::to_string(producers) : "") +
             " mean" + (producers ? "" : "s") + " " + std::to_string(launched) + " threads");
  spec.threads = int(threads);
  if (s.contains("persistent")) {
    if (!s["persistent"].is_boolean())
      fail(where + ".persistent", "expected a boolean");
    spec.persistent = s["persistent"].get<bool>();
  }
  sharedSizes(s, where, spec.sharedStatic, spec.sharedDynamic);
  spec.tensorMaps = tensorMaps(s, k, where);
  spec.configKey = s.contains("config_key") ? name(s, "config_key", where, "empty config key")
                                            : configKey(spec);
  if (s.contains("code_hash"))
    spec.codeHash = str(s, "code_hash", where);
  if (s.contains("requires") && !s["requires"].is_null()) {
    const Json &conditions = s["requires"];
    if (!conditions.is_array() || conditions.size() > 16)
      fail(where + ".requires", "expected 0 to 16 expressions");
    for (size_t i = 0; i < conditions.size(); ++i)
      spec.requirements.push_back(gridExpr(
          conditions[i], k, where + ".requires[" + std::to_string(i) + "]", 0));
  }
  if (s.contains("grid") && !s["grid"].is_null()) {
    const Json &grid = s["grid"];
    if (!grid.is_array() || grid.empty() || grid.size() > 3)
      fail(where + ".grid", "expected 1 to 3 expressions");
    for (size_t i = 0; i < grid.size(); ++i)
      spec.grid.push_back(
          gridExpr(grid[i], k, where + ".grid[" + std::to_string(i) + "]", 0));
  }
  // The launch clamps x alone (Module.cpp): the programs walk one axis.
  if (spec.persistent && spec.grid.size() > 1)
    fail(where + ".persistent", "a persistent specialisation walks a one-axis grid, found " +
                                    std::to_string(spec.grid.size()) + " axes");
  if (s.contains("variants") && !s["variants"].is_null()) {
    const Json &vs = s["variants"];
    if (!vs.is_array())
      fail(where + ".variants", "expected an array");
    if (!vs.empty() && k.specialize.empty())
      fail(where + ".variants",
           "value variants but the kernel has no \"specialize\" list");
    for (size_t i = 0; i < vs.size(); ++i) {
      std::string vw = where + ".variants[" + std::to_string(i) + "]";
      spec.variants.push_back(variant(vs[i], k, vw));
      for (size_t j = 0; j + 1 < spec.variants.size(); ++j) {
        if (spec.variants[j].when == spec.variants.back().when)
          fail(vw + ".when", "the same classes as variant `" +
                                 clip(spec.variants[j].entry) + "`");
        if (spec.variants[j].entry == spec.variants.back().entry)
          fail(vw + ".entry",
               "entry `" + clip(spec.variants[j].entry) + "` listed twice");
      }
      if (spec.variants.back().entry == spec.entry)
        fail(vw + ".entry", "repeats the specialisation's own entry");
    }
  }
  if (s.contains("assumed") && !s["assumed"].is_null()) {
    const Json &as = s["assumed"];
    if (!as.is_array())
      fail(where + ".assumed", "expected an array");
    for (size_t i = 0; i < as.size(); ++i) {
      std::string aw = where + ".assumed[" + std::to_string(i) + "]";
      spec.assumed.push_back(assumedVariant(as[i], k, aw));
      if (spec.assumed.back().entry == spec.entry)
        fail(aw + ".entry", "repeats the specialisation's own entry");
    }
  }
  return spec;
}

void ManifestParser::sharedSizes(const Json &obj, const std::string &where,
                                 uint32_t &sharedStatic,
                                 uint32_t &sharedDynamic) {
  int64_t shs = integer(obj, "shared_static", where, 0, false);
  int64_t shd = integer(obj, "shared_dynamic", where, 0, false);
  if (shs < 0 || shd < 0 || shs > (1 << 30) || shd > (1 << 30))
    fail(where, "bad shared memory size");
  sharedStatic = uint32_t(shs);
  sharedDynamic = uint32_t(shd);
}

std::vector<TensorMapDesc> ManifestParser::tensorMaps(const Json &obj,
                                                      const KernelDesc &k,
                                                      const std::string &where) {
  std::vector<TensorMapDesc> maps;
  if (!obj.contains("tensor_maps") || obj["tensor_maps"].is_null())
    return maps;
  const Json &list = obj["tensor_maps"];
  if (!list.is_array() || list.size() > kMaxTensorMaps)
    fail(where + ".tensor_maps", "expected an array of at most " +
                                     std::to_string(kMaxTensorMaps) + " tensor maps");
  for (size_t i = 0; i < list.size(); ++i)
    maps.push_back(
        tensorMap(list[i], k, where + ".tensor_maps[" + std::to_string(i) + "]"));
  return maps;
}

TensorMapDesc ManifestParser::tensorMap(const Json &m, const KernelDesc &k,
                                        const std::string &where) {
  TensorMapDesc map;
  map.param = uint32_t(
      integerIn(m, "param", where, 0, true, 0, int64_t(k.params.size()) - 1));
  if (!k.params[map.param].type.pointer)
    fail(where + ".param",
         "parameter `" + clip(k.params[map.param].name) + "` is not a pointer");
  std::string elem = str(m, "elem", where);
  std::optional<ParamType> type = parseParamType(elem);
  if (!type || type->pointer)
    fail(where + ".elem", "`" + clip(elem) + "` is not a scalar type");
  map.elem = type->elem;
  // The extents and strides: expressions over scalar integer parameters,
  // as `grid` (gridExpr refuses any other parameter).
  const Json &dims = field(m, "dims", where);
  if (!dims.is_array() || dims.empty() || dims.size() > kMaxTensorMapRank)
    fail(where + ".dims", "expected 1 to " + std::to_string(kMaxTensorMapRank) +
                              " expressions");
  size_t rank = dims.size();
  for (size_t d = 0; d < rank; ++d)
    map.dims.push_back(
        gridExpr(dims[d], k, where + ".dims[" + std::to_string(d) + "]", 0));
  const Json &strides = field(m, "strides", where);
  if (!strides.is_array() || strides.size() != rank - 1)
    fail(where + ".strides", "expected " + std::to_string(rank - 1) +
                                 " expression(s), one per dimension after the first");
  for (size_t d = 0; d < strides.size(); ++d)
    map.strides.push_back(
        gridExpr(strides[d], k, where + ".strides[" + std::to_string(d) + "]", 0));
  const Json &box = field(m, "box", where);
  if (!box.is_array() || box.size() != rank)
    fail(where + ".box", "expected " + std::to_string(rank) +
                             " sizes, one per dimension");
  for (size_t d = 0; d < rank; ++d) {
    std::string at = where + ".box[" + std::to_string(d) + "]";
    int64_t size = int64Of(box[d], at);
    if (size < 1 || size > 256)
      fail(at, std::to_string(size) + " is out of range (1 to 256)");
    map.box.push_back(uint32_t(size));
  }
  int64_t swizzle = integer(m, "swizzle", where, 0, true);
  if (swizzle != 0 && swizzle != 32 && swizzle != 64 && swizzle != 128)
    fail(where + ".swizzle", std::to_string(swizzle) + " is not 0, 32, 64 or 128");
  map.swizzle = uint32_t(swizzle);
  // cuTensorMapEncodeTiled's rules for the inner box dimension: known here,
  // so a bad map fails at load rather than at its first launch.
  uint64_t inner = uint64_t(map.box[0]) * scalarKindSize(map.elem);
  std::string innerText = std::to_string(inner) + " bytes (" +
                          std::to_string(map.box[0]) + " x " +
                          scalarKindName(map.elem) + ")";
  if (inner % 16 != 0)
    fail(where + ".box", "the inner box dimension is " + innerText +
                             ", not a multiple of 16");
  if (map.swizzle && inner > map.swizzle)
    fail(where + ".box", "the inner box dimension is " + innerText +
                             ", over the " + std::to_string(map.swizzle) +
                             "-byte swizzle span");
  return map;
}

void ManifestParser::specializedParams(const Json &list, KernelDesc &k,
                                       const std::string &where) {
  if (!list.is_array())
    fail(where, "expected an array of parameter indices");
  if (list.size() > kMaxSpecialized)
    fail(where, std::to_string(list.size()) + " parameters; at most " +
                    std::to_string(kMaxSpecialized) + " may be specialised");
  for (size_t i = 0; i < list.size(); ++i) {
    std::string at = where + "[" + std::to_string(i) + "]";
    if (!list[i].is_number_integer())
      fail(at, "expected a parameter index");
    int64_t index = int64Of(list[i], at);
    if (index < 0 || size_t(index) >= k.params.size())
      fail(at, "parameter index " + std::to_string(index) + " out of range");
    const Param &p = k.params[size_t(index)];
    if (p.type.pointer || !isIntegerKind(p.type.elem))
      fail(at, "parameter `" + clip(p.name) + "` is not a scalar integer");
    for (uint32_t earlier : k.specialize)
      if (earlier == uint32_t(index))
        fail(at, "parameter `" + clip(p.name) + "` specialised twice");
    k.specialize.push_back(uint32_t(index));
  }
}

Variant ManifestParser::variant(const Json &vj, const KernelDesc &k,
                                const std::string &where) {
  Variant v;
  v.entry = name(vj, "entry", where, "empty entry name");
  const Json &when = field(vj, "when", where);
  if (!when.is_array() || when.size() != k.specialize.size())
    fail(where + ".when", "expected " + std::to_string(k.specialize.size()) +
                              " classes, one per specialised parameter");
  bool generic = true;
  for (size_t i = 0; i < when.size(); ++i) {
    // An unsigned above INT64_MAX is no class either (never wrapped to one).
    int64_t c = when[i].is_number_integer() && !(when[i].is_number_unsigned() &&
                                                 when[i].get<uint64_t>() > 16)
                    ? when[i].get<int64_t>()
                    : -1;
    if (c != 0 && c != 1 && c != 16)
      fail(where + ".when[" + std::to_string(i) + "]",
           "class " + brief(when[i]) + " is not 1, 16 or 0");
    v.when.push_back(int(c));
    generic = generic && c == 0;
  }
  if (generic)
    fail(where + ".when", "all classes 0: that is the specialisation's own "
                          "entry, not a variant");
  sharedSizes(vj, where, v.sharedStatic, v.sharedDynamic);
  v.tensorMaps = tensorMaps(vj, k, where);
  return v;
}

AssumedVariant ManifestParser::assumedVariant(const Json &vj, const KernelDesc &k,
                                              const std::string &where) {
  AssumedVariant v;
  v.entry = name(vj, "entry", where, "empty entry name");
  const Json &assume = field(vj, "assume", where);
  if (!assume.is_array() || assume.empty() || assume.size() > k.params.size() * 3)
    fail(where + ".assume", "expected 1 to 3 tests per parameter");
  for (size_t i = 0; i < assume.size(); ++i) {
    std::string aw = where + ".assume[" + std::to_string(i) + "]";
    Assumption a;
    a.param = uint32_t(integerIn(assume[i], "param", aw, 0, true, 0,
                                 int64_t(k.params.size()) - 1));
    const ParamType &type = k.params[a.param].type;
    int kinds = 0;
    for (auto [key, kind] : {std::pair{"aligned", Assumption::Kind::Aligned},
                             std::pair{"equals", Assumption::Kind::Equals},
                             std::pair{"multiple_of", Assumption::Kind::MultipleOf}})
      if (assume[i].contains(key)) {
        ++kinds;
        a.kind = kind;
        a.value = integer(assume[i], key, aw, 0, true);
      }
    if (kinds != 1)
      fail(aw, "expected exactly one of \"aligned\", \"equals\", \"multiple_of\"");
    bool pointerTest = a.kind == Assumption::Kind::Aligned;
    if (pointerTest != type.pointer || (!type.pointer && !isIntegerKind(type.elem)))
      fail(aw, std::string("a test that parameter `") + clip(k.params[a.param].name) +
                   "` of type " + formatParamType(type) + " cannot take");
    if (a.kind != Assumption::Kind::Equals &&
        (a.value <= 0 || a.value > (1 << 20)))
      fail(aw, "divisor " + std::to_string(a.value) + " out of range (1 to 2^20)");
    v.assume.push_back(a);
  }
  sharedSizes(vj, where, v.sharedStatic, v.sharedDynamic);
  v.tensorMaps = tensorMaps(vj, k, where);
  return v;
}

std::vector<uint32_t> ManifestParser::paramList(const Json &list,
                                                const KernelDesc &k,
                                                const std::string &where,
                                                bool pointers) {
  if (!list.is_array())
    fail(where, "expected an array of parameter names");
  std::vector<uint32_t> indices;
  for (size_t i = 0; i < list.size(); ++i) {
    std::string at = where + "[" + std::to_string(i) + "]";
    if (!list[i].is_string())
      fail(at, "expected a parameter name");
    std::string n = list[i].get<std::string>();
    auto it = std::find_if(k.params.begin(), k.params.end(),
                           [&](const Param &p) { return p.name == n; });
    if (it == k.params.end())
      fail(at, "no parameter `" + clip(n) + "`");
    bool ok = pointers ? it->type.pointer
                       : !it->type.pointer && isIntegerKind(it->type.elem);
    if (!ok)
      fail(at, "parameter `" + clip(n) + "` is not " +
                   (pointers ? "a pointer" : "a scalar integer"));
    uint32_t index = uint32_t(it - k.params.begin());
    if (std::find(indices.begin(), indices.end(), index) != indices.end())
      fail(at, "parameter `" + clip(n) + "` listed twice");
    indices.push_back(index);
  }
  return indices;
}

void ManifestParser::autotune(const Json &kj, KernelDesc &k,
                              const std::string &where) {
  AutotuneDesc &t = k.autotune;
  if (!kj.contains("autotune") || kj["autotune"].is_null()) {
    // An older manifest: the key alone, bucketed by powers of two.
    if (!k.autotuneKey.empty()) {
      t.enabled = true;
      t.key = paramList(Json(k.autotuneKey), k, where + ".autotune_key", false);
    }
    return;
  }
  const Json &a = kj["autotune"];
  std::string at = where + ".autotune";
  if (!a.is_object())
    fail(at, "expected an object");
  t.enabled = true;
  if (a.contains("key"))
    t.key = paramList(a["key"], k, at + ".key", false);
  if (t.key.size() > kMaxAutotuneKey)
    fail(at + ".key", std::to_string(t.key.size()) + " parameters; at most " +
                          std::to_string(kMaxAutotuneKey));
  if (a.contains("restore"))
    t.restore = paramList(a["restore"], k, at + ".restore", true);
  if (a.contains("zero"))
    t.zero = paramList(a["zero"], k, at + ".zero", true);
  if (a.contains("bucket")) {
    const Json &b = a["bucket"];
    if (b == "pow2") {
      t.bucket.kind = BucketRule::Kind::Pow2;
    } else if (b == "exact") {
      t.bucket.kind = BucketRule::Kind::Exact;
    } else if (b.is_array() && !b.empty()) {
      t.bucket.kind = BucketRule::Kind::List;
      for (size_t i = 0; i < b.size(); ++i) {
        int64_t v = int64Of(b[i], at + ".bucket[" + std::to_string(i) + "]");
        if (v <= 0 || (!t.bucket.bounds.empty() && v <= t.bucket.bounds.back()))
          fail(at + ".bucket", "bounds must be positive and strictly ascending");
        t.bucket.bounds.push_back(v);
      }
    } else {
      fail(at + ".bucket", "expected \"pow2\", \"exact\" or a non-empty array");
    }
  }
}

KernelDesc ManifestParser::kernel(const Json &kj, const std::string &where) {
  KernelDesc k;
  k.name = name(kj, "name", where);
  std::string at = where + " (`" + clip(k.name) + "`)";
  const Json &params = field(kj, "params", at);
  if (!params.is_array())
    fail(at + ".params", "expected an array");
  for (size_t i = 0; i < params.size(); ++i) {
    std::string pw = at + ".params[" + std::to_string(i) + "]";
    Param p;
    p.name = name(params[i], "name", pw);
    p.type = type(params[i], pw);
    int64_t aligned = integer(params[i], "aligned", pw, 0, false);
    if (aligned < 0 || aligned > (1 << 20) || (aligned & (aligned - 1)))
      fail(pw + ".aligned", "not a power of two");
    p.aligned = uint32_t(aligned);
    p.multipleOf = integer(params[i], "multiple_of", pw, 0, false);
    if (p.multipleOf < 0)
      fail(pw + ".multiple_of", "negative");
    if (params[i].contains("access")) {
      std::string access = str(params[i], "access", pw);
      bool known = false;
      for (Access a : {Access::None, Access::Read, Access::Write,
                       Access::ReadWrite, Access::Atomic})
        if (access == accessName(a)) {
          p.access = a;
          known = true;
        }
      if (!known)
        fail(pw + ".access", "unknown access `" + clip(access) + "`");
      if (!p.type.pointer)
        fail(pw + ".access", "only pointer parameters have an access");
    }
    k.params.push_back(p);
  }
  if (kj.contains("const_params")) {
    const Json &cps = kj["const_params"];
    if (!cps.is_array())
      fail(at + ".const_params", "expected an array");
    for (size_t i = 0; i < cps.size(); ++i) {
      std::string cw = at + ".const_params[" + std::to_string(i) + "]";
      k.constParams.push_back({name(cps[i], "name", cw), type(cps[i], cw)});
    }
  }
  for (const char *key : {"autotune_key", "grid_source"}) {
    if (!kj.contains(key))
      continue;
    const Json &list = kj[key];
    if (!list.is_array())
      fail(at + "." + key, "expected an array of strings");
    for (const Json &item : list) {
      if (!item.is_string())
        fail(at + "." + key, "expected an array of strings");
      (std::string(key) == "autotune_key" ? k.autotuneKey : k.gridSource)
          .push_back(item.get<std::string>());
    }
  }
  if (kj.contains("specialize") && !kj["specialize"].is_null())
    specializedParams(kj["specialize"], k, at + ".specialize");
  autotune(kj, k, at);
  const Json &specs = field(kj, "specializations", at);
  if (!specs.is_array() || specs.empty())
    fail(at + ".specializations", "expected a non-empty array");
  for (size_t i = 0; i < specs.size(); ++i)
    k.specializations.push_back(specialization(
        specs[i], k, at + ".specializations[" + std::to_string(i) + "]"));
  return k;
}

Manifest ManifestParser::parse(const Json &root) {
  Manifest m;
  if (nestedDeeperThan(root, kMaxJsonNesting))
    throw Error(origin_ + ": bad manifest: the JSON is nested more than " +
                std::to_string(kMaxJsonNesting) + " levels deep");
  int64_t schema = integer(root, "schema", "manifest", 0, true);
  if (schema != kManifestSchema)
    fail("schema", "unsupported schema " + std::to_string(schema) +
                       " (this runtime reads schema " +
                       std::to_string(kManifestSchema) + ")");
  m.schema = int(schema);
  for (auto [key, out] :
       {std::pair{"compiler", &m.compiler}, std::pair{"source", &m.source},
        std::pair{"source_hash", &m.sourceHash}})
    if (root.contains(key) && root[key].is_string())
      *out = root[key].get<std::string>();
  if (root.contains("archs") && root["archs"].is_array())
    for (const Json &a : root["archs"])
      if (a.is_string())
        m.archs.push_back(a.get<std::string>());
  const Json &kernels = field(root, "kernels", "manifest");
  if (!kernels.is_array() || kernels.empty())
    fail("kernels", "expected a non-empty array");
  for (size_t i = 0; i < kernels.size(); ++i) {
    m.kernels.push_back(
        kernel(kernels[i], "kernels[" + std::to_string(i) + "]"));
    for (size_t j = 0; j + 1 < m.kernels.size(); ++j)
      if (m.kernels[j].name == m.kernels.back().name)
        fail("kernels",
             "kernel `" + clip(m.kernels.back().name) + "` listed twice");
  }
  if (root.contains("tuning") && !root["tuning"].is_null()) {
    const Json &tables = root["tuning"];
    if (!tables.is_array())
      fail("tuning", "expected an array of tuning tables");
    for (size_t i = 0; i < tables.size(); ++i)
      m.tuning.push_back(detail::tuningTableFromJson(
          nlohmann::ordered_json::parse(tables[i].dump()), origin_ + ": bad manifest: tuning[" + std::to_string(i) + "]"));
  }
  return m;
}

} // namespace

const KernelDesc *Manifest::findKernel(std::string_view name) const {
  for (const KernelDesc &k : kernels)
    if (k.name == name)
      return &k;
  return nullptr;
}

Manifest parseManifest(std::string_view json, const std::string &origin) {
  Json root = Json::parse(json.begin(), json.end(), nullptr,
                          /*allow_exceptions=*/false);
  if (root.is_discarded())
    throw Error(origin + ": bad manifest: not valid JSON");
  try {
    return ManifestParser(origin).parse(root);
  } catch (const Json::exception &e) {
    throw Error(origin + ": bad manifest: " + e.what());
  }
}

const char *accessName(Access access) {
  switch (access) {
  case Access::None:
    return "none";
  case Access::Read:
    return "read";
  case Access::Write:
    return "write";
  case Access::ReadWrite:
    return "readwrite";
  case Access::Atomic:
    return "atomic";
  default:
    return "unknown";
  }
}

std::string configKey(const Specialization &spec) {
  std::string s;
  for (const ConfigValue &v : spec.config) {
    // Floats in shortest round-trip form, as blkc writes `config_key`.
    char buf[64];
    char *end = v.isFloat ? std::to_chars(buf, buf + sizeof buf, v.floatValue).ptr : buf;
    s += v.name + "=" + (v.isFloat ? std::string(buf, end) : std::to_string(v.intValue)) + " ";
  }
  return s + "num_warps=" + std::to_string(spec.numWarps) +
         " num_stages=" + std::to_string(spec.numStages) +
         (spec.producerWarps ? " warp_specialize=1" : "") +
         (spec.persistent ? " persistent=1" : "");
}

std::string formatGridExpr(const GridExpr &e, const KernelDesc &kernel) {
  switch (e.kind) {
  case GridExpr::Kind::Int:
    return std::to_string(e.value);
  case GridExpr::Kind::Param:
    return size_t(e.value) < kernel.params.size() ? kernel.params[size_t(e.value)].name
                                                  : "?";
  case GridExpr::Kind::Op:
    break;
  }
  static const char *const infix[] = {"+", "-", "*", "/", "%", nullptr, nullptr, nullptr,
                                      nullptr, "<", "<=", ">", ">=", "==", "!=",
                                      "&&", "||", nullptr};
  static const char *const call[] = {nullptr, nullptr, nullptr, nullptr, nullptr,
                                     "cdiv", "min", "max"};
  auto arg = [&](size_t i) {
    const GridExpr &a = e.args[i];
    std::string text = formatGridExpr(a, kernel);
    bool atom = a.kind != GridExpr::Kind::Op || a.op == GridExpr::Op::Cdiv ||
                a.op == GridExpr::Op::Min || a.op == GridExpr::Op::Max;
    return atom ? text : "(" + text + ")";
  };
  unsigned op = unsigned(e.op);
  if (e.op == GridExpr::Op::Neg)
    return "-" + arg(0);
  if (e.op == GridExpr::Op::Not)
    return "!" + arg(0);
  if (e.args.size() != 2)
    return "?";
  if (op < sizeof infix / sizeof *infix && infix[op])
    return arg(0) + " " + infix[op] + " " + arg(1);
  return std::string(call[op]) + "(" + formatGridExpr(e.args[0], kernel) + ", " +
         formatGridExpr(e.args[1], kernel) + ")";
}

std::string formatTensorMap(const TensorMapDesc &map, const KernelDesc &kernel) {
  auto list = [&](const std::vector<GridExpr> &exprs) {
    std::string text;
    for (const GridExpr &e : exprs)
      text += (text.empty() ? "" : ", ") + formatGridExpr(e, kernel);
    return "[" + text + "]";
  };
  std::string box;
  for (uint32_t b : map.box)
    box += (box.empty() ? "" : ", ") + std::to_string(b);
  const std::string &name =
      map.param < kernel.params.size() ? kernel.params[map.param].name : "?";
  return "`" + name + "`: " + scalarKindName(map.elem) + " dims " + list(map.dims) +
         " strides " + list(map.strides) + " box [" + box + "] swizzle " +
         std::to_string(map.swizzle);
}

} // namespace blk
