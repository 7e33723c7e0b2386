//===- Inspect.cpp - `blkc inspect`: describe a blk artifact -------------===//
//
// The runtime's reader throws blk::Error on a malformed artifact; every such
// error becomes an llvm::Error here. Output is built in a string first so that
// a failure part-way prints nothing. The fields the compiler adds for
// autotuning (`autotune`, `access`, `requires`, `config_key`, `code_hash`,
// `tuning`: docs/manifest.md) are read from the JSON here, beside the
// runtime's parse. Tests: tests/lit/target/inspect-*.test, tuning-inspect.test.
//
//===----------------------------------------------------------------------===//
#include "blk/Target/Inspect.h"

#include "blk/Target/CubinInfo.h"

#include "blk/runtime/Error.h"
#include "blk/runtime/FatbinReader.h"
#include "blk/runtime/Manifest.h"


#include <nlohmann/json.hpp>

#include <exception>

namespace blk::target {

/// Renders a grid expression with parameter names: `cdiv(n, 1024)`.
static std::string formatGrid(const GridExpr &expr, const KernelDesc &kernel) {
  switch (expr.kind) {
  case GridExpr::Kind::Int:
    return std::to_string(expr.value);
  case GridExpr::Kind::Param:
    return expr.value >= 0 && size_t(expr.value) < kernel.params.size()
               ? kernel.params[expr.value].name
               : "param#" + std::to_string(expr.value);
  case GridExpr::Kind::Op:
    break;
  }
  static const char *kOps[] = {"add", "sub", "mul", "div", "mod", "cdiv", "min", "max", "neg"};
  static const char *kInfix[] = {" + ", " - ", " * ", " / ", " % "};
  unsigned op = static_cast<unsigned>(expr.op);
  if (op < 5 && expr.args.size() == 2)
    return "(" + formatGrid(expr.args[0], kernel) + kInfix[op] + formatGrid(expr.args[1], kernel) + ")";
  if (expr.op == GridExpr::Op::Neg && expr.args.size() == 1)
    return "-" + formatGrid(expr.args[0], kernel);
  std::string text = std::string(kOps[op]) + "(";
  for (size_t i = 0; i < expr.args.size(); ++i)
    text += (i ? ", " : "") + formatGrid(expr.args[i], kernel);
  return text + ")";
}

static std::string joinStrings(const std::vector<std::string> &parts) {
  std::string text;
  for (const std::string &part : parts)
    text += (text.empty() ? "" : ", ") + part;
  return text;
}

static std::string formatConfigValues(const Specialization &spec) {
  std::string text;
  for (const ConfigValue &value : spec.config) {
    text += (text.empty() ? "" : " ") + value.name + "=";
    text += value.isFloat ? std::to_string(value.floatValue) : std::to_string(value.intValue);
  }
  return text.empty() ? "(none)" : text;
}

using Json = nlohmann::ordered_json; // the manifest's key order

/// A `requires` tree as blk source: `n_cols <= 1024 && n_rows > 0`
/// (operators of blk's precedence, parentheses only where they are needed).
static std::string formatCondition(const Json &node, const KernelDesc &kernel, int parent = 0) {
  struct Op {
    const char *name, *text;
    int precedence; // loosest 1 (`||`) to tightest 6 (`* / %`)
  };
  static const Op kOps[] = {{"or", " || ", 1}, {"and", " && ", 2}, {"eq", " == ", 3},
                            {"ne", " != ", 3}, {"lt", " < ", 4},   {"le", " <= ", 4},
                            {"gt", " > ", 4},  {"ge", " >= ", 4},  {"add", " + ", 5},
                            {"sub", " - ", 5}, {"mul", " * ", 6},  {"div", " / ", 6},
                            {"mod", " % ", 6}};
  if (!node.is_object())
    return "?";
  if (node.contains("int") && node["int"].is_number_integer())
    return std::to_string(node["int"].get<int64_t>());
  if (node.contains("param") && node["param"].is_number_unsigned()) {
    size_t index = node["param"].get<size_t>();
    return index < kernel.params.size() ? kernel.params[index].name
                                        : "param#" + std::to_string(index);
  }
  std::string op = node.value("op", "");
  const Json &args = node.contains("args") && node["args"].is_array() ? node["args"] : Json::array();
  if ((op == "neg" || op == "not") && args.size() == 1)
    return (op == "neg" ? "-" : "!") + formatCondition(args[0], kernel, 7);
  for (const Op &o : kOps) {
    if (op != o.name || args.size() != 2)
      continue;
    // Left-associative: an equal precedence on the right needs parentheses.
    std::string text = formatCondition(args[0], kernel, o.precedence) + o.text +
                       formatCondition(args[1], kernel, o.precedence + 1);
    return o.precedence < parent ? "(" + text + ")" : text;
  }
  std::string text = op + "(";
  for (size_t i = 0; i < args.size(); ++i)
    text += (i ? ", " : "") + formatCondition(args[i], kernel);
  return text + ")";
}

/// A JSON array of strings (or numbers) as `a, b`.
static std::string joinJson(const Json &array) {
  std::string text;
  if (!array.is_array())
    return text;
  for (const Json &item : array)
    text += (text.empty() ? "" : ", ") + (item.is_string() ? item.get<std::string>() : item.dump());
  return text;
}

/// `@autotune: key = [M, N], bucket = pow2, restore = [c]`.
static std::string formatAutotune(const Json &autotune) {
  std::string text = "key = [" + joinJson(autotune.value("key", Json::array())) + "], bucket = ";
  const Json bucket = autotune.value("bucket", Json("pow2"));
  text += bucket.is_array() ? "[" + joinJson(bucket) + "]"
                            : bucket.is_string() ? bucket.get<std::string>() : "?";
  for (const char *list : {"restore", "zero"})
    if (autotune.contains(list) && !autotune[list].empty())
      text += std::string(", ") + list + " = [" + joinJson(autotune[list]) + "]";
  return text;
}

/// The manifest's object of kernel `name`, or null.
static const Json *kernelJson(const Json &manifest, const std::string &name) {
  if (manifest.contains("kernels") && manifest["kernels"].is_array())
    for (const Json &k : manifest["kernels"])
      if (k.is_object() && k.value("name", "") == name)
        return &k;
  return nullptr;
}

/// `tuning table 1: NVIDIA H200 (sm_90), 2 entries` and an entry a line.
static void printTuning(llvm::raw_ostream &out, const Json &manifest) {
  if (!manifest.contains("tuning") || !manifest["tuning"].is_array())
    return;
  size_t n = 0;
  for (const Json &table : manifest["tuning"]) {
    const Json device = table.value("device", Json::object());
    const Json entries = table.value("entries", Json::array());
    out << "\ntuning table " << ++n << ": " << device.value("name", "?") << " (sm_"
        << device.value("sm", 0) << "), " << entries.size()
        << (entries.size() == 1 ? " entry\n" : " entries\n");
    for (const Json &entry : entries) {
      std::string key;
      const Json values = entry.value("key", Json::object());
      for (const auto &[name, value] : values.items())
        key += " " + name + "=" + value.dump();
      out << "  " << entry.value("kernel", "?") << key << " -> " << entry.value("config", "?")
          << "\n";
    }
  }
}

/// Per cubin: arch name -> resources of each entry.
using ResourceTable = std::vector<std::pair<std::string, std::vector<EntryResources>>>;

static ResourceTable readResources(const FatbinReader &reader) {
  ResourceTable table;
  for (const blk::FatbinImage &image : reader.images()) {
    if (image.kind != ImageKind::Cubin || image.compressed)
      continue;
    std::string_view bytes = reader.payload(image);
    llvm::ArrayRef<uint8_t> cubin(reinterpret_cast<const uint8_t *>(bytes.data()), bytes.size());
    auto entries = readCubinResources(cubin);
    if (!entries)
      throw Error(reader.origin() + ": corrupt cubin for sm_" + std::to_string(image.arch) +
                  (image.archSpecific ? "a" : "") + ": " + llvm::toString(entries.takeError()));
    std::string arch = "sm_" + std::to_string(image.arch) + (image.archSpecific ? "a" : "");
    table.push_back({arch, std::move(*entries)});
  }
  return table;
}

/// `sm_90: 32 registers, 0 B spill stores, 0 B spill loads, 0 B stack, 1024 B shared`.
static void printResources(llvm::raw_ostream &out, llvm::StringRef arch,
                           const EntryResources &entry, llvm::StringRef indent) {
  out << indent << arch << ": " << entry.registers << " registers, ";
  if (entry.spillsKnown)
    out << entry.spillStores << " B spill stores, " << entry.spillLoads << " B spill loads, "
        << entry.stackFrame << " B stack, ";
  else // A cubin not written by blkc: local memory holds spills and stack.
    out << entry.stackFrame << " B local (stack and spills), ";
  out << entry.sharedBytes << " B shared\n";
}

static void printKernel(llvm::raw_ostream &out, const KernelDesc &kernel,
                        const ResourceTable &resources, const Json *json) {
  out << "\nkernel " << kernel.name << "(";
  for (size_t i = 0; i < kernel.params.size(); ++i) {
    const Param &param = kernel.params[i];
    out << (i ? ", " : "") << param.name << ": " << formatParamType(param.type);
    if (param.aligned)
      out << " @aligned(" << param.aligned << ")";
    if (param.multipleOf)
      out << " @multiple_of(" << param.multipleOf << ")";
  }
  out << ")\n";
  std::vector<std::string> consts;
  for (const ConstParam &param : kernel.constParams)
    consts.push_back(param.name + ": " + formatParamType(param.type));
  if (!consts.empty())
    out << "  const params: " << joinStrings(consts) << "\n";
  if (json && json->contains("autotune"))
    out << "  @autotune: " << formatAutotune((*json)["autotune"]) << "\n";
  else if (!kernel.autotuneKey.empty())
    out << "  autotune key: " << joinStrings(kernel.autotuneKey) << "\n";
  std::vector<std::string> access;
  if (json && json->contains("params") && (*json)["params"].is_array())
    for (const Json &param : (*json)["params"])
      if (param.is_object() && param.contains("access"))
        access.push_back(param.value("name", "?") + " " + param.value("access", "?"));
  if (!access.empty())
    out << "  access: " << joinStrings(access) << "\n";
  if (!kernel.gridSource.empty())
    out << "  @grid: " << joinStrings(kernel.gridSource) << "\n";
  std::vector<std::string> specialized;
  for (uint32_t index : kernel.specialize)
    specialized.push_back(kernel.params[index].name);
  if (!specialized.empty())
    out << "  @specialize: " << joinStrings(specialized)
        << " (classes: 1, d = multiple of 16, x = any)\n";
  auto printEntryResources = [&](const std::string &name, llvm::StringRef indent) {
    for (const auto &[arch, entries] : resources)
      for (const EntryResources &entry : entries)
        if (entry.entry == name)
          printResources(out, arch, entry, indent);
  };
  // The TMA descriptors libblkrt encodes at launch (docs/manifest.md).
  auto printTensorMaps = [&](const std::vector<TensorMapDesc> &maps, llvm::StringRef indent) {
    for (const TensorMapDesc &map : maps)
      out << indent << "tensor map " << formatTensorMap(map, kernel) << "\n";
  };

  static const Json kNone = Json::object();
  for (size_t i = 0; i < kernel.specializations.size(); ++i) {
    const Specialization &spec = kernel.specializations[i];
    const Json &specJson = json && json->contains("specializations") &&
                                   (*json)["specializations"].is_array() &&
                                   i < (*json)["specializations"].size()
                               ? (*json)["specializations"][i]
                               : kNone;
    out << "  specialization " << spec.entry << "\n"
        << "    config: " << formatConfigValues(spec) << "\n";
    if (specJson.contains("config_key"))
      out << "    config key: " << specJson.value("config_key", "") << "\n";
    out << "    num_warps " << spec.numWarps << ", num_stages " << spec.numStages
        << ", threads " << spec.threads;
    if (spec.producerWarps)
      out << ", warp-specialized (" << spec.producerWarps << " producer warps)";
    if (spec.persistent)
      out << ", persistent (at most the programs an SM holds at once per SM, each walking "
             "the grid)";
    out << "\n"
        << "    shared memory: " << spec.sharedStatic << " B static, " << spec.sharedDynamic
        << " B dynamic\n";
    if (!spec.grid.empty()) {
      std::vector<std::string> dims;
      for (const GridExpr &dim : spec.grid)
        dims.push_back(formatGrid(dim, kernel));
      out << "    grid: (" << joinStrings(dims) << ")\n";
    }
    if (specJson.contains("requires") && specJson["requires"].is_array())
      for (const Json &condition : specJson["requires"])
        out << "    requires: " << formatCondition(condition, kernel) << "\n";
    if (specJson.contains("code_hash"))
      out << "    code hash: " << specJson.value("code_hash", "") << "\n";
    printEntryResources(spec.entry, "    ");
    printTensorMaps(spec.tensorMaps, "    ");
    for (const Variant &variant : spec.variants) {
      out << "    variant " << variant.entry << ": shared memory " << variant.sharedStatic
          << " B static, " << variant.sharedDynamic << " B dynamic\n";
      printEntryResources(variant.entry, "      ");
      printTensorMaps(variant.tensorMaps, "      ");
    }
    for (const AssumedVariant &variant : spec.assumed) {
      std::vector<std::string> tests;
      for (const Assumption &a : variant.assume) {
        const std::string &name = kernel.params[a.param].name;
        tests.push_back(a.kind == Assumption::Kind::Aligned
                            ? name + " aligned to " + std::to_string(a.value)
                        : a.kind == Assumption::Kind::Equals
                            ? name + " == " + std::to_string(a.value)
                            : name + " % " + std::to_string(a.value) + " == 0");
      }
      out << "    assumed variant " << variant.entry << " when " << joinStrings(tests)
          << ": shared memory " << variant.sharedStatic << " B static, "
          << variant.sharedDynamic << " B dynamic\n";
      printEntryResources(variant.entry, "      ");
      printTensorMaps(variant.tensorMaps, "      ");
    }
  }
}

llvm::Error inspectArtifact(llvm::StringRef path, llvm::raw_ostream &out,
                            const InspectOptions &options) {
  std::vector<unsigned char> bytes;
  try {
    bytes = readBinaryFile(path.str());
  } catch (const Error &err) {
    return llvm::createStringError(err.what());
  }
  return inspectArtifactBytes(bytes, path, out, options);
}

llvm::Error inspectArtifactBytes(llvm::ArrayRef<uint8_t> bytes, llvm::StringRef path,
                                 llvm::raw_ostream &out, const InspectOptions &options) {
  std::string text;
  llvm::raw_string_ostream os(text);
  try {
    FatbinReader reader(bytes.data(), bytes.size(), path.str());
    std::string json = reader.manifestJson();
    Manifest manifest = parseManifest(json, path.str());
    if (options.rawJson) {
      out << json << "\n";
      return llvm::Error::success();
    }
    ResourceTable resources = readResources(reader);
    os << "artifact: " << path << "\n"
       << "source:   " << manifest.source << " (" << manifest.sourceHash << ")\n"
       << "compiler: " << manifest.compiler << ", manifest schema " << manifest.schema << "\n"
       << "archs:    " << joinStrings(manifest.archs) << "\n"
       << "images:   " << reader.describe() << "\n";
    // parseManifest has accepted it, so it is JSON.
    Json extra = Json::parse(json, nullptr, /*allow_exceptions=*/false);
    for (const KernelDesc &kernel : manifest.kernels)
      printKernel(os, kernel, resources, kernelJson(extra, kernel.name));
    printTuning(os, extra);
  } catch (const Error &err) {
    return llvm::createStringError(err.what());
  } catch (const std::exception &err) {
    return llvm::createStringError(path.str() + ": " + err.what());
  }
  out << text;
  return llvm::Error::success();
}

} // namespace blk::target
