//===- ArtifactSteps.h - the steps of buildArtifact -------------*- C++ -*-===//
//
// Private to compiler/lib/Target (blkArtifact): the steps BuildArtifact.cpp
// strings together — codegen per arch (kernels as jobs on one pool, with
// progress), manifest embedding, cubins, and the configs left out over a
// resource limit (ResourceLimits.h). Tests: tests/lit/target/build-*.test.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LIB_TARGET_ARTIFACTSTEPS_H
#define BLK_LIB_TARGET_ARTIFACTSTEPS_H

#include "blk/Conversion/Codegen.h"
#include "blk/Target/BuildArtifact.h"
#include "blk/Target/BuildProgress.h"
#include "blk/Target/NvJitLink.h"
#include "blk/Target/ResourceLimits.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/ThreadPool.h"

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace blk::target {

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
  /// The module directives with the manifest (and, for a fatbin, the
  /// resource placeholder) alone: the first of the modules ptxas gets when
  /// the entries are compiled in groups (compileCubins).
  std::string globalsPtx;
};

/// Entries per PTX module given to ptxas: its time grows about with the
/// square of a module's entries (one-line kernels in one module: 1000 3.1 s,
/// 2000 11.7 s), so more entries than this are compiled as modules of this
/// many and linked (1000 2.6 s, 2000 6.2 s, 4000 15.2 s: what is left is
/// the link's). Fewer stay one module, so such builds are unchanged.
inline constexpr size_t kEntriesPerPtxModule = 256;

/// What the codegen calls of one build share: the pool their kernel jobs
/// run on (null with -j1) and the progress report, which names each job.
class KernelJobs {
public:
  KernelJobs(mlir::ModuleOp blkModule, const ArtifactOptions &options)
      : progress(options.progressOut, options.progressStyle), options(options) {
    if (options.jobs > 1)
      pool.emplace(llvm::hardware_concurrency(options.jobs));
    for (auto func : blkModule.getOps<mlir::func::FuncOp>())
      if (!func.isExternal())
        labels[func.getSymName()] = describeConfig(func);
  }

  /// Sets up `codegen` (for `arch`, leaving out `omitted`) to run on the
  /// pool and report each kernel.
  void use(CodegenOptions &codegen, const GpuArch &arch, const OmittedEntries &omitted) {
    codegen.jobs = options.jobs;
    codegen.threadPool = pool ? &*pool : nullptr;
    unsigned count = 0;
    for (const auto &label : labels)
      count += omitted.contains(label.getKey()) ? 0 : 1;
    progress.addJobs(count);
    std::string prefix = options.archs.size() > 1 ? arch.name + " " : "";
    codegen.kernelDone = [this, prefix](llvm::StringRef entry) {
      progress.jobDone(prefix + labels.lookup(entry));
    };
  }

  /// A job that is not a kernel (ptxas for one arch), counted when it starts.
  void startStep() { progress.addJobs(1); }
  void stepDone(llvm::StringRef label) { progress.jobDone(label); }

  void finish() { progress.finish(); }

private:
  std::optional<llvm::StdThreadPool> pool;
  BuildProgress progress;
  llvm::StringMap<std::string> labels; ///< entry -> "matmul BM=128 … num_warps=8"
  const ArtifactOptions &options;
};

/// The backend's options for `arch` from the artifact's.
CodegenOptions codegenOptions(const GpuArch &arch, const ArtifactOptions &artifact);

/// `err` prefixed with the stage that failed ("codegen: …").
llvm::Error stageError(llvm::StringRef stage, llvm::Error err);

/// `blkc: sm_90 <entry>: N registers, …` per entry of `cubin` (-v).
void printResources(llvm::raw_ostream &out, const GpuArch &arch, const Cubin &cubin);

/// The manifest of the entries kept, embedded into every PTX (and, for a
/// fatbin, a zero placeholder for ptxas's report, which overwrites it in the
/// cubin; blkc inspect reads it back). Returns the manifest JSON; the
/// tuning tables' warnings replace `warnings`.
llvm::Expected<std::string> embedManifest(mlir::ModuleOp blkModule,
                                          const ArtifactOptions &options,
                                          const OmittedEntries &omitted,
                                          std::vector<ArchPtx> &ptxs,
                                          std::vector<std::string> &warnings);

/// A cubin per arch, with ptxas's report stored in it; nullopt when ptxas
/// rejected kernels, which are now in `omitted` (compile again without).
llvm::Expected<std::optional<std::vector<Cubin>>>
compileCubins(NvJitLink &jit, const ArtifactOptions &options, const std::vector<ArchPtx> &ptxs,
              OmittedEntries &omitted, KernelJobs &jobs, PhaseTimer &timer);

/// PTX for every arch that `options.emit` needs (the fatbin each,
/// --emit=ptx|llvm only the newest), leaving out `omitted` and what does not
/// fit. One manifest serves every image, so an entry one arch leaves out is
/// compiled out of the archs compiled before it was known.
llvm::Error codegenArchs(mlir::ModuleOp blkModule, const ArtifactOptions &options,
                         OmittedEntries &omitted, std::vector<ArchPtx> &ptxs,
                         KernelJobs &jobs, PhaseTimer &timer);

/// Leaves out the entries whose registers x threads do not fit one SM of
/// the cubin's arch. Returns whether any was found.
bool omitOverRegisterFile(const ArchPtx &ptx, const Cubin &cubin, OmittedEntries &omitted);

/// Reports the entries left out: warnings, or errors with -Werror (then the
/// build fails).
llvm::Error reportOmitted(mlir::ModuleOp blkModule, const ArtifactOptions &options,
                          const OmittedEntries &omitted);

/// Prints the tuning tables' warnings on `options.diagnosticsOut`; with
/// -Werror they are errors and the build fails.
llvm::Error reportTuningWarnings(const ArtifactOptions &options,
                                 const std::vector<std::string> &warnings);

} // namespace blk::target

#endif // BLK_LIB_TARGET_ARTIFACTSTEPS_H
