//===- Codegen.h - blk IR -> PTX (the backend's entry point) ----*- C++ -*-===//
//
// compileToPtx runs the whole GPU backend on a `blk` module (docs/ir.md):
// layout assignment (blkgpu IR), lowering to LLVM IR for nvptx64-nvidia-cuda,
// LLVM's O-level pipeline and the NVPTX TargetMachine. The input module is
// not changed (the backend works on a clone).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_CONVERSION_CODEGEN_H
#define BLK_CONVERSION_CODEGEN_H

#include "blk/Dialect/BlkGpu/Transforms/TensorMapExpr.h"
#include "blk/Support/PrefixMap.h"
#include "blk/Target/BackendChoices.h"

#include "mlir/IR/BuiltinOps.h"

#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include "llvm/ADT/StringSet.h"

#include <functional>
#include <string>
#include <vector>

namespace llvm {
class Module;
class ThreadPoolInterface;
} // namespace llvm

namespace blk {

/// Options of compileToPtx.
struct CodegenOptions {
  /// Target architecture, already validated by the caller (blkc validates
  /// --arch: LLVM silently falls back on unknown CPUs).
  std::string arch = "sm_90";
  /// PTX ISA version as a number: 80 means `.version 8.0` (+ptx80).
  unsigned ptxVersion = 80;
  /// LLVM optimisation level 0..3.
  unsigned optLevel = 3;
  /// libdevice, linked only when the module calls __nv_* functions.
  std::string libdevicePath = "/usr/local/cuda/nvvm/libdevice/libdevice.10.bc";
  /// Called on the lowered LLVM module before optimisation, e.g. to add the
  /// `__blk_manifest` global (make it addrspace(1), external linkage: PTX
  /// `.visible .global .align 1 .b8 __blk_manifest[N]`).
  std::function<llvm::Error(llvm::Module &)> moduleHook;
  /// Dumps (null: none): layout-annotated blkgpu IR, LLVM IR before and
  /// after optimisation.
  llvm::raw_ostream *gpuIrOut = nullptr;
  llvm::raw_ostream *llvmIrOut = nullptr;
  llvm::raw_ostream *llvmOptIrOut = nullptr;
  /// `--lineinfo`: `.loc` directives from the ops' source locations, so
  /// profilers map SASS to `.blk` lines (code is unchanged).
  bool lineInfo = false;
  /// What the back-end pipeline does (blkc build's switches).
  BackendChoices backend;
  /// `--prefix-map`: rewrites the file names line info records.
  PrefixMap prefixMap;
  /// `--print-after=PASS` / `--print-after-all` for the back-end passes
  /// (on stderr, as for the blk passes).
  std::vector<std::string> printAfter;
  bool printAfterAll = false;
  /// Kernels compiled at once (`-j`): each is emitted, optimised and turned
  /// into PTX in an LLVMContext of its own on a worker; 1 compiles them one
  /// after another. Needs the MLIRContext's multithreading (else 1).
  unsigned jobs = 1;
  /// Where those jobs run (null: a pool of `jobs` threads made per call).
  llvm::ThreadPoolInterface *threadPool = nullptr;
  /// Called after each kernel, from the thread that compiled it, with its
  /// entry (progress reports).
  std::function<void(llvm::StringRef entry)> kernelDone;
  /// Entries to leave out of the PTX (e.g. because another --arch could
  /// not fit them: one manifest serves every image).
  llvm::StringSet<> omitEntries;
};

/// What the manifest needs from the backend, per kernel entry.
struct KernelCodegenInfo {
  std::string entry;          ///< mangled func name = PTX entry
  unsigned threads = 0;       ///< 32 * num_warps (also .maxntid)
  unsigned sharedStatic = 0;  ///< bytes of static shared memory (<= 48 KiB)
  /// Bytes of dynamic shared memory the launch must pass (the backend uses
  /// it instead of static memory above 48 KiB; opt in with
  /// cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)).
  unsigned sharedDynamic = 0;
  /// Its blkgpu.tensor_maps: hidden parameters after its own, which the
  /// runtime encodes at launch (the manifest's `tensor_maps`).
  std::vector<target::TensorMapEntry> tensorMaps;
};

/// A kernel entry left out of the PTX because it does not fit the target
/// (an autotuning sweep may hold configs that are too large).
struct OmittedKernel {
  std::string entry;
  std::string reason; ///< "needs N bytes of shared memory, sm_90 allows M"
};

/// The backend's result.
struct CodegenResult {
  std::string ptx;
  std::vector<KernelCodegenInfo> kernels;
  /// Entries over a resource limit of the target, in module order; the PTX
  /// does not define them. (Entries in CodegenOptions::omitEntries are not
  /// listed.)
  std::vector<OmittedKernel> omitted;
  /// The PTX of each of `kernels` compiled alone (before `ptx` put them
  /// together), to find an entry ptxas rejects; empty when the dumps or the
  /// module hook compiled every kernel in one module.
  std::vector<std::string> kernelPtx;
};

/// blk module -> PTX text. Errors name the op and its location. A kernel
/// over the target's shared-memory limit is not an error: it is left out and
/// listed in CodegenResult::omitted.
llvm::Expected<CodegenResult> compileToPtx(mlir::ModuleOp blkModule,
                                           const CodegenOptions &options);

/// Registers the dialects the backend reads and makes (blk, blkgpu, arith,
/// math, scf, func) in `registry`-less contexts: call before parsing.
void loadCodegenDialects(mlir::MLIRContext &context);

/// Runs the back-end pass pipeline (gpu::buildGpuPipeline) on `module` in
/// place, turning it into blkgpu IR (what --emit=gpu-ir prints), with the
/// verifier after each pass and `options`' print-after flags.
llvm::Error runGpuPipeline(mlir::ModuleOp module, const CodegenOptions &options);

/// Adds the assumed variants (blkgpu-auto-specialize) to the blk `module` in
/// place: done once before the per-arch pipelines, so that the manifest,
/// the resource checks and the kernel jobs see them as entries.
llvm::Error addAssumedVariants(mlir::ModuleOp module);

/// Prints blkgpu IR (what --emit=gpu-ir shows); it parses back.
void printGpuIr(mlir::ModuleOp module, llvm::raw_ostream &os);

} // namespace blk

#endif // BLK_CONVERSION_CODEGEN_H
