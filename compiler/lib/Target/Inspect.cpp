//===- Inspect.cpp - `blkc inspect`: describe a blk artifact -------------===//
//
// The runtime's reader throws blk::Error on a malformed artifact; every such
// error becomes an llvm::Error here. Output is built in a string first so that
// a failure part-way prints nothing. Tests: tests/lit/target/inspect-*.test.
//
//===----------------------------------------------------------------------===//
#include "blk/Target/Inspect.h"

#include "blk/Target/CubinInfo.h"

#include "blk/runtime/Error.h"
#include "blk/runtime/FatbinReader.h"
#include "blk/runtime/Manifest.h"


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
                        const ResourceTable &resources) {
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
  if (!kernel.autotuneKey.empty())
    out << "  autotune key: " << joinStrings(kernel.autotuneKey) << "\n";
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

  for (const Specialization &spec : kernel.specializations) {
    out << "  specialization " << spec.entry << "\n"
        << "    config: " << formatConfigValues(spec) << "\n"
        << "    num_warps " << spec.numWarps << ", num_stages " << spec.numStages
        << ", threads " << spec.threads << "\n"
        << "    shared memory: " << spec.sharedStatic << " B static, " << spec.sharedDynamic
        << " B dynamic\n";
    if (!spec.grid.empty()) {
      std::vector<std::string> dims;
      for (const GridExpr &dim : spec.grid)
        dims.push_back(formatGrid(dim, kernel));
      out << "    grid: (" << joinStrings(dims) << ")\n";
    }
    printEntryResources(spec.entry, "    ");
    for (const Variant &variant : spec.variants) {
      out << "    variant " << variant.entry << ": shared memory " << variant.sharedStatic
          << " B static, " << variant.sharedDynamic << " B dynamic\n";
      printEntryResources(variant.entry, "      ");
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
    for (const KernelDesc &kernel : manifest.kernels)
      printKernel(os, kernel, resources);
  } catch (const Error &err) {
    return llvm::createStringError(err.what());
  } catch (const std::exception &err) {
    return llvm::createStringError(path.str() + ": " + err.what());
  }
  out << text;
  return llvm::Error::success();
}

} // namespace blk::target
