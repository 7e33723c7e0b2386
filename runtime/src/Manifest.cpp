//===- Manifest.cpp - parse and validate the manifest JSON
//-----------------===//
//
// Turns the JSON of docs/manifest.md into blk::Manifest, checking everything
// the launcher later relies on (types known, grid indices valid, sizes sane),
// so that a bad artifact fails at load time with a message, not at launch.
//
//===----------------------------------------------------------------------===//
#include "blk/runtime/Manifest.h"
#include "blk/runtime/Error.h"

#include <nlohmann/json.hpp>

namespace blk {
namespace {

using Json = nlohmann::json;

/// Parsing state: the artifact name and the path inside the JSON, for errors.
class ManifestParser {
public:
  explicit ManifestParser(const std::string &origin) : origin_(origin) {}

  Manifest parse(const Json &root);

private:
  [[noreturn]] void fail(const std::string &where, const std::string &what) {
    throw Error(origin_ + ": bad manifest: " + where + ": " + what);
  }
  const Json &field(const Json &obj, const char *key, const std::string &where);
  std::string str(const Json &obj, const char *key, const std::string &where);
  int64_t integer(const Json &obj, const char *key, const std::string &where,
                  int64_t fallback, bool required);
  ParamType type(const Json &obj, const std::string &where);
  KernelDesc kernel(const Json &k, const std::string &where);
  Specialization specialization(const Json &s, const KernelDesc &k,
                                const std::string &where);
  GridExpr gridExpr(const Json &e, const KernelDesc &k,
                    const std::string &where, unsigned depth);
  void specializedParams(const Json &list, KernelDesc &k,
                         const std::string &where);
  Variant variant(const Json &v, const KernelDesc &k, const std::string &where);
  void sharedSizes(const Json &obj, const std::string &where,
                   uint32_t &sharedStatic, uint32_t &sharedDynamic);

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

int64_t ManifestParser::integer(const Json &obj, const char *key,
                                const std::string &where, int64_t fallback,
                                bool required) {
  if (!required && (!obj.is_object() || !obj.contains(key)))
    return fallback;
  const Json &v = field(obj, key, where);
  if (!v.is_number_integer())
    fail(where + "." + key, "expected an integer");
  return v.get<int64_t>();
}

ParamType ManifestParser::type(const Json &obj, const std::string &where) {
  std::string spelling = str(obj, "type", where);
  std::optional<ParamType> t = parseParamType(spelling);
  if (!t)
    fail(where + ".type", "unknown type `" + spelling + "`");
  return *t;
}

GridExpr ManifestParser::gridExpr(const Json &e, const KernelDesc &k,
                                  const std::string &where, unsigned depth) {
  if (depth > 64)
    fail(where, "grid expression nested too deeply");
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
      fail(where, "grid uses parameter `" + k.params[size_t(g.value)].name +
                      "`, which is not a scalar integer");
    return g;
  }
  static const std::pair<const char *, GridExpr::Op> ops[] = {
      {"add", GridExpr::Op::Add}, {"sub", GridExpr::Op::Sub},
      {"mul", GridExpr::Op::Mul}, {"div", GridExpr::Op::Div},
      {"mod", GridExpr::Op::Mod}, {"cdiv", GridExpr::Op::Cdiv},
      {"min", GridExpr::Op::Min}, {"max", GridExpr::Op::Max},
      {"neg", GridExpr::Op::Neg}};
  std::string op = str(e, "op", where);
  g.kind = GridExpr::Kind::Op;
  bool known = false;
  for (const auto &[name, value] : ops)
    if (op == name) {
      g.op = value;
      known = true;
    }
  if (!known)
    fail(where, "unknown grid operator `" + op + "`");
  const Json &args = field(e, "args", where);
  size_t arity = g.op == GridExpr::Op::Neg ? 1 : 2;
  if (!args.is_array() || args.size() != arity)
    fail(where, "`" + op + "` takes " + std::to_string(arity) + " argument(s)");
  for (size_t i = 0; i < args.size(); ++i)
    g.args.push_back(gridExpr(
        args[i], k, where + ".args[" + std::to_string(i) + "]", depth + 1));
  return g;
}

Specialization ManifestParser::specialization(const Json &s,
                                              const KernelDesc &k,
                                              const std::string &where) {
  Specialization spec;
  spec.entry = str(s, "entry", where);
  if (spec.entry.empty())
    fail(where + ".entry", "empty entry name");
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
        v.intValue = it->get<int64_t>();
      } else if (it->is_number()) {
        v.isFloat = true;
        v.floatValue = it->get<double>();
      } else {
        fail(where + ".config." + v.name, "expected a number or boolean");
      }
      spec.config.push_back(v);
    }
  }
  spec.numWarps = int(integer(s, "num_warps", where, 4, false));
  spec.numStages = int(integer(s, "num_stages", where, 3, false));
  spec.threads = int(integer(s, "threads", where, 32 * spec.numWarps, false));
  if (spec.numWarps <= 0 || spec.threads <= 0 || spec.threads > 1024)
    fail(where, "bad launch shape: " + std::to_string(spec.threads) +
                    " threads, " + std::to_string(spec.numWarps) + " warps");
  sharedSizes(s, where, spec.sharedStatic, spec.sharedDynamic);
  if (s.contains("grid") && !s["grid"].is_null()) {
    const Json &grid = s["grid"];
    if (!grid.is_array() || grid.empty() || grid.size() > 3)
      fail(where + ".grid", "expected 1 to 3 expressions");
    for (size_t i = 0; i < grid.size(); ++i)
      spec.grid.push_back(
          gridExpr(grid[i], k, where + ".grid[" + std::to_string(i) + "]", 0));
  }
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
          fail(vw + ".when",
               "the same classes as variant `" + spec.variants[j].entry + "`");
        if (spec.variants[j].entry == spec.variants.back().entry)
          fail(vw + ".entry",
               "entry `" + spec.variants[j].entry + "` listed twice");
      }
      if (spec.variants.back().entry == spec.entry)
        fail(vw + ".entry", "repeats the specialisation's own entry");
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
    int64_t index = list[i].get<int64_t>();
    if (index < 0 || size_t(index) >= k.params.size())
      fail(at, "parameter index " + std::to_string(index) + " out of range");
    const Param &p = k.params[size_t(index)];
    if (p.type.pointer || !isIntegerKind(p.type.elem))
      fail(at, "parameter `" + p.name + "` is not a scalar integer");
    for (uint32_t earlier : k.specialize)
      if (earlier == uint32_t(index))
        fail(at, "parameter `" + p.name + "` specialised twice");
    k.specialize.push_back(uint32_t(index));
  }
}

