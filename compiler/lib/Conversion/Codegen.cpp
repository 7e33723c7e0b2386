//===- Codegen.cpp - compileToPtx: the backend pipeline -------------------===//
//
// clone → the blkgpu pass pipeline (buildGpuPipeline: access hints,
// coalesce, layouts, conversions, unroll hints)  [--emit=gpu-ir]  → per
// kernel, as its own job on a thread pool (`-j`), in an LLVMContext of its
// own: emit LLVM IR (a kernel over the shared-memory limit is left out and
// reported, not an error) → libdevice → O3 → NVPTX → PTX; the pieces are
// put together into one PTX (Target/PtxLink.cpp). The dumps (--emit=llvm)
// and the module hook instead see every kernel in one LLVM module.
// Tests: tests/lit/codegen/, tests/lit/target/build-jobs.test.
//
//===----------------------------------------------------------------------===//
#include "blk/Conversion/Codegen.h"

#include "BlkGpuToLLVM/Emitter.h"
#include "blk/Target/PtxGen.h"
#include "blk/Target/PtxLink.h"
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
#include "llvm/Support/ThreadPool.h"

#include <optional>

using namespace mlir;

namespace blk {

void loadCodegenDialects(MLIRContext &context) {
  context.loadDialect<BlkDialect, gpu::BlkGpuDialect, arith::ArithDialect,
                      math::MathDialect, scf::SCFDialect, func::FuncDialect>();
}

static llvm::Error makeError(const llvm::Twine &msg) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), msg);
}

llvm::Error runGpuPipeline(ModuleOp module, const CodegenOptions &options) {
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
  gpu::buildGpuPipeline(pm, GpuTarget::fromArch(options.arch, options.ptxVersion),
                        options.backend);
  if (failed(pm.run(module)))
    return makeError(messages.empty() ? "the back-end pass pipeline failed" : messages);
  return llvm::Error::success();
}

llvm::Error addAssumedVariants(ModuleOp module) {
  module.getContext()->loadDialect<gpu::BlkGpuDialect>();
  PassManager pm(module.getContext());
  pm.enableVerifier(true);
  pm.addPass(gpu::createAutoSpecialize());
  if (failed(pm.run(module)))
    return makeError("blkgpu-auto-specialize failed");
  return llvm::Error::success();
}

void printGpuIr(ModuleOp module, llvm::raw_ostream &os) {
  module->print(os);
  os << "\n";
}

namespace {
/// What emitting one kernel gives: its facts, and why it is left out if it
/// does not fit the target.
struct EmittedKernel {
  KernelCodegenInfo info;
  std::optional<std::string> omittedReason;
};

/// One kernel compiled on its own (a job): PTX defining only its entry.
struct KernelPtx {
  EmittedKernel emitted;
  std::string ptx;
  std::string error; ///< set when the job failed
};
} // namespace

/// Emits `func` into `module`. Over the shared-memory limit the kernel is
/// still emitted (the caller drops the module): the size is known only then.
static llvm::Expected<EmittedKernel> emitKernel(func::FuncOp func, llvm::Module &module,
                                                const GpuTarget &target,
                                                const CodegenOptions &options) {
  gpu::Emitter emitter(module, func, target, options.lineInfo, &options.prefixMap);
  if (llvm::Error err = emitter.emit())
    return err;
  EmittedKernel result{{func.getSymName().str(), emitter.getThreads(),
                        emitter.getStaticSharedBytes(), emitter.getDynamicSharedBytes(), {}},
                       std::nullopt};
  for (auto map : func.getBody().front().getOps<gpu::TensorMapOp>()) {
    std::optional<target::TensorMapEntry> described = gpu::describeTensorMap(map);
    if (!described)
      return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                     "internal compiler error (codegen): a tensor map of `" +
                                         func.getSymName().str() +
                                         "` is not computed from the kernel's parameters");
    result.info.tensorMaps.push_back(std::move(*described));
  }
  unsigned shared = result.info.sharedStatic + result.info.sharedDynamic;
  if (shared > target.maxSharedPerBlock)
    result.omittedReason = "needs " + std::to_string(shared) + " bytes of shared memory, " +
                           target.arch + " allows " + std::to_string(target.maxSharedPerBlock);
  return result;
}

/// The kernels to compile, in module order.
static SmallVector<func::FuncOp> kernelsToCompile(ModuleOp module,
                                                  const CodegenOptions &options) {
  SmallVector<func::FuncOp> kernels;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal() && !options.omitEntries.contains(func.getSymName()))
      kernels.push_back(func);
  return kernels;
}

