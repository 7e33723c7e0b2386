//===- Codegen.cpp - compileToPtx: the backend pipeline -------------------===//
//
// clone → the blkgpu pass pipeline (buildGpuPipeline: access hints,
// coalesce, layouts, conversions, unroll hints)  [--emit=gpu-ir]  → emit
// LLVM IR per kernel (a kernel over the shared-memory limit is left out and
// reported, not an error) → module hook [--emit=llvm] → libdevice → O3 →
// NVPTX → PTX.
//
//===----------------------------------------------------------------------===//
#include "blk/Conversion/Codegen.h"

#include "BlkGpuToLLVM/Emitter.h"
#include "blk/Target/PtxGen.h"
#include "blk/Dialect/BlkGpu/IR/BlkGpuDialect.h"
#include "blk/Dialect/BlkGpu/Transforms/Passes.h"
#include "blk/Target/GpuTarget.h"
#include "blk/Transforms/Pipeline.h"
#include "blk/IR/BlkDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/IR/Verifier.h"
#include "llvm/Linker/Linker.h"

using namespace mlir;

namespace blk {

void loadCodegenDialects(MLIRContext &context) {
  context.loadDialect<BlkDialect, gpu::BlkGpuDialect, arith::ArithDialect,
                      math::MathDialect, scf::SCFDialect, func::FuncDialect>();
}

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

llvm::Error assignLayouts(ModuleOp module, const CodegenOptions &options) {
  MLIRContext *context = module.getContext();
  context->loadDialect<gpu::BlkGpuDialect>();
  std::string messages;
  ScopedDiagnosticHandler handler(context, [&](Diagnostic &diag) {
    llvm::raw_string_ostream os(messages);
    diag.getLocation().print(os);
    os << ": error: " << diag << "\n";
    return success();
  });
  PassManager pm(context);
  pm.enableVerifier(true);
  enablePassPrinting(pm, options.printAfter, options.printAfterAll);
  gpu::buildGpuPipeline(pm, GpuTarget::fromArch(options.arch, options.ptxVersion));
  if (failed(pm.run(module)))
    return makeError(messages.empty() ? "the back-end pass pipeline failed" : messages);
  return llvm::Error::success();
}

void printGpuIr(ModuleOp module, llvm::raw_ostream &os) {
  module->print(os);
  os << "\n";
}

llvm::Expected<CodegenResult> compileToPtx(ModuleOp blkModule,
                                           const CodegenOptions &options) {
  OwningOpRef<ModuleOp> module(cast<ModuleOp>(blkModule->clone()));
  if (llvm::Error err = assignLayouts(*module, options))
    return err;
  GpuTarget target = GpuTarget::fromArch(options.arch, options.ptxVersion);
  if (options.gpuIrOut)
    printGpuIr(*module, *options.gpuIrOut);

  auto tm = gpu::createNvptxTargetMachine(options.arch, options.ptxVersion,
                                          options.optLevel);
  if (!tm)
    return tm.takeError();
  llvm::LLVMContext llvmContext;
  llvm::Module llvmModule("blk", llvmContext);
  llvmModule.setTargetTriple((*tm)->getTargetTriple().str());
  llvmModule.setDataLayout((*tm)->createDataLayout());

  CodegenResult result;
  llvm::StringSet<> omittedHere;
  for (auto func : module->getOps<func::FuncOp>()) {
    if (func.isExternal() || options.omitEntries.contains(func.getSymName()))
      continue;
    // A value variant is listed under its specialisation: it goes with it.
    if (auto of = func->getAttrOfType<StringAttr>("blk.variant_of"))
      if (options.omitEntries.contains(of.getValue()) || omittedHere.contains(of.getValue())) {
        result.omitted.push_back({func.getSymName().str(), "its specialisation `" +
                                                               of.getValue().str() +
                                                               "` is left out"});
        continue;
      }
    // Each kernel is emitted into a module of its own, so that one over a
    // limit can be left out without a trace, then linked into the result.
    auto kernelModule = std::make_unique<llvm::Module>(func.getSymName(), llvmContext);
    kernelModule->setTargetTriple(llvmModule.getTargetTriple());
    kernelModule->setDataLayout(llvmModule.getDataLayout());
    gpu::Emitter emitter(*kernelModule, func, options.lineInfo);
    if (llvm::Error err = emitter.emit())
      return err;
    unsigned shared = emitter.getStaticSharedBytes() + emitter.getDynamicSharedBytes();
    if (shared > target.maxSharedPerBlock) {
      result.omitted.push_back({func.getSymName().str(),
                                "needs " + std::to_string(shared) +
                                    " bytes of shared memory, " + options.arch + " allows " +
                                    std::to_string(target.maxSharedPerBlock)});
      omittedHere.insert(func.getSymName());
      continue;
    }
    if (llvm::Linker::linkModules(llvmModule, std::move(kernelModule)))
      return makeError("internal compiler error (codegen): cannot link the LLVM IR of " +
                       func.getSymName());
    result.kernels.push_back({func.getSymName().str(), emitter.getThreads(),
                              emitter.getStaticSharedBytes(),
                              emitter.getDynamicSharedBytes()});
  }
  if (options.moduleHook)
    if (llvm::Error err = options.moduleHook(llvmModule))
      return err;
  if (options.llvmIrOut)
    llvmModule.print(*options.llvmIrOut, nullptr);
  std::string verifyMessages;
  llvm::raw_string_ostream verifyOs(verifyMessages);
  if (llvm::verifyModule(llvmModule, &verifyOs))
    return makeError("internal compiler error (codegen): invalid LLVM IR:\n" +
                     verifyOs.str());
  if (llvm::Error err = gpu::linkLibdevice(llvmModule, options.libdevicePath))
    return err;
  gpu::optimizeModule(llvmModule, **tm, options.optLevel);
  if (options.llvmOptIrOut)
    llvmModule.print(*options.llvmOptIrOut, nullptr);
  auto ptx = gpu::emitPtx(llvmModule, **tm);
  if (!ptx)
    return ptx.takeError();
  result.ptx = std::move(*ptx);
  return result;
}

} // namespace blk
