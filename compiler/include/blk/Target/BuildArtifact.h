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
#include "blk/Target/CudaToolkit.h"

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
};

/// The requested stage.
struct ArtifactResult {
  std::string output;       ///< Text (gpu-ir, llvm, ptx) or fatbin bytes.
  std::string manifestJson; ///< Set for ptx and fatbin.
};

/// Runs the backend on `blkModule` (not modified). With several archs the
/// gpu-ir, llvm and ptx stages show the newest. Errors name the stage; a
/// missing CUDA toolkit is an error only for the fatbin stage.
llvm::Expected<ArtifactResult> buildArtifact(mlir::ModuleOp blkModule,
                                             const ArtifactOptions &options);

} // namespace blk::target

#endif // BLK_TARGET_BUILDARTIFACT_H