/// Whether `func` is a value variant of an entry left out; if so it is
/// recorded as left out too (the manifest lists it under that entry).
static bool isVariantOfOmitted(func::FuncOp func, const CodegenOptions &options,
                               const llvm::StringSet<> &omittedHere, CodegenResult &result) {
  auto of = func->getAttrOfType<StringAttr>("blk.variant_of");
  if (!of || (!options.omitEntries.contains(of.getValue()) && !omittedHere.contains(of.getValue())))
    return false;
  result.omitted.push_back(
      {func.getSymName().str(), "its specialisation `" + of.getValue().str() + "` is left out"});
  return true;
}

/// Gives the module's local symbols (libdevice helpers, constant tables,
/// strings) names that start with the entry, so that the PTX of kernels
/// compiled apart can be put together (linkPtx) without a clash.
static void prefixLocalNames(llvm::Module &module, llvm::StringRef entry) {
  std::string prefix = entry.str() + "__";
  auto rename = [&](llvm::GlobalValue &value) {
    if (!value.hasLocalLinkage() || value.getName().starts_with(prefix))
      return;
    value.setName(prefix + (value.hasName() ? value.getName() : llvm::StringRef("const")));
  };
  for (llvm::GlobalVariable &global : module.globals())
    rename(global);
  for (llvm::Function &function : module.functions())
    rename(function);
}

static llvm::Error verifyLlvm(const llvm::Module &module) {
  std::string messages;
  llvm::raw_string_ostream os(messages);
  if (llvm::verifyModule(module, &os))
    return makeError("internal compiler error (codegen): invalid LLVM IR:\n" + os.str());
  return llvm::Error::success();
}

/// One job: `func` emitted, optimised and turned into PTX in an LLVMContext
/// of its own, so that jobs run on any thread.
static KernelPtx compileKernel(func::FuncOp func, const CodegenOptions &options,
                               const GpuTarget &target) {
  KernelPtx result;
  auto fail = [&](llvm::Error err) {
    result.error = llvm::toString(std::move(err));
    return std::move(result);
  };
  auto tm = gpu::createNvptxTargetMachine(options.arch, options.ptxVersion, options.optLevel);
  if (!tm)
    return fail(tm.takeError());
  llvm::LLVMContext context;
  llvm::Module module(func.getSymName(), context);
  module.setTargetTriple((*tm)->getTargetTriple().str());
  module.setDataLayout((*tm)->createDataLayout());
  auto emitted = emitKernel(func, module, target, options);
  if (!emitted)
    return fail(emitted.takeError());
  result.emitted = std::move(*emitted);
  if (result.emitted.omittedReason)
    return result;
  if (llvm::Error err = verifyLlvm(module))
    return fail(std::move(err));
  if (llvm::Error err = gpu::linkLibdevice(module, options.libdevicePath))
    return fail(std::move(err));
  gpu::optimizeModule(module, **tm, options.optLevel);
  prefixLocalNames(module, func.getSymName());
  auto ptx = gpu::emitPtx(module, **tm);
  if (!ptx)
    return fail(ptx.takeError());
  result.ptx = std::move(*ptx);
  return result;
}

