//===- ResourceLimits.cpp - configs left out of an artifact ---------------===//
//
// Expects the kernel attributes of docs/ir.md (blk.kernel, blk.config,
// blk.const_params, blk.num_warps, blk.warp_specialize, blk.variant_of). Tests:
// tests/lit/target/build-resource-limits.test.
//
//===----------------------------------------------------------------------===//
#include "blk/Target/ResourceLimits.h"

#include "blk/Support/WarpSpecialize.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

namespace blk::target {

bool fitsRegisterFile(unsigned registers, unsigned threads, const GpuTarget &target) {
  constexpr unsigned kWarpSize = 32, kWarpAllocationUnit = 256;
  if (registers > target.maxRegistersPerThread)
    return false;
  unsigned warps = (threads + kWarpSize - 1) / kWarpSize;
  unsigned perWarp = (registers * kWarpSize + kWarpAllocationUnit - 1) /
                     kWarpAllocationUnit * kWarpAllocationUnit;
  return uint64_t(warps) * perWarp <= target.registersPerSm;
}

std::vector<Omission> findRejectedEntries(const NvJitLink &jit,
                                          llvm::ArrayRef<std::string> entries,
                                          llvm::ArrayRef<std::string> kernels,
                                          const GpuArch &arch, unsigned optLevel) {
  std::vector<Omission> rejected;
  for (size_t i = 0; i < kernels.size() && i < entries.size(); ++i) {
    auto cubin = jit.compile(kernels[i], arch, optLevel);
    if (cubin)
      continue;
    // "ptxas failed for sm_90 (nvJitLink error 4):", then ptxas's log,
    // whose first error (or fatal) line says why; its closing "Ptx
    // assembly aborted due to errors" says nothing.
    std::string message = llvm::toString(cubin.takeError());
    auto [header, log] = llvm::StringRef(message).split('\n');
    llvm::StringRef why = header;
    for (llvm::StringRef line : llvm::split(log, '\n'))
      if ((line.contains("error") || line.contains("fatal")) &&
          !line.contains("assembly aborted")) {
        why = line;
        break;
      }
    rejected.push_back({entries[i], "ptxas rejects it for " + arch.name + ": " + why.trim().str()});
  }
  return rejected;
}

void OmittedEntries::add(llvm::StringRef entry, const std::string &reason) {
  if (names.insert(entry).second)
    list.push_back({entry.str(), reason});
}

void OmittedEntries::addVariants(mlir::ModuleOp module) {
  for (auto func : module.getOps<mlir::func::FuncOp>())
    if (auto of = func->getAttrOfType<mlir::StringAttr>("blk.variant_of"))
      if (names.contains(of.getValue()))
        add(func.getSymName(), "its specialisation `" + of.getValue().str() + "` is left out");
}

/// A config value as written in a @config.
static void printValue(llvm::raw_ostream &os, mlir::Attribute value) {
  if (auto boolean = llvm::dyn_cast<mlir::BoolAttr>(value)) {
    os << (boolean.getValue() ? "true" : "false");
    return;
  }
  if (auto integer = llvm::dyn_cast<mlir::IntegerAttr>(value)) {
    os << integer.getValue().getSExtValue();
    return;
  }
  if (auto real = llvm::dyn_cast<mlir::FloatAttr>(value)) {
    os << real.getValueAsDouble();
    return;
  }
  if (auto str = llvm::dyn_cast<mlir::StringAttr>(value)) {
    os << '"' << str.getValue() << '"';
    return;
  }
  os << value;
}

/// The config as `NAME=VALUE` words (blk.config is sorted by name; the
/// declaration order reads better), each after a space.
static void printConfig(llvm::raw_ostream &os, mlir::func::FuncOp func) {
  auto config = func->getAttrOfType<mlir::DictionaryAttr>("blk.config");
  llvm::StringSet<> printed;
  if (auto decls = func->getAttrOfType<mlir::ArrayAttr>("blk.const_params"))
    for (auto decl : decls.getAsValueRange<mlir::StringAttr>()) {
      llvm::StringRef name = decl.split(':').first;
      if (mlir::Attribute value = config ? config.get(name) : mlir::Attribute()) {
        os << ' ' << name << '=';
        printValue(os, value);
        printed.insert(name);
      }
    }
  if (config)
    for (mlir::NamedAttribute entry : config)
      if (!printed.contains(entry.getName().getValue())) {
        os << ' ' << entry.getName().getValue() << '=';
        printValue(os, entry.getValue());
      }
  if (auto warps = func->getAttrOfType<mlir::IntegerAttr>("blk.num_warps"))
    os << " num_warps=" << warps.getInt();
  if (func->hasAttr(kWarpSpecializeAttr))
    os << " warp_specialize=true";
  if (func->hasAttr("blk.variant_of"))
    os << (func->hasAttr("blk.variant_assume") ? " (assumed variant `" : " (value variant `")
       << func.getSymName() << "`)";
}

std::string describeConfig(mlir::func::FuncOp func) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto kernel = func->getAttrOfType<mlir::StringAttr>("blk.kernel");
  os << (kernel ? kernel.getValue() : func.getSymName());
  printConfig(os, func);
  return text;
}

/// "kernel `matmul` config BM=256 BN=256 num_warps=8".
static std::string describe(mlir::func::FuncOp func) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto kernel = func->getAttrOfType<mlir::StringAttr>("blk.kernel");
  os << "kernel `" << (kernel ? kernel.getValue() : func.getSymName()) << "` config";
  printConfig(os, func);
  return text;
}

std::vector<std::string> OmittedEntries::messages(mlir::ModuleOp module) const {
  llvm::StringMap<mlir::func::FuncOp> funcs;
  for (auto func : module.getOps<mlir::func::FuncOp>())
    funcs[func.getSymName()] = func;
  std::vector<std::string> result;
  for (const Omission &omission : list) {
    mlir::func::FuncOp func = funcs.lookup(omission.entry);
    if (!func)
      continue;
    auto of = func->getAttrOfType<mlir::StringAttr>("blk.variant_of");
    if (of && names.contains(of.getValue()))
      continue; // said of its specialisation
    result.push_back(describe(func) + ": " + omission.reason);
  }
  return result;
}

llvm::Error OmittedEntries::checkEveryKernelKept(mlir::ModuleOp module) const {
  llvm::StringMap<bool> kept; // kernel name -> has a config left
  for (auto func : module.getOps<mlir::func::FuncOp>()) {
    auto kernel = func->getAttrOfType<mlir::StringAttr>("blk.kernel");
    if (!kernel || func->hasAttr("blk.variant_of"))
      continue;
    kept[kernel.getValue()] |= !names.contains(func.getSymName());
  }
  for (auto func : module.getOps<mlir::func::FuncOp>()) {
    auto kernel = func->getAttrOfType<mlir::StringAttr>("blk.kernel");
    if (!kernel || kept.lookup(kernel.getValue()))
      continue;
    // Say why, from the first config's reason (often all share it).
    std::string why;
    for (const Omission &omission : list)
      if (omission.entry == func.getSymName()) {
        why = " (" + omission.reason + ")";
        break;
      }
    return llvm::createStringError("kernel `" + kernel.getValue().str() +
                                   "`: every config is over a resource limit of the "
                                   "target, so none is left to build" + why);
  }
  return llvm::Error::success();
}

} // namespace blk::target
