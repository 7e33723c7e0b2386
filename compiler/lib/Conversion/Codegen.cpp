//===- Codegen.cpp - compileToPtx: the backend pipeline -------------------===//
//
// clone → annotate access hints (axis info) → assign layouts → remove
// conversions  [--emit=gpu-ir]  → emit LLVM IR per kernel → module hook
// [--emit=llvm] → libdevice → O3 → NVPTX → PTX.
//
//===----------------------------------------------------------------------===//
#include "blk/Conversion/Codegen.h"

#include "Emitter.h"
#include "PtxGen.h"
#include "blk/Conversion/BlkGpuDialect.h"
#include "blk/Conversion/LayoutPasses.h"
#include "blk/IR/BlkDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Diagnostics.h"

#include "llvm/IR/Verifier.h"

using namespace mlir;

namespace blk {

void loadCodegenDialects(MLIRContext &context) {
  context.loadDialect<BlkDialect, gpu::BlkGpuDialect, arith::ArithDialect,
                      math::MathDialect, scf::SCFDialect, func::FuncDialect>();
}

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

/// Shared memory one program may use (opt-in maximum) on `arch`.
static unsigned maxSharedPerBlock(llvm::StringRef arch) {
  if (arch.starts_with("sm_90"))
    return 227 * 1024;
  if (arch == "sm_80" || arch == "sm_87")
    return 163 * 1024;
  return 99 * 1024; // sm_86, sm_89
}

llvm::Error assignLayouts(ModuleOp module) {
  module.getContext()->loadDialect<gpu::BlkGpuDialect>();
  std::string messages;
  ScopedDiagnosticHandler handler(module.getContext(), [&](Diagnostic &diag) {
    llvm::raw_string_ostream os(messages);
    diag.getLocation().print(os);
    os << ": error: " << diag << "\n";
    return success();
  });
  for (auto func : module.getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    gpu::annotateAccessHints(func);
    if (failed(gpu::assignLayouts(func)))
      return makeError(messages.empty() ? "layout assignment failed" : messages);
    gpu::removeLayoutConversions(func);
  }
  return llvm::Error::success();
}

void printGpuIr(ModuleOp module, llvm::raw_ostream &os) {
  // The blk verifiers check layout-free types (docs/ir.md), so blkgpu IR is
  // printed in the custom form without verifying it.
  module->print(os, OpPrintingFlags().assumeVerified());
}

llvm::Expected<CodegenResult> compileToPtx(ModuleOp blkModule,
                                           const CodegenOptions &options) {
  OwningOpRef<ModuleOp> module(cast<ModuleOp>(blkModule->clone()));
  if (llvm::Error err = assignLayouts(*module))
    return std::move(err);
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
  for (auto func : module->getOps<func::FuncOp>()) {
    if (func.isExternal())
      continue;
    gpu::Emitter emitter(llvmModule, func);
    if (llvm::Error err = emitter.emit())
      return std::move(err);
    unsigned shared = emitter.getStaticSharedBytes() + emitter.getDynamicSharedBytes();
    if (shared > maxSharedPerBlock(options.arch))
      return makeError(func.getSymName() + ": blocks too large: the kernel needs " +
                       llvm::Twine(shared) + " bytes of shared memory, " +
                       options.arch + " allows " +
                       llvm::Twine(maxSharedPerBlock(options.arch)) +
                       " per program (use smaller blocks)");
    result.kernels.push_back({func.getSymName().str(), emitter.getThreads(),
                              emitter.getStaticSharedBytes(),
                              emitter.getDynamicSharedBytes()});
  }
  if (options.moduleHook)
    if (llvm::Error err = options.moduleHook(llvmModule))
      return std::move(err);
  if (options.llvmIrOut)
    llvmModule.print(*options.llvmIrOut, nullptr);
  std::string verifyMessages;
  llvm::raw_string_ostream verifyOs(verifyMessages);
  if (llvm::verifyModule(llvmModule, &verifyOs))
    return makeError("internal compiler error (codegen): invalid LLVM IR:\n" +
                     verifyOs.str());
  if (llvm::Error err = gpu::linkLibdevice(llvmModule, options.libdevicePath))
    return std::move(err);
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
