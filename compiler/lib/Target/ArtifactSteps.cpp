//===- ArtifactSteps.cpp - the steps of buildArtifact ---------------------===//
//
// Tests: tests/lit/target/build-fatbin.test, build-resource-limits.test,
// build-jobs.test.
//
//===----------------------------------------------------------------------===//
#include "ArtifactSteps.h"

#include "blk/Target/CubinInfo.h"
#include "blk/Target/Manifest.h"
#include "blk/Target/PtxLink.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>

namespace blk::target {

CodegenOptions codegenOptions(const GpuArch &arch, const ArtifactOptions &artifact) {
  unsigned optLevel = artifact.optLevel;
  const CudaToolkit &toolkit = artifact.toolkit;
  CodegenOptions options;
  options.printAfter = artifact.printAfter;
  options.printAfterAll = artifact.printAfterAll;
  options.lineInfo = artifact.lineInfo;
  options.backend = artifact.backend;
  options.prefixMap = artifact.prefixMap;
  // libdevice (used only by kernels calling __nv_* math) from the same toolkit.
  options.libdevicePath = toolkit.root + "/nvvm/libdevice/libdevice.10.bc";
  options.arch = arch.name;
  // PTX 8.0 at least: the backend may use sm_90 instructions that need it.
  options.ptxVersion = std::max(arch.minPtxVersion, 80u);
  options.optLevel = std::min(optLevel, 3u);
  return options;
}

llvm::Error stageError(llvm::StringRef stage, llvm::Error err) {
  return llvm::createStringError(stage.str() + ": " + llvm::toString(std::move(err)));
}

void printResources(llvm::raw_ostream &out, const GpuArch &arch, const Cubin &cubin) {
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

/// The manifest of the entries kept, embedded into every PTX (and, for a
/// fatbin, a zero placeholder for ptxas's report, which overwrites it in the
/// cubin; blkc inspect reads it back). Returns the manifest JSON.
llvm::Expected<std::string> embedManifest(mlir::ModuleOp blkModule,
                                          const ArtifactOptions &options,
                                          const OmittedEntries &omitted,
                                          std::vector<ArchPtx> &ptxs,
                                          std::vector<std::string> &warnings) {
  // Shared memory should not depend on the arch; the largest value is
  // recorded if it ever does.
  ManifestOptions manifestOptions;
  manifestOptions.prefixMap = options.prefixMap;
  for (const GpuArch &arch : options.archs)
    manifestOptions.archs.push_back(arch.name);
  for (const auto &entry : omitted.entries())
    manifestOptions.omit.insert(entry.getKey());
  for (const ArchPtx &ptx : ptxs)
    for (const KernelCodegenInfo &kernel : ptx.codegen.kernels) {
      EntrySharedMemory &shared = manifestOptions.shared[kernel.entry];
      shared.staticBytes = std::max(shared.staticBytes, kernel.sharedStatic);
      // Above 48 KiB the backend moves scratch to dynamic shared memory, which
      // the runtime must pass (and opt in to) at launch.
      shared.dynamicBytes = std::max(shared.dynamicBytes, kernel.sharedDynamic);
      // One manifest serves every arch: only TMA-capable archs have tensor
      // maps, and the driver ignores parameters a cubin does not declare.
      std::vector<target::TensorMapEntry> &maps = manifestOptions.tensorMaps[kernel.entry];
      if (maps.empty())
        maps = kernel.tensorMaps;
      else if (!kernel.tensorMaps.empty() && maps != kernel.tensorMaps)
        return llvm::createStringError("internal compiler error (manifest): `" + kernel.entry +
                                       "` has different tensor maps on two archs");
    }
  // Each entry's code is its PTX compiled alone (before linkPtx), which
  // depends on nothing but the entry: adding a config leaves it as it was.
  for (const ArchPtx &ptx : ptxs)
    for (size_t i = 0; i < ptx.codegen.kernelPtx.size() && i < ptx.codegen.kernels.size(); ++i)
      manifestOptions.entryCode[ptx.codegen.kernels[i].entry] += ptx.codegen.kernelPtx[i];
  manifestOptions.tuning = options.tuning;
  warnings.clear();
  manifestOptions.warnings = &warnings;
  auto manifest = buildManifest(blkModule, manifestOptions);
  if (!manifest) {
    // A table's error names the table; others are the manifest stage's.
    std::string message = llvm::toString(manifest.takeError());
    for (const TuningTable &table : options.tuning)
      if (llvm::StringRef(message).starts_with(table.path + ": "))
        return llvm::createStringError(message);
    return stageError("manifest", llvm::createStringError(message));
  }
  for (ArchPtx &ptx : ptxs) {
    auto head = ptxModuleHead(ptx.codegen.ptx);
    if (!head)
      return stageError("manifest", head.takeError());
    ptx.globalsPtx = std::move(*head);
    for (std::string *text : {&ptx.codegen.ptx, &ptx.globalsPtx}) {
      auto embedded = embedManifestInPtx(*text, *manifest);
      if (!embedded)
        return stageError("manifest", embedded.takeError());
      *text = std::move(*embedded);
      if (options.emit != EmitStage::Fatbin)
        continue;
      std::vector<EntryResources> placeholder;
      for (const KernelCodegenInfo &kernel : ptx.codegen.kernels)
        placeholder.push_back({kernel.entry});
      embedded = embedByteArrayInPtx(*text, kResourceSymbol, formatResourceTable(placeholder),
                                     "ptxas resource usage, filled in the cubin by blkc");
      if (!embedded)
        return stageError("fatbin", embedded.takeError());
      *text = std::move(*embedded);
    }
  }
  return manifest;
}

/// What ptxas compiles for one arch: the PTX as one module, or, past
/// kEntriesPerPtxModule entries, the globals and then the entries in groups
/// of that many, each group one module (linked by nvJitLink).
static llvm::Expected<std::vector<std::string>> ptxModules(const ArchPtx &ptx) {
  const std::vector<std::string> &pieces = ptx.codegen.kernelPtx;
  if (pieces.size() <= kEntriesPerPtxModule)
    return std::vector<std::string>{ptx.codegen.ptx};
  std::vector<std::string> modules = {ptx.globalsPtx};
  for (size_t first = 0; first < pieces.size(); first += kEntriesPerPtxModule) {
    size_t n = std::min(kEntriesPerPtxModule, pieces.size() - first);
    auto group = linkPtx(llvm::ArrayRef(pieces).slice(first, n));
    if (!group)
      return group.takeError();
    modules.push_back(std::move(*group));
  }
  return modules;
}

/// A cubin per arch, with ptxas's report stored in it; nullopt when ptxas
/// rejected kernels, which are now in `omitted` (compile again without).
llvm::Expected<std::optional<std::vector<Cubin>>>
compileCubins(NvJitLink &jit, const ArtifactOptions &options, const std::vector<ArchPtx> &ptxs,
              OmittedEntries &omitted, KernelJobs &jobs, PhaseTimer &timer) {
  std::vector<Cubin> cubins;
  for (size_t i = 0; i < ptxs.size(); ++i)
    jobs.startStep();
  for (const ArchPtx &ptx : ptxs) {
    auto modules = ptxModules(ptx);
    if (!modules)
      return stageError("ptx to cubin", modules.takeError());
    // A warp-specialised kernel (setmaxnreg) needs ptxas's whole-program
    // mode, which one module allows (compileWholeProgram says why).
    bool wholeProgram = modules->size() == 1 &&
                        llvm::StringRef(modules->front()).contains("setmaxnreg");
    auto cubin = wholeProgram ? compileWholeProgram(options.toolkit, modules->front(),
                                                    *ptx.arch, options.optLevel,
                                                    options.lineInfo)
                              : jit.compileModules(*modules, *ptx.arch, options.optLevel,
                                                   options.jobs, options.lineInfo);
    if (!cubin) {
      // Which kernels? Each alone (rare, so serial); none alone: the error
      // is not one kernel's.
      std::string message = llvm::toString(cubin.takeError());
      std::vector<std::string> entries;
      for (const KernelCodegenInfo &kernel : ptx.codegen.kernels)
        entries.push_back(kernel.entry);
      std::vector<Omission> rejected = findRejectedEntries(
          jit, entries, ptx.codegen.kernelPtx, *ptx.arch, options.optLevel);
      if (rejected.empty())
        return stageError("ptx to cubin", llvm::createStringError(message));
      for (const Omission &omission : rejected)
        omitted.add(omission.entry, omission.reason);
      return std::nullopt;
    }
    timer.done("ptxas " + ptx.arch->name);
    jobs.stepDone("ptxas " + ptx.arch->name);
    if (llvm::Error err = storeResources(ptx.codegen, *cubin))
      return stageError("ptx to cubin", std::move(err));
    cubins.push_back(std::move(*cubin));
  }
  return cubins;
}

/// The word for what an entry left out is missing from.
static llvm::StringRef artifactName(EmitStage stage) {
  switch (stage) {
  case EmitStage::Llvm:
    return "LLVM IR";
  case EmitStage::Ptx:
    return "PTX";
  default:
    return "fatbin";
  }
}

/// PTX for every arch that `options.emit` needs (the fatbin each,
/// --emit=ptx|llvm only the newest), leaving out `omitted` and what does not
/// fit. One manifest serves every image, so an entry one arch leaves out is
/// compiled out of the archs compiled before it was known.
llvm::Error codegenArchs(mlir::ModuleOp blkModule, const ArtifactOptions &options,
                                OmittedEntries &omitted, std::vector<ArchPtx> &ptxs,
                                KernelJobs &jobs, PhaseTimer &timer) {
  const GpuArch &newest = options.archs.back();
  std::vector<size_t> omittedWhenCompiled;
  auto compile = [&](const GpuArch &arch) -> llvm::Expected<CodegenResult> {
    CodegenOptions codegen = codegenOptions(arch, options);
    jobs.use(codegen, arch, omitted);
    for (const auto &entry : omitted.entries())
      codegen.omitEntries.insert(entry.getKey());
    auto compiled = compileToPtx(blkModule, codegen);
    if (!compiled)
      return stageError("codegen", compiled.takeError());
    for (const OmittedKernel &kernel : compiled->omitted)
      omitted.add(kernel.entry, kernel.reason);
    timer.done("codegen " + arch.name);
    return compiled;
  };
  ptxs.clear();
  for (const GpuArch &arch : options.archs) {
    if (options.emit != EmitStage::Fatbin && &arch != &newest)
      continue;
    omittedWhenCompiled.push_back(omitted.size());
    auto compiled = compile(arch);
    if (!compiled)
      return compiled.takeError();
    ptxs.push_back({&arch, std::move(*compiled), {}});
  }
  for (size_t i = 0; i < ptxs.size(); ++i) {
    bool stale = llvm::any_of(ptxs[i].codegen.kernels, [&](const KernelCodegenInfo &kernel) {
      return omitted.contains(kernel.entry);
    });
    if (omittedWhenCompiled[i] == omitted.size() || !stale)
      continue;
    auto compiled = compile(*ptxs[i].arch);
    if (!compiled)
      return compiled.takeError();
    ptxs[i].codegen = std::move(*compiled);
  }
  return omitted.checkEveryKernelKept(blkModule);
}

/// Leaves out the entries whose registers x threads do not fit one SM of
/// the cubin's arch (ptxas may exceed what a launch can get without
/// .maxntid). Returns whether any was found.
bool omitOverRegisterFile(const ArchPtx &ptx, const Cubin &cubin,
                                 OmittedEntries &omitted) {
  GpuTarget target = GpuTarget::fromArch(ptx.arch->name, ptx.arch->minPtxVersion);
  bool found = false;
  for (const KernelCodegenInfo &kernel : ptx.codegen.kernels) {
    auto entry = llvm::find_if(cubin.resources, [&](const EntryResources &resources) {
      return resources.entry == kernel.entry;
    });
    if (entry == cubin.resources.end() ||
        fitsRegisterFile(entry->registers, kernel.threads, target))
      continue;
    omitted.add(kernel.entry, "needs " + std::to_string(entry->registers) +
                                  " registers per thread for " + std::to_string(kernel.threads) +
                                  " threads, one SM of " + ptx.arch->name + " has " +
                                  std::to_string(target.registersPerSm));
    found = true;
  }
  return found;
}

/// Reports the entries left out: warnings, or errors with -Werror (then the
/// build fails).
llvm::Error reportOmitted(mlir::ModuleOp blkModule, const ArtifactOptions &options,
                                 const OmittedEntries &omitted) {
  std::vector<std::string> messages = omitted.messages(blkModule);
  if (options.diagnosticsOut)
    for (const std::string &message : messages) {
      if (options.warningsAsErrors)
        *options.diagnosticsOut << "blkc: error: " << message << " [-Werror]\n";
      else
        *options.diagnosticsOut << "blkc: warning: " << message << "; left out of the "
                                << artifactName(options.emit) << "\n";
    }
  if (options.warningsAsErrors && !messages.empty())
    return llvm::createStringError(std::to_string(messages.size()) +
                                   " config(s) over a resource limit (an error with -Werror)");
  return llvm::Error::success();
}

/// The tuning tables' warnings (a timing measured on other code), errors
/// with -Werror.
llvm::Error reportTuningWarnings(const ArtifactOptions &options,
                                 const std::vector<std::string> &warnings) {
  if (options.diagnosticsOut)
    for (const std::string &message : warnings)
      *options.diagnosticsOut << "blkc: " << (options.warningsAsErrors ? "error: " : "warning: ")
                              << message << (options.warningsAsErrors ? " [-Werror]\n" : "\n");
  if (options.warningsAsErrors && !warnings.empty())
    return llvm::createStringError(std::to_string(warnings.size()) +
                                   " tuning table warning(s) (errors with -Werror)");
  return llvm::Error::success();
}

} // namespace blk::target
