//===- BuildArtifact.cpp - blk IR -> gpu-ir | llvm | ptx | fatbin --------===//
//
// Expects a verified blk module carrying IRGen's manifest attributes
// (docs/ir.md). Tests: tests/lit/target/ (every sample to PTX accepted by
// ptxas and to a fatbin that `blkc inspect` reads back).
//
//===----------------------------------------------------------------------===//
#include "blk/Target/BuildArtifact.h"

#include "blk/Conversion/Codegen.h"
#include "blk/Target/CubinInfo.h"
#include "blk/Target/Fatbin.h"
#include "blk/Target/Manifest.h"
#include "blk/Target/NvJitLink.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/Format.h"

#include <algorithm>
#include <chrono>

namespace blk::target {

std::optional<EmitStage> parseEmitStage(llvm::StringRef name) {
  if (name == "gpu-ir")
    return EmitStage::GpuIr;
  if (name == "llvm")
    return EmitStage::Llvm;
  if (name == "ptx")
    return EmitStage::Ptx;
  if (name == "fatbin")
    return EmitStage::Fatbin;
  return std::nullopt;
}

namespace {
/// Prints `blkc: time <phase> <ms> ms` lines for `-v` (no output otherwise).
class PhaseTimer {
public:
  explicit PhaseTimer(llvm::raw_ostream *out) : out(out) {}

