//===- BuildArtifact.h - blk IR -> gpu-ir | llvm | ptx | fatbin -*- C++ -*-===//
//
// The back half of `blkc build`: takes the optimised blk module (after the
// blk passes) and produces the requested stage. For a fatbin: the backend
// (blk/Conversion/Codegen.h) makes PTX per --arch, the manifest (docs/
// manifest.md) is embedded into each PTX, nvJitLink makes a cubin per arch and
// `fatbinary` packs the cubins plus the newest arch's PTX.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TARGET_BUILDARTIFACT_H
#define BLK_TARGET_BUILDARTIFACT_H

#include "blk/Target/Arch.h"
#include "blk/Target/BackendChoices.h"
#include "blk/Target/BuildProgress.h"
#include "blk/Target/CudaToolkit.h"
#include "blk/Target/Tuning.h"
#include "blk/Support/PrefixMap.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace blk::target {

/// The stages after the blk IR that `--emit` can name.
enum class EmitStage { GpuIr, Llvm, Ptx, Fatbin };

/// Parses `gpu-ir`, `llvm`, `ptx`, `fatbin`; nullopt for anything else.
std::optional<EmitStage> parseEmitStage(llvm::StringRef name);

/// Whether a stage's output is binary (written as-is, never to a terminal).
inline bool isBinaryStage(EmitStage stage) { return stage == EmitStage::Fatbin; }

/// Options of buildArtifact.
struct ArtifactOptions {
  std::vector<GpuArch> archs; ///< Oldest first (parseArchList); non-empty.
  unsigned optLevel = 3;      ///< -O0..-O3: LLVM and ptxas.
  EmitStage emit = EmitStage::Fatbin;
  CudaToolkit toolkit = CudaToolkit::fromEnvironment();
  /// `-v`: per-phase wall times and ptxas resources per entry go here.
  llvm::raw_ostream *verboseOut = nullptr;
  /// `--print-after=PASS` / `--print-after-all` for the back-end passes.
  std::vector<std::string> printAfter;
  bool printAfterAll = false;
  /// A config over a resource limit of the target (ResourceLimits.h) is left
  /// out with a warning on `diagnosticsOut` (null: none); `-Werror` makes
  /// it an error and the build fails.
  bool warningsAsErrors = false;
  llvm::raw_ostream *diagnosticsOut = &llvm::errs();
  /// `-j`: kernels (and ptxas functions) compiled at once; 1 is serial.
  unsigned jobs = 1;
  /// Source lines in the PTX (`.loc`) and, for cubins, ptxas `-lineinfo`:
  /// profilers map SASS to `.blk` lines. The code is the same either way.
  bool lineInfo = false;
  /// What the back-end pipeline does (blkc build's switches).
  BackendChoices backend;
  /// `--prefix-map`: rewrites the source paths the artifact records (the
  /// manifest's `source`, line-info file names).
  PrefixMap prefixMap;
  /// `[12/48] matmul BM=128 …` per kernel job once the build has run for a
  /// second (BuildProgress.h); null: none.
  llvm::raw_ostream *progressOut = nullptr;
  BuildProgress::Style progressStyle = BuildProgress::Style::Lines;
  /// `--tuning` tables (read by readTuningTable), embedded in the manifest
  /// (ptx and fatbin stages); an entry that does not fit fails the build.
  std::vector<TuningTable> tuning;
};

/// The requested stage.
struct ArtifactResult {
  std::string output;       ///< Text (gpu-ir, llvm, ptx) or fatbin bytes.
  std::string manifestJson; ///< Set for ptx and fatbin.
};

/// Runs the backend on `blkModule` (not modified). With several archs the
/// gpu-ir, llvm and ptx stages show the newest. Errors name the stage; a
/// missing CUDA toolkit is an error only for the fatbin stage. A config
/// over a resource limit is left out of the artifact with a warning; a
/// kernel with no config left is an error.
llvm::Expected<ArtifactResult> buildArtifact(mlir::ModuleOp blkModule,
                                             const ArtifactOptions &options);

/// The back-half flags of `blkc build`.
struct TargetBuildOptions {
  std::string arch = std::string(kDefaultArch); ///< `--arch` as given.
  /// The CUDA driver `--arch native` asks for the GPUs (`--driver`; tests: a fake one).
  std::string driverLibrary = "libcuda.so.1";
  unsigned optLevel = 3;  ///< `-O0`..`-O3`.
  std::string emitHeader; ///< `--emit-header FILE.hpp`; empty: none.
  /// `--embed`: the header holds the fatbin's bytes instead of its path.
  bool embedHeader = false;
  /// `--prefix-map OLD=NEW` as given, in order (blk/Support/PrefixMap.h).
  std::vector<std::string> prefixMaps;
  std::string depfile;    ///< `--depfile FILE.d`; empty: none.
  bool verbose = false;   ///< Phase times and ptxas resources on stderr.
  bool warningsAsErrors = false; ///< `-Werror`: a config left out fails the build.
  /// `-j N`: compile jobs at once; 0 means the core count.
  unsigned jobs = 0;
  /// `--lineinfo` / `--no-lineinfo`; unset: on for --emit=ptx, off otherwise.
  std::optional<bool> lineInfo;
  /// `--no-auto-specialize`, `--no-tma`, `--warpgroup-turns`,
  /// `--stores-from-registers`.
  BackendChoices backend;
  /// `--print-after=PASS` / `--print-after-all`, for the back-end passes.
  std::vector<std::string> printAfter;
  bool printAfterAll = false;
  /// `--tuning FILE.json`, in order: tables embedded in the manifest.
  std::vector<std::string> tuningFiles;
};

/// The `--prefix-map` rules in order; a spec that is not OLD=NEW is an error.
llvm::Expected<PrefixMap> parsePrefixMap(llvm::ArrayRef<std::string> specs);

/// `-j` as given (0: the core count) to the number of jobs.
unsigned resolveJobs(unsigned jobs);

/// Checks the flags before any work: a bad `--arch`, `--emit-header` for a
/// stage other than fatbin, `--embed` without `--emit-header`, `--depfile`
/// without `-o`, `--tuning` for a stage without a manifest (other than ptx
/// and fatbin) or a `--prefix-map` that is not OLD=NEW is a usage error
/// (returned as a message).
llvm::Error checkTargetBuildOptions(llvm::StringRef emit, const TargetBuildOptions &options,
                                    llvm::StringRef outputPath);

/// `blkc build`'s stages gpu-ir, llvm, ptx and fatbin on the optimised blk
/// module: writes the stage to `out`, then the launcher header (through the
/// runtime's generateLauncherHeader; by default it loads `outputPath` as
/// given, after --prefix-map; it embeds the fatbin with --embed or when
/// there is no `-o`), rewritten only when its text changes, and the depfile (target `outputPath`,
/// dependencies `sources`: the main file and every import, then the
/// `--tuning` tables). A table that cannot be read or is malformed fails
/// before any code is generated. Errors are
/// printed as `blkc: error: ...`. Returns the exit status: 0, 1 (the build
/// failed) or 2 (usage error).
int runTargetStage(mlir::ModuleOp blkModule, llvm::StringRef emit,
                   const TargetBuildOptions &options, llvm::StringRef outputPath,
                   llvm::ArrayRef<std::string> sources, llvm::raw_ostream &out);

} // namespace blk::target

#endif // BLK_TARGET_BUILDARTIFACT_H
