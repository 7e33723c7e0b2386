//===- Manifest.cpp - The artifact manifest from the blk IR --------------===//
//
// Expects the attributes of docs/ir.md on each `blk.kernel` func (IRGen's
// output, unchanged by the blk passes); guarantees the schema of
// docs/manifest.md. What the attributes do not say comes from the IR
// (each pointer's `access`: blk/Analysis/PointerAccess.h) or from the
// backend (shared memory, each entry's PTX for `code_hash`); the tuning
// tables are checked and embedded by Tuning.cpp.
// Tests: tests/unit/Target/ManifestTest.cpp, tests/lit/target/manifest-*.test.
//
//===----------------------------------------------------------------------===//
#include "blk/Target/Manifest.h"
#include "ManifestJson.h"

#include "blk/Analysis/PointerAccess.h"
#include "blk/Support/Persistent.h"
#include "blk/Support/WarpSpecialize.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/MapVector.h"

#ifndef BLK_VERSION
#define BLK_VERSION "0.0.0"
#endif

namespace blk::target {

std::string compilerVersion() { return std::string("blkc ") + BLK_VERSION; }

namespace {
/// Reads one func's attributes, remembering the first error.
class FuncReader {
public:
  explicit FuncReader(mlir::func::FuncOp func) : func(func) {}

  llvm::Error fail(llvm::StringRef attr, llvm::StringRef what) {
    return llvm::createStringError("kernel func `" + func.getSymName().str() +
                                   "`: attribute `" + attr.str() + "` " + what.str() +
                                   " (see docs/ir.md)");
  }

  /// An array of strings; `required` says whether absence is an error.
  llvm::Expected<std::vector<std::string>> strings(llvm::StringRef attr, bool required) {
    auto array = func->getAttrOfType<mlir::ArrayAttr>(attr);
    if (!array) {
      if (required || func->hasAttr(attr))
        return fail(attr, "must be an array of strings");
      return std::vector<std::string>{};
    }
    std::vector<std::string> result;
    for (mlir::Attribute element : array) {
      auto str = llvm::dyn_cast<mlir::StringAttr>(element);
      if (!str)
        return fail(attr, "must be an array of strings");
      result.push_back(str.getValue().str());
    }
    return result;
  }

