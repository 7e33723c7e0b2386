//===- PtxGen.cpp - libdevice, O3 and the NVPTX backend -------------------===//
#include "blk/Target/PtxGen.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/Linker/Linker.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/MemoryBuffer.h"

extern "C" {
void LLVMInitializeNVPTXTargetInfo();
void LLVMInitializeNVPTXTarget();
void LLVMInitializeNVPTXTargetMC();
void LLVMInitializeNVPTXAsmPrinter();
}

namespace blk::gpu {

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createNvptxTargetMachine(const std::string &arch, unsigned ptxVersion,
                         unsigned optLevel) {
  // Registration is idempotent in effect; a local static keeps it to once.
  static const bool initialized = [] {
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    // Shared-memory pointers stay 64-bit (LLVM's default): 32-bit ones
    // (`nvptx-short-ptr`) measured 2-10 % slower on the GEMM and attention
    // kernels on an H100 (bench/NOTES.md, session 13).
    return true;
  }();
  (void)initialized;
  const std::string triple = "nvptx64-nvidia-cuda";
  std::string err;
  const llvm::Target *target = llvm::TargetRegistry::lookupTarget(triple, err);
  if (!target)
    return makeError("NVPTX target unavailable in this LLVM: " + err);
  llvm::CodeGenOptLevel level = optLevel >= 3   ? llvm::CodeGenOptLevel::Aggressive
                                : optLevel == 2 ? llvm::CodeGenOptLevel::Default
                                : optLevel == 1 ? llvm::CodeGenOptLevel::Less
                                                : llvm::CodeGenOptLevel::None;
  llvm::TargetOptions options;
  std::unique_ptr<llvm::TargetMachine> tm(target->createTargetMachine(
      triple, arch, "+ptx" + std::to_string(ptxVersion), options, std::nullopt,
      std::nullopt, level));
  if (!tm)
    return makeError("cannot create an NVPTX target machine for " + arch);
  return tm;
}

llvm::Error linkLibdevice(llvm::Module &module, const std::string &path) {
  bool needed = llvm::any_of(module.functions(), [](llvm::Function &f) {
    return f.isDeclaration() && f.getName().starts_with("__nv_");
  });
  if (needed) {
    auto buffer = llvm::MemoryBuffer::getFile(path);
    if (!buffer)
      return makeError("libdevice not found at '" + path +
                       "' (needed for math functions): " + buffer.getError().message());
    auto lib = llvm::parseBitcodeFile((*buffer)->getMemBufferRef(), module.getContext());
    if (!lib)
      return lib.takeError();
    (*lib)->setTargetTriple(module.getTargetTriple());
    (*lib)->setDataLayout(module.getDataLayout());
    if (llvm::Linker::linkModules(module, std::move(*lib), llvm::Linker::LinkOnlyNeeded))
      return makeError("cannot link libdevice from '" + path + "'");
    module.addModuleFlag(llvm::Module::Override, "nvvm-reflect-ftz", uint32_t(0));
  }
  // Only kernels are entry points: helpers can be inlined and dropped.
  llvm::SmallPtrSet<llvm::Function *, 8> kernels;
  if (llvm::NamedMDNode *ann = module.getNamedMetadata("nvvm.annotations"))
    for (llvm::MDNode *md : ann->operands())
      if (auto *f = llvm::mdconst::dyn_extract_or_null<llvm::Function>(md->getOperand(0)))
        kernels.insert(f);
  for (llvm::Function &f : module.functions())
    if (!f.isDeclaration() && !kernels.contains(&f))
      f.setLinkage(llvm::GlobalValue::InternalLinkage);
  return llvm::Error::success();
}

void optimizeModule(llvm::Module &module, llvm::TargetMachine &tm, unsigned optLevel) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(&tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  llvm::OptimizationLevel level = optLevel >= 3   ? llvm::OptimizationLevel::O3
                                  : optLevel == 2 ? llvm::OptimizationLevel::O2
                                  : optLevel == 1 ? llvm::OptimizationLevel::O1
                                                  : llvm::OptimizationLevel::O0;
  llvm::ModulePassManager mpm = optLevel == 0
                                    ? pb.buildO0DefaultPipeline(level)
                                    : pb.buildPerModuleDefaultPipeline(level);
  mpm.run(module, mam);
}

llvm::Expected<std::string> emitPtx(llvm::Module &module, llvm::TargetMachine &tm) {
  llvm::SmallString<0> text;
  llvm::raw_svector_ostream os(text);
  llvm::legacy::PassManager pm;
  if (tm.addPassesToEmitFile(pm, os, nullptr, llvm::CodeGenFileType::AssemblyFile))
    return makeError("the NVPTX backend cannot emit assembly");
  pm.run(module);
  return std::string(text.str());
}

} // namespace blk::gpu
