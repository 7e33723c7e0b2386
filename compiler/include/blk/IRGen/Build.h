//===- Build.h - `blkc build`: source to an emitted stage -------*- C++ -*-===//
//
// The compile pipeline behind `blkc build` as a library call:
//   load -> parse -> Sema -> IRGen (verified) -> optimisation pipeline -> emit
// Each `--emit` stage is one row of a table in Build.cpp (ast, ir, ir-opt);
// later stages (gpu-ir, llvm, ptx, fatbin) add rows there and reuse
// `lowerToBlockIR`.
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
  /// `--arch`, `-O`, `--emit-header`, `--depfile`: the back-half stages
  /// (gpu-ir, llvm, ptx, fatbin; compiler/lib/Target/TargetStage.cpp).
  target::TargetBuildOptions target;
};

/// Per-stage wall time of one build, in milliseconds.
struct BuildTimes {
  double frontend = 0, irgen = 0, optimize = 0;
  unsigned specializations = 0;
};

/// The `--emit` values this build of blkc supports, in pipeline order.
std::vector<std::string> buildEmitKinds();

/// Lowers the analysed main file `file` of `fe` (fe.process succeeded) to
/// verified blk IR, optimised with buildOptimizationPipeline when
/// `optimize`. `options` supplies the print-after flags. Returns null (after
/// printing MLIR's diagnostics) only on an internal error.
mlir::OwningOpRef<mlir::ModuleOp>
lowerToBlockIR(Frontend &fe, FileId file, mlir::MLIRContext &context,
               bool optimize, const BuildOptions &options,
               BuildTimes *times = nullptr);

/// Runs `blkc build`: diagnostics go to stderr (text) and the emitted stage
/// to `options.output` or `out`. Returns the exit status (0 ok, 1 errors in
/// the code, 2 usage errors).
int runBuild(const BuildOptions &options, const FrontendOptions &frontend,
             llvm::raw_ostream &out);

} // namespace blk

#endif // BLK_IRGEN_BUILD_H