/// Every kernel as its own job on a thread pool, the PTX put together in
/// module order (linkPtx): what the artifact stages use.
static llvm::Expected<CodegenResult> compileKernelsApart(ModuleOp module,
                                                         const CodegenOptions &options,
                                                         const GpuTarget &target) {
  SmallVector<func::FuncOp> kernels = kernelsToCompile(module, options);
  std::vector<KernelPtx> compiled(kernels.size());
  auto run = [&](size_t i) {
    compiled[i] = compileKernel(kernels[i], options, target);
    if (options.kernelDone)
      options.kernelDone(kernels[i].getSymName());
  };
  // MLIR's uniquing is thread-safe only with the context's multithreading on.
  unsigned jobs = module.getContext()->isMultithreadingEnabled() ? options.jobs : 1;
  if (jobs <= 1 || kernels.size() <= 1) {
    for (size_t i = 0; i < kernels.size(); ++i)
      run(i);
  } else {
    std::optional<llvm::StdThreadPool> ownPool;
    llvm::ThreadPoolInterface *pool = options.threadPool;
    if (!pool)
      pool = &ownPool.emplace(llvm::hardware_concurrency(jobs));
    llvm::ThreadPoolTaskGroup group(*pool);
    for (size_t i = 0; i < kernels.size(); ++i)
      group.async(run, i);
    group.wait();
  }

  CodegenResult result;
  llvm::StringSet<> omittedHere;
  std::vector<std::string> pieces;
  for (size_t i = 0; i < kernels.size(); ++i) {
    if (!compiled[i].error.empty())
      return makeError(compiled[i].error);
    if (isVariantOfOmitted(kernels[i], options, omittedHere, result))
      continue;
    const EmittedKernel &emitted = compiled[i].emitted;
    if (emitted.omittedReason) {
      result.omitted.push_back({emitted.info.entry, *emitted.omittedReason});
      omittedHere.insert(emitted.info.entry);
      continue;
    }
    result.kernels.push_back(emitted.info);
    pieces.push_back(std::move(compiled[i].ptx));
  }
  if (pieces.empty()) {
    // Every kernel left out: the PTX of an empty module still carries the
    // directives the manifest goes after.
    auto tm = gpu::createNvptxTargetMachine(options.arch, options.ptxVersion, options.optLevel);
    if (!tm)
      return tm.takeError();
    llvm::LLVMContext context;
    llvm::Module empty("blk", context);
    empty.setTargetTriple((*tm)->getTargetTriple().str());
    empty.setDataLayout((*tm)->createDataLayout());
    auto ptx = gpu::emitPtx(empty, **tm);
    if (!ptx)
      return ptx.takeError();
    result.ptx = std::move(*ptx);
    return result;
  }
  auto ptx = target::linkPtx(pieces);
  if (!ptx)
    return makeError("internal compiler error (codegen): " + llvm::toString(ptx.takeError()));
  result.ptx = std::move(*ptx);
  result.kernelPtx = std::move(pieces);
  return result;
}

/// Every kernel in one LLVM module, for the dumps (--emit=llvm) and the
/// module hook, which want the module as a whole.
static llvm::Expected<CodegenResult> compileInOneModule(ModuleOp module,
                                                        const CodegenOptions &options,
                                                        const GpuTarget &target) {
  auto tm = gpu::createNvptxTargetMachine(options.arch, options.ptxVersion, options.optLevel);
  if (!tm)
    return tm.takeError();
  llvm::LLVMContext llvmContext;
  llvm::Module llvmModule("blk", llvmContext);
  llvmModule.setTargetTriple((*tm)->getTargetTriple().str());
  llvmModule.setDataLayout((*tm)->createDataLayout());

  CodegenResult result;
  llvm::StringSet<> omittedHere;
  for (func::FuncOp func : kernelsToCompile(module, options)) {
    if (isVariantOfOmitted(func, options, omittedHere, result))
      continue;
    // Each kernel is emitted into a module of its own, so that one over a
    // limit can be left out without a trace, then linked into the result.
    auto kernelModule = std::make_unique<llvm::Module>(func.getSymName(), llvmContext);
    kernelModule->setTargetTriple(llvmModule.getTargetTriple());
    kernelModule->setDataLayout(llvmModule.getDataLayout());
    auto emitted = emitKernel(func, *kernelModule, target, options);
    if (!emitted)
      return emitted.takeError();
    if (options.kernelDone)
      options.kernelDone(func.getSymName());
    if (emitted->omittedReason) {
      result.omitted.push_back({emitted->info.entry, *emitted->omittedReason});
      omittedHere.insert(func.getSymName());
      continue;
    }
    if (llvm::Linker::linkModules(llvmModule, std::move(kernelModule)))
      return makeError("internal compiler error (codegen): cannot link the LLVM IR of " +
                       func.getSymName());
    result.kernels.push_back(emitted->info);
  }
  if (options.moduleHook)
    if (llvm::Error err = options.moduleHook(llvmModule))
      return err;
  if (options.llvmIrOut)
    llvmModule.print(*options.llvmIrOut, nullptr);
  if (llvm::Error err = verifyLlvm(llvmModule))
    return err;
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

llvm::Expected<CodegenResult> compileToPtx(ModuleOp blkModule,
                                           const CodegenOptions &options) {
  OwningOpRef<ModuleOp> module(cast<ModuleOp>(blkModule->clone()));
  if (llvm::Error err = runGpuPipeline(*module, options))
    return err;
  GpuTarget target = GpuTarget::fromArch(options.arch, options.ptxVersion);
  if (options.gpuIrOut)
    printGpuIr(*module, *options.gpuIrOut);
  if (options.moduleHook || options.llvmIrOut || options.llvmOptIrOut)
    return compileInOneModule(*module, options, target);
  return compileKernelsApart(*module, options, target);
}

} // namespace blk