  void done(const llvm::Twine &phase) {
    auto now = std::chrono::steady_clock::now();
    if (out)
      *out << "blkc: time " << llvm::format("%-24s", phase.str().c_str())
           << llvm::format("%8.2f ms", std::chrono::duration<double, std::milli>(now - last).count())
           << "\n";
    last = now;
  }

private:
  llvm::raw_ostream *out;
  std::chrono::steady_clock::time_point last = std::chrono::steady_clock::now();
};

/// PTX and backend facts for one arch.
struct ArchPtx {
  const GpuArch *arch;
  CodegenResult codegen;
};
} // namespace

static CodegenOptions codegenOptions(const GpuArch &arch, const ArtifactOptions &artifact) {
  unsigned optLevel = artifact.optLevel;
  const CudaToolkit &toolkit = artifact.toolkit;
  CodegenOptions options;
  options.printAfter = artifact.printAfter;
  options.printAfterAll = artifact.printAfterAll;
  // libdevice (used only by kernels calling __nv_* math) from the same toolkit.
  options.libdevicePath = toolkit.root + "/nvvm/libdevice/libdevice.10.bc";
  options.arch = arch.name;
  // PTX 8.0 at least: the backend may use sm_90 instructions that need it.
  options.ptxVersion = std::max(arch.minPtxVersion, 80u);
  options.optLevel = std::min(optLevel, 3u);
  return options;
}

static llvm::Error stageError(llvm::StringRef stage, llvm::Error err) {
  return llvm::createStringError(stage.str() + ": " + llvm::toString(std::move(err)));
}

static void printResources(llvm::raw_ostream &out, const GpuArch &arch, const Cubin &cubin) {
  for (const EntryResources &entry : cubin.resources)
    out << "blkc: " << arch.name << " " << entry.entry << ": " << entry.registers
        << " registers, " << entry.stackFrame << " B stack, " << entry.spillStores
        << " B spill stores, " << entry.spillLoads << " B spill loads, "
        << entry.sharedBytes << " B shared\n";
}

/// Overwrites the cubin's resource placeholder with ptxas's report, entries
/// in the placeholder's order (so the size matches).
static llvm::Error storeResources(const CodegenResult &codegen, Cubin &cubin) {
  std::vector<EntryResources> report;
  for (const KernelCodegenInfo &kernel : codegen.kernels) {
    auto found = llvm::find_if(cubin.resources, [&](const EntryResources &entry) {
      return entry.entry == kernel.entry;
    });
    report.push_back(found != cubin.resources.end() ? *found : EntryResources{kernel.entry});
  }
  return patchElfSymbol(cubin.image, kResourceSymbol, formatResourceTable(report));
}

llvm::Expected<ArtifactResult> buildArtifact(mlir::ModuleOp blkModule,
                                             const ArtifactOptions &options) {
  if (options.archs.empty())
    return llvm::createStringError("no target architecture");
  loadCodegenDialects(*blkModule.getContext());
  PhaseTimer timer(options.verboseOut);
  ArtifactResult result;
  const GpuArch &newest = options.archs.back();

  if (options.emit == EmitStage::GpuIr) {
    mlir::OwningOpRef<mlir::ModuleOp> clone(blkModule.clone());
    if (llvm::Error err = assignLayouts(*clone, codegenOptions(newest, options)))
      return stageError("gpu-ir", std::move(err));
    llvm::raw_string_ostream os(result.output);
    printGpuIr(*clone, os);
    timer.done("layouts");
    return result;
  }
  if (options.emit == EmitStage::Llvm) {
    CodegenOptions codegen = codegenOptions(newest, options);
    llvm::raw_string_ostream os(result.output);
    codegen.llvmOptIrOut = &os;
    auto compiled = compileToPtx(blkModule, codegen);
    if (!compiled)
      return stageError("codegen", compiled.takeError());
    timer.done("codegen " + newest.name);
    return result;
  }

  // PTX for every arch (the fatbin needs each; --emit=ptx only the newest).
  std::vector<ArchPtx> ptxs;
  for (const GpuArch &arch : options.archs) {
    if (options.emit == EmitStage::Ptx && &arch != &newest)
      continue;
    auto compiled = compileToPtx(blkModule, codegenOptions(arch, options));
    if (!compiled)
      return stageError("codegen", compiled.takeError());
    ptxs.push_back({&arch, std::move(*compiled)});
    timer.done("codegen " + arch.name);
  }

  // One manifest for every image. Shared memory should not depend on the
  // arch; the largest value is recorded if it ever does.
  ManifestOptions manifestOptions;
  for (const GpuArch &arch : options.archs)
    manifestOptions.archs.push_back(arch.name);
  for (const ArchPtx &ptx : ptxs)
    for (const KernelCodegenInfo &kernel : ptx.codegen.kernels) {
      EntrySharedMemory &shared = manifestOptions.shared[kernel.entry];
      shared.staticBytes = std::max(shared.staticBytes, kernel.sharedStatic);
      // Above 48 KiB the backend moves scratch to dynamic shared memory, which
      // the runtime must pass (and opt in to) at launch.
      shared.dynamicBytes = std::max(shared.dynamicBytes, kernel.sharedDynamic);
    }
  auto manifest = buildManifest(blkModule, manifestOptions);
  if (!manifest)
    return stageError("manifest", manifest.takeError());
  result.manifestJson = std::move(*manifest);
  for (ArchPtx &ptx : ptxs) {
    auto embedded = embedManifestInPtx(ptx.codegen.ptx, result.manifestJson);
    if (!embedded)
      return stageError("manifest", embedded.takeError());
    ptx.codegen.ptx = std::move(*embedded);
  }
  timer.done("manifest");

  if (options.emit == EmitStage::Ptx) {
    result.output = std::move(ptxs.back().codegen.ptx);
    return result;
  }

  // Fatbin: a zero placeholder for ptxas's report goes into each PTX; the
  // report overwrites it in the cubin (blkc inspect reads it back).
  for (ArchPtx &ptx : ptxs) {
    std::vector<EntryResources> placeholder;
    for (const KernelCodegenInfo &kernel : ptx.codegen.kernels)
      placeholder.push_back({kernel.entry});
    auto embedded = embedByteArrayInPtx(ptx.codegen.ptx, kResourceSymbol,
                                        formatResourceTable(placeholder),
                                        "ptxas resource usage, filled in the cubin by blkc");
    if (!embedded)
      return stageError("fatbin", embedded.takeError());
    ptx.codegen.ptx = std::move(*embedded);
  }

  // Both CUDA pieces are looked up before any compile work.
  if (auto fatbinary = options.toolkit.findFatbinary(); !fatbinary)
    return fatbinary.takeError();
  auto jit = NvJitLink::load(options.toolkit);
  if (!jit)
    return jit.takeError();
  timer.done("load nvJitLink");

  std::vector<Cubin> cubins;
  for (const ArchPtx &ptx : ptxs) {
    auto cubin = (*jit)->compile(ptx.codegen.ptx, *ptx.arch, options.optLevel);
    if (!cubin)
      return stageError("ptx to cubin", cubin.takeError());
    timer.done("ptxas " + ptx.arch->name);
    if (llvm::Error err = storeResources(ptx.codegen, *cubin))
      return stageError("ptx to cubin", std::move(err));
    if (options.verboseOut)
      printResources(*options.verboseOut, *ptx.arch, *cubin);
    cubins.push_back(std::move(*cubin));
  }
  std::vector<FatbinInput> images;
  for (size_t i = 0; i < ptxs.size(); ++i)
    images.push_back({*ptxs[i].arch, false, cubins[i].image});
  const std::string &newestPtx = ptxs.back().codegen.ptx;
  images.push_back({newest, true,
                    llvm::ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(newestPtx.data()),
                                            newestPtx.size())});
  auto fatbin = makeFatbin(options.toolkit, images);
  if (!fatbin)
    return stageError("fatbin", fatbin.takeError());
  timer.done("fatbinary");
  result.output.assign(fatbin->begin(), fatbin->end());
  return result;
}

} // namespace blk::target