  llvm::Expected<int64_t> integer(llvm::StringRef attr) {
    auto value = func->getAttrOfType<mlir::IntegerAttr>(attr);
    if (!value)
      return fail(attr, "must be an integer");
    return value.getInt();
  }

private:
  mlir::func::FuncOp func;
};
} // namespace

/// A config value as JSON: integers, booleans, floats, strings.
static Json configValue(mlir::Attribute attr) {
  if (auto boolean = llvm::dyn_cast<mlir::BoolAttr>(attr))
    return boolean.getValue();
  if (auto integer = llvm::dyn_cast<mlir::IntegerAttr>(attr)) {
    if (integer.getType().isInteger(1))
      return integer.getValue().getBoolValue();
    return integer.getValue().getSExtValue();
  }
  if (auto real = llvm::dyn_cast<mlir::FloatAttr>(attr))
    return real.getValueAsDouble();
  if (auto str = llvm::dyn_cast<mlir::StringAttr>(attr))
    return str.getValue().str();
  return nullptr;
}

/// `{"key": [...], "bucket": "pow2" | "exact" | [bounds], "restore": [...],
/// "zero": [...]}` from `blk.autotune` and the key.
static llvm::Expected<Json> autotuneJson(mlir::func::FuncOp func,
                                         const std::vector<std::string> &key) {
  FuncReader reader(func);
  auto dict = func->getAttrOfType<mlir::DictionaryAttr>("blk.autotune");
  if (!dict)
    return reader.fail("blk.autotune", "must be a dictionary");
  Json autotune = {{"key", key}};
  mlir::Attribute bucket = dict.get("bucket");
  if (auto name = llvm::dyn_cast_or_null<mlir::StringAttr>(bucket);
      name && (name.getValue() == "pow2" || name.getValue() == "exact"))
    autotune["bucket"] = name.getValue().str();
  else if (auto bounds = llvm::dyn_cast_or_null<mlir::DenseI64ArrayAttr>(bucket))
    autotune["bucket"] = bounds.asArrayRef().vec();
  else
    return reader.fail("blk.autotune", "needs `bucket`: \"pow2\", \"exact\" or array<i64>");
  for (const char *list : {"restore", "zero"}) {
    auto names = llvm::dyn_cast_or_null<mlir::ArrayAttr>(dict.get(list));
    if (!names)
      return reader.fail("blk.autotune", std::string("needs `") + list + "`: an array of strings");
    autotune[list] = Json::array();
    for (mlir::Attribute element : names) {
      auto str = llvm::dyn_cast<mlir::StringAttr>(element);
      if (!str)
        return reader.fail("blk.autotune", std::string("needs `") + list + "`: an array of strings");
      autotune[list].push_back(str.getValue().str());
    }
  }
  return autotune;
}

/// The kernel-level part of the manifest, from its first specialisation.
static llvm::Expected<Json> kernelJson(mlir::func::FuncOp func, llvm::StringRef name) {
  FuncReader reader(func);
  auto names = reader.strings("blk.param_names", true);
  if (!names)
    return names.takeError();
  auto types = reader.strings("blk.param_types", true);
  if (!types)
    return types.takeError();
  if (names->size() != types->size() || names->size() != func.getNumArguments())
    return reader.fail("blk.param_names", "and `blk.param_types` must have one entry per argument");
  auto consts = reader.strings("blk.const_params", false);
  if (!consts)
    return consts.takeError();
  auto key = reader.strings("blk.autotune_key", false);
  if (!key)
    return key.takeError();
  auto gridSource = reader.strings("blk.grid_source", false);
  if (!gridSource)
    return gridSource.takeError();

  Json params = Json::array();
  for (size_t i = 0; i < names->size(); ++i) {
    Json param = {{"name", (*names)[i]}, {"type", (*types)[i]}};
    if (auto aligned = func.getArgAttrOfType<mlir::IntegerAttr>(i, "blk.aligned"))
      param["aligned"] = aligned.getInt();
    if (auto multiple = func.getArgAttrOfType<mlir::IntegerAttr>(i, "blk.multiple_of"))
      param["multiple_of"] = multiple.getInt();
    params.push_back(std::move(param));
  }
  Json constParams = Json::array();
  for (llvm::StringRef decl : *consts) {
    auto [constName, constType] = decl.split(':');
    if (constName.empty() || constType.empty())
      return reader.fail("blk.const_params", "entries must be `NAME:type`");
    constParams.push_back({{"name", constName.str()}, {"type", constType.str()}});
  }
  Json kernel = {{"name", name.str()}, {"params", std::move(params)},
                 {"const_params", std::move(constParams)},
                 {"autotune_key", *key}};
  if (func->hasAttr("blk.autotune")) {
    auto autotune = autotuneJson(func, *key);
    if (!autotune)
      return autotune.takeError();
    kernel["autotune"] = std::move(*autotune);
  }
  kernel["grid_source"] = *gridSource;
  if (auto specialize = func->getAttrOfType<mlir::DenseI32ArrayAttr>("blk.specialize"))
    kernel["specialize"] = specialize.asArrayRef().vec();
  kernel["specializations"] = Json::array();
  return kernel;
}

/// The entry `name`'s `tensor_maps` (docs/manifest.md, "Tensor maps"),
/// when it has any.
static void addTensorMaps(Json &entry, llvm::StringRef name, const ManifestOptions &options) {
  auto it = options.tensorMaps.find(name);
  if (it == options.tensorMaps.end() || it->second.empty())
    return;
  auto expressions = [](const std::vector<std::string> &texts) {
    Json list = Json::array();
    for (const std::string &text : texts)
      list.push_back(Json::parse(text));
    return list;
  };
  Json maps = Json::array();
  for (const TensorMapEntry &m : it->second)
    maps.push_back({{"param", m.param},
                    {"elem", m.elem},
                    {"dims", expressions(m.dims)},
                    {"strides", expressions(m.strides)},
                    {"box", m.box},
                    {"swizzle", m.swizzle}});
  entry["tensor_maps"] = std::move(maps);
}

/// One specialisation: the entry `func`.
static llvm::Expected<Json> specializationJson(mlir::func::FuncOp func, const Json &kernel,
                                               const ManifestOptions &options) {
  FuncReader reader(func);
  auto numWarps = reader.integer("blk.num_warps");
  if (!numWarps)
    return numWarps.takeError();
  if (*numWarps <= 0 || *numWarps > 32)
    return reader.fail("blk.num_warps", "must be between 1 and 32");
  int64_t numStages = 1;
  if (func->hasAttr("blk.num_stages")) {
    auto stages = reader.integer("blk.num_stages");
    if (!stages)
      return stages.takeError();
    numStages = *stages;
  }

  // The config in const-parameter declaration order (a DictionaryAttr is
  // sorted by name), then any key the declarations do not list.
  Json config = Json::object();
  auto dict = func->getAttrOfType<mlir::DictionaryAttr>("blk.config");
  if (!dict && func->hasAttr("blk.config"))
    return reader.fail("blk.config", "must be a dictionary");
  if (dict) {
    for (const Json &decl : kernel["const_params"])
      if (mlir::Attribute value = dict.get(decl["name"].get<std::string>()))
        config[decl["name"].get<std::string>()] = configValue(value);
    for (mlir::NamedAttribute entry : dict)
      if (!config.contains(entry.getName().str()))
        config[entry.getName().str()] = configValue(entry.getValue());
  }

  // A warp-specialised entry also launches its producer warpgroup
  // (docs/manifest.md, `producer_warps`).
  bool warpSpecialize = func->hasAttr(kWarpSpecializeAttr);
  int64_t producerWarps = warpSpecialize ? kProducerWarps : 0;
  if (*numWarps + producerWarps > 32)
    return reader.fail(kWarpSpecializeAttr, "needs `blk.num_warps` at most " +
                                                  std::to_string(32 - kProducerWarps));

  EntrySharedMemory shared = options.shared.lookup(func.getSymName());
  // A persistent entry launches at most one program per SM (times its
  // occupancy) and walks its one-axis `@grid` (blk/Support/Persistent.h).
  bool persistent = func->hasAttr(kPersistentAttr);
  if (persistent && !func->hasAttr("blk.grid"))
    return reader.fail(kPersistentAttr, "needs `blk.grid`");
  std::string key = configKey(config, *numWarps, numStages, warpSpecialize, persistent);
  Json spec = {{"entry", func.getSymName().str()}, {"config", std::move(config)},
               {"config_key", std::move(key)},
               {"num_warps", *numWarps}, {"num_stages", numStages}};
  if (warpSpecialize)
    spec["producer_warps"] = producerWarps;
  if (persistent)
    spec["persistent"] = true;
  spec["threads"] = 32 * (*numWarps + producerWarps);
  spec["shared_static"] = shared.staticBytes;
  spec["shared_dynamic"] = shared.dynamicBytes;
  if (auto grid = func->getAttrOfType<mlir::StringAttr>("blk.grid")) {
    Json trees = Json::parse(grid.getValue().str(), nullptr, /*allow_exceptions=*/false);
    if (!trees.is_array() || trees.empty() || trees.size() > 3)
      return reader.fail("blk.grid", "must hold a JSON array of 1 to 3 grid expressions");
    spec["grid"] = std::move(trees);
  } else if (func->hasAttr("blk.grid")) {
    return reader.fail("blk.grid", "must be a string");
  }
  if (auto conditions = func->getAttrOfType<mlir::StringAttr>("blk.requires")) {
    Json trees = Json::parse(conditions.getValue().str(), nullptr, /*allow_exceptions=*/false);
    if (!trees.is_array() || trees.empty())
      return reader.fail("blk.requires", "must hold a non-empty JSON array of conditions");
    spec["requires"] = std::move(trees);
  } else if (func->hasAttr("blk.requires")) {
    return reader.fail("blk.requires", "must be a string");
  }
  addTensorMaps(spec, func.getSymName(), options);
  // Filled once every variant is known (finishKernel); here to keep its place.
  if (!options.entryCode.empty())
    spec["code_hash"] = "";
  return spec;
}

/// A value variant (docs/manifest.md, "Value variants"): listed under the
/// specialisation whose generic entry is `genericEntry`, emitted before it.
/// An assumed variant (docs/manifest.md, "Assumed variants"): `assume` from
/// the func's `blk.variant_assume` (argument, kind, value) triples.
static llvm::Expected<Json> assumedVariant(mlir::func::FuncOp func,
                                           mlir::DenseI64ArrayAttr triples,
                                           const ManifestOptions &options) {
  static const char *const kinds[] = {"aligned", "equals", "multiple_of"};
  llvm::ArrayRef<int64_t> t = triples.asArrayRef();
  if (t.empty() || t.size() % 3 != 0)
    return FuncReader(func).fail("blk.variant_assume",
                                 "must hold (argument, kind, value) triples");
  Json assume = Json::array();
  for (size_t i = 0; i < t.size(); i += 3) {
    if (t[i] < 0 || t[i] >= int64_t(func.getNumArguments()) || t[i + 1] < 0 ||
        t[i + 1] > 2)
      return FuncReader(func).fail("blk.variant_assume", "names no argument or kind");
    assume.push_back({{"param", t[i]}, {kinds[t[i + 1]], t[i + 2]}});
  }
  EntrySharedMemory shared = options.shared.lookup(func.getSymName());
  Json variant = {{"entry", func.getSymName().str()},
                  {"assume", std::move(assume)},
                  {"shared_static", shared.staticBytes},
                  {"shared_dynamic", shared.dynamicBytes}};
  addTensorMaps(variant, func.getSymName(), options);
  return variant;
}

static llvm::Error addVariant(mlir::func::FuncOp func, llvm::StringRef genericEntry,
                              Json &kernel, const ManifestOptions &options) {
  if (auto triples = func->getAttrOfType<mlir::DenseI64ArrayAttr>("blk.variant_assume")) {
    auto variant = assumedVariant(func, triples, options);
    if (!variant)
      return variant.takeError();
    for (Json &spec : kernel["specializations"])
      if (spec["entry"] == genericEntry.str()) {
        spec["assumed"].push_back(std::move(*variant));
        return llvm::Error::success();
      }
    return FuncReader(func).fail("blk.variant_of", "names no specialisation before it");
  }
  auto when = func->getAttrOfType<mlir::DenseI32ArrayAttr>("blk.variant_when");
  if (!when || !kernel.contains("specialize") ||
      when.size() != int64_t(kernel["specialize"].size()))
    return FuncReader(func).fail("blk.variant_when",
                                 "must hold one class per `blk.specialize` parameter");
  for (Json &spec : kernel["specializations"]) {
    if (spec["entry"] != genericEntry.str())
      continue;
    EntrySharedMemory shared = options.shared.lookup(func.getSymName());
    Json variant = {{"entry", func.getSymName().str()},
                    {"when", when.asArrayRef().vec()},
                    {"shared_static", shared.staticBytes},
                    {"shared_dynamic", shared.dynamicBytes}};
    addTensorMaps(variant, func.getSymName(), options);
    spec["variants"].push_back(std::move(variant));
    return llvm::Error::success();
  }
  return FuncReader(func).fail("blk.variant_of", "names no specialisation before it");
}

/// Each pointer parameter's `access`, or-ed over every entry of the kernel.
static void addAccess(Json &kernel, llvm::ArrayRef<PointerAccess> access) {
  Json &params = kernel["params"];
  for (size_t i = 0; i < params.size() && i < access.size(); ++i)
    if (params[i]["type"].get<std::string>().starts_with("*"))
      params[i]["access"] = pointerAccessName(access[i]).str();
}

/// Each specialisation's `code_hash`: its entry's code, then its variants'.
static llvm::Error addCodeHashes(Json &kernel, const ManifestOptions &options) {
  for (Json &spec : kernel["specializations"]) {
    std::vector<std::string> entries = {spec["entry"].get<std::string>()};
    for (const char *list : {"variants", "assumed"})
      if (spec.contains(list))
        for (const Json &variant : spec[list])
          entries.push_back(variant["entry"].get<std::string>());
    std::vector<llvm::StringRef> code;
    for (const std::string &entry : entries) {
      auto it = options.entryCode.find(entry);
      if (it == options.entryCode.end())
        return llvm::createStringError("no code for entry `" + entry + "` (code_hash)");
      code.push_back(it->second);
    }
    spec["code_hash"] = codeHash(code);
  }
  return llvm::Error::success();
}

llvm::Expected<std::string> buildManifest(mlir::ModuleOp module,
                                          const ManifestOptions &options) {
  Json manifest = {{"schema", kManifestSchema},
                   {"compiler", options.compiler.empty() ? compilerVersion() : options.compiler}};
  auto source = module->getAttrOfType<mlir::StringAttr>("blk.source");
  auto hash = module->getAttrOfType<mlir::StringAttr>("blk.source_hash");
  manifest["source"] = source ? options.prefixMap.apply(source.getValue().str()) : std::string();
  manifest["source_hash"] = hash ? hash.getValue().str() : std::string();
  manifest["archs"] = options.archs;

  // Kernels in order of their first specialisation in the module.
  llvm::MapVector<llvm::StringRef, Json> kernels;
  llvm::StringMap<std::vector<PointerAccess>> access;
  for (mlir::func::FuncOp func : module.getOps<mlir::func::FuncOp>()) {
    auto kernelName = func->getAttrOfType<mlir::StringAttr>("blk.kernel");
    if (!kernelName || options.omit.contains(func.getSymName()))
      continue;
    auto it = kernels.find(kernelName.getValue());
    if (it == kernels.end()) {
      auto kernel = kernelJson(func, kernelName.getValue());
      if (!kernel)
        return kernel.takeError();
      it = kernels.insert({kernelName.getValue(), std::move(*kernel)}).first;
    }
    // Every entry counts: a variant may be the one launched.
    std::vector<PointerAccess> &uses = access[kernelName.getValue()];
    std::vector<PointerAccess> here = analyzePointerAccess(func);
    uses.resize(std::max(uses.size(), here.size()), PointerAccess::None);
    for (size_t i = 0; i < here.size(); ++i)
      uses[i] = uses[i] | here[i];
    if (auto of = func->getAttrOfType<mlir::StringAttr>("blk.variant_of")) {
      if (llvm::Error err = addVariant(func, of.getValue(), it->second, options))
        return err;
      continue;
    }
    auto spec = specializationJson(func, it->second, options);
    if (!spec)
      return spec.takeError();
    it->second["specializations"].push_back(std::move(*spec));
  }
  manifest["kernels"] = Json::array();
  for (auto &entry : kernels) {
    addAccess(entry.second, access[entry.first]);
    if (!options.entryCode.empty())
      if (llvm::Error err = addCodeHashes(entry.second, options))
        return err;
    manifest["kernels"].push_back(std::move(entry.second));
  }
  std::vector<std::string> ignored;
  if (llvm::Error err = addTuningTables(manifest, options.tuning,
                                        options.warnings ? *options.warnings : ignored))
    return err;
  // ensure_ascii keeps the bytes plain; the contract allows UTF-8 either way.
  return manifest.dump(-1, ' ', /*ensure_ascii=*/true);
}

} // namespace blk::target
