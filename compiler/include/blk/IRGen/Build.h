//===- Build.h - `blkc build`'s options and its front half ------*- C++ -*-===//
//
// The front half of the compile pipeline, shared by `blkc build` and the
// interpreter (library BlkLowerToBlockIR, no GPU back end):
//   analysed source -> IRGen (verified) -> blk optimisation pipeline
// The whole `blkc build` (every --emit stage, the GPU back end included) is
// runBuild in blk/Driver/Build.h.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_IRGEN_BUILD_H
#define BLK_IRGEN_BUILD_H

#include "blk/Driver/Frontend.h"
#include "blk/Target/BuildArtifact.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace blk {

/// What `blkc build` was asked for.
struct BuildOptions {
  std::string input;
  /// `--emit`: "ast", "ir" or "ir-opt" (see buildEmitKinds()).
  std::string emit = "ir-opt";
  /// `-o`; empty: stdout.
  std::string output;
  /// `--print-after=PASS` (pass arguments such as `cse`) and
  /// `--print-after-all`: the IR after those passes, on stderr.
  std::vector<std::string> printAfter;
  bool printAfterAll = false;
  /// `--print-locations`: print the FileLineColLoc of every op.
  bool printLocations = false;
  /// `--time-stages`: per-stage times in ms on stderr.
  bool timeStages = false;
  /// `--color`: ANSI colours in the diagnostics on stderr.
  bool colorDiagnostics = false;
  /// `--arch`, `-O`, `--emit-header`, `--depfile`: the back-half stages
  /// (gpu-ir, llvm, ptx, fatbin; compiler/lib/Target/TargetStage.cpp).
  target::TargetBuildOptions target;
};

/// Per-stage wall time of one build, in milliseconds.
struct BuildTimes {
  double frontend = 0, irgen = 0, optimize = 0;
  unsigned specializations = 0;
};

/// Lowers the analysed main file `file` of `fe` (fe.process succeeded) to
/// verified blk IR, optimised with buildOptimizationPipeline when
/// `optimize`. `options` supplies the print-after flags. Returns null (after
/// printing MLIR's diagnostics) only on an internal error.
mlir::OwningOpRef<mlir::ModuleOp>
lowerToBlockIR(Frontend &fe, FileId file, mlir::MLIRContext &context,
               bool optimize, const BuildOptions &options,
               BuildTimes *times = nullptr);

} // namespace blk

#endif // BLK_IRGEN_BUILD_H
