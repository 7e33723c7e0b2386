//===- BuildArtifact.cpp - blk IR -> gpu-ir | llvm | ptx | fatbin --------===//
//
// Expects a verified blk module carrying IRGen's manifest attributes
// (docs/ir.md). Tests: tests/lit/target/ (every sample to PTX accepted by
// ptxas and to a fatbin that `blkc inspect` reads back).
//
//===----------------------------------------------------------------------===//
#include "blk/Target/BuildArtifact.h"

#include "ArtifactSteps.h"
#include "blk/Target/Fatbin.h"

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

llvm::Expected<ArtifactResult> buildArtifact(mlir::ModuleOp sourceModule,
                                             const ArtifactOptions &options) {
  if (options.archs.empty())
    return llvm::createStringError("no target architecture");
  loadCodegenDialects(*sourceModule.getContext());
  // The assumed variants are entries like any other from here on.
  mlir::OwningOpRef<mlir::ModuleOp> specialized(sourceModule.clone());
  if (options.backend.autoSpecialize)
    if (llvm::Error err = addAssumedVariants(*specialized))
      return stageError("gpu-ir", std::move(err));
  mlir::ModuleOp blkModule = *specialized;
  PhaseTimer timer(options.verboseOut);
  ArtifactResult result;
  const GpuArch &newest = options.archs.back();

  if (options.emit == EmitStage::GpuIr) {
    mlir::OwningOpRef<mlir::ModuleOp> clone(blkModule.clone());
    if (llvm::Error err = runGpuPipeline(*clone, codegenOptions(newest, options)))
      return stageError("gpu-ir", std::move(err));
    llvm::raw_string_ostream os(result.output);
    printGpuIr(*clone, os);
    timer.done("layouts");
    return result;
  }
  OmittedEntries omitted;
  KernelJobs jobs(blkModule, options);
  if (options.emit == EmitStage::Llvm) {
    CodegenOptions codegen = codegenOptions(newest, options);
    jobs.use(codegen, newest, omitted);
    llvm::raw_string_ostream os(result.output);
    codegen.llvmOptIrOut = &os;
    auto compiled = compileToPtx(blkModule, codegen);
    if (!compiled)
      return stageError("codegen", compiled.takeError());
    for (const OmittedKernel &kernel : compiled->omitted)
      omitted.add(kernel.entry, kernel.reason);
    timer.done("codegen " + newest.name);
    jobs.finish();
    if (llvm::Error err = omitted.checkEveryKernelKept(blkModule))
      return err;
    if (llvm::Error err = reportOmitted(blkModule, options, omitted))
      return err;
    return result;
  }

  // Codegen, manifest and (for a fatbin) cubins; again without the entries
  // ptxas's report shows cannot fit (rare: each pass leaves out one more).
  std::vector<ArchPtx> ptxs;
  std::vector<Cubin> cubins;
  std::unique_ptr<NvJitLink> jit;
  std::vector<std::string> tuningWarnings; // of the last manifest: reported once
  for (;;) {
    if (llvm::Error err = codegenArchs(blkModule, options, omitted, ptxs, jobs, timer))
      return err;
    auto manifest = embedManifest(blkModule, options, omitted, ptxs, tuningWarnings);
    if (!manifest)
      return manifest.takeError();
    result.manifestJson = std::move(*manifest);
    timer.done("manifest");
    if (options.emit == EmitStage::Ptx) {
      jobs.finish();
      if (llvm::Error err = reportOmitted(blkModule, options, omitted))
        return err;
      if (llvm::Error err = reportTuningWarnings(options, tuningWarnings))
        return err;
      result.output = std::move(ptxs.back().codegen.ptx);
      return result;
    }
    if (!jit) {
      // Both CUDA pieces are looked up before any ptxas work.
      if (auto fatbinary = options.toolkit.findFatbinary(); !fatbinary)
        return fatbinary.takeError();
      auto loaded = NvJitLink::load(options.toolkit);
      if (!loaded)
        return loaded.takeError();
      jit = std::move(*loaded);
      timer.done("load nvJitLink");
    }
    auto compiled = compileCubins(*jit, options, ptxs, omitted, jobs, timer);
    if (!compiled)
      return compiled.takeError();
    if (!*compiled)
      continue; // without the entries ptxas rejected
    cubins = std::move(**compiled);
    bool again = false;
    for (size_t i = 0; i < ptxs.size(); ++i)
      again |= omitOverRegisterFile(ptxs[i], cubins[i], omitted);
    if (!again)
      break;
  }
  jobs.finish();
  if (llvm::Error err = reportOmitted(blkModule, options, omitted))
    return err;
  if (llvm::Error err = reportTuningWarnings(options, tuningWarnings))
    return err;
  if (options.verboseOut)
    for (size_t i = 0; i < ptxs.size(); ++i)
      printResources(*options.verboseOut, *ptxs[i].arch, cubins[i]);

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