Variant ManifestParser::variant(const Json &vj, const KernelDesc &k,
                                const std::string &where) {
  Variant v;
  v.entry = str(vj, "entry", where);
  if (v.entry.empty())
    fail(where + ".entry", "empty entry name");
  const Json &when = field(vj, "when", where);
  if (!when.is_array() || when.size() != k.specialize.size())
    fail(where + ".when", "expected " + std::to_string(k.specialize.size()) +
                              " classes, one per specialised parameter");
  bool generic = true;
  for (size_t i = 0; i < when.size(); ++i) {
    int64_t c = when[i].is_number_integer() ? when[i].get<int64_t>() : -1;
    if (c != 0 && c != 1 && c != 16)
      fail(where + ".when[" + std::to_string(i) + "]",
           "class " + when[i].dump() + " is not 1, 16 or 0");
    v.when.push_back(int(c));
    generic = generic && c == 0;
  }
  if (generic)
    fail(where + ".when", "all classes 0: that is the specialisation's own "
                          "entry, not a variant");
  sharedSizes(vj, where, v.sharedStatic, v.sharedDynamic);
  return v;
}

KernelDesc ManifestParser::kernel(const Json &kj, const std::string &where) {
  KernelDesc k;
  k.name = str(kj, "name", where);
  std::string at = where + " (`" + k.name + "`)";
  const Json &params = field(kj, "params", at);
  if (!params.is_array())
    fail(at + ".params", "expected an array");
  for (size_t i = 0; i < params.size(); ++i) {
    std::string pw = at + ".params[" + std::to_string(i) + "]";
    Param p;
    p.name = str(params[i], "name", pw);
    p.type = type(params[i], pw);
    int64_t aligned = integer(params[i], "aligned", pw, 0, false);
    if (aligned < 0 || aligned > (1 << 20) || (aligned & (aligned - 1)))
      fail(pw + ".aligned", "not a power of two");
    p.aligned = uint32_t(aligned);
    p.multipleOf = integer(params[i], "multiple_of", pw, 0, false);
    if (p.multipleOf < 0)
      fail(pw + ".multiple_of", "negative");
    k.params.push_back(p);
  }
  if (kj.contains("const_params")) {
    const Json &cps = kj["const_params"];
    if (!cps.is_array())
      fail(at + ".const_params", "expected an array");
    for (size_t i = 0; i < cps.size(); ++i) {
      std::string cw = at + ".const_params[" + std::to_string(i) + "]";
      k.constParams.push_back({str(cps[i], "name", cw), type(cps[i], cw)});
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
  m.schema = int(integer(root, "schema", "manifest", 0, true));
  if (m.schema != kManifestSchema)
    fail("schema", "unsupported schema " + std::to_string(m.schema) +
                       " (this runtime reads schema " +
                       std::to_string(kManifestSchema) + ")");
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
  if (!kernels.is_array())
    fail("kernels", "expected an array");
  for (size_t i = 0; i < kernels.size(); ++i) {
    m.kernels.push_back(
        kernel(kernels[i], "kernels[" + std::to_string(i) + "]"));
    for (size_t j = 0; j + 1 < m.kernels.size(); ++j)
      if (m.kernels[j].name == m.kernels.back().name)
        fail("kernels", "kernel `" + m.kernels.back().name + "` listed twice");
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

std::string formatConfig(const Specialization &spec) {
  std::string s;
  for (const ConfigValue &v : spec.config) {
    if (!s.empty())
      s += ' ';
    s +=
        v.name + "=" +
        (v.isFloat ? std::to_string(v.floatValue) : std::to_string(v.intValue));
  }
  if (!s.empty())
    s += ' ';
  return s + "num_warps=" + std::to_string(spec.numWarps);
}

} // namespace blk
