//===- LowerToBlockIR.cpp - analysed source to optimised blk IR ----------===//
//
// The front half of `blkc build` and of the interpreter's Session: IRGen
// (verified) and the blk optimisation pipeline. It links no GPU back end
// (blkc run needs none). A module that fails verification after IRGen or a
// pass is a compiler bug (ICE). Tests: tests/lit/irgen/, tests/unit/Interpreter/.
//
//===----------------------------------------------------------------------===//
#include "blk/IRGen/Build.h"
#include "blk/IRGen/IRGen.h"

#include "blk/Sema/Sema.h"
#include "blk/Support/InternalError.h"
#include "blk/Transforms/Pipeline.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include <chrono>

using namespace mlir;

namespace blk {

static double msSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

/// Runs the passes `build` appends on `module`, verifier on, printing
/// after those `--print-after` names; an internal error of `stage` if one
/// fails.
static void runPasses(MLIRContext &context, ModuleOp module, const BuildOptions &options,
                      void (*build)(OpPassManager &), const char *stage, const char *what) {
  PassManager pm(&context);
  pm.enableVerifier(true);
  enablePassPrinting(pm, options.printAfter, options.printAfterAll);
  build(pm);
  if (failed(pm.run(module)))
    internalError(stage, what);
}

OwningOpRef<ModuleOp> lowerToBlockIR(Frontend &fe, FileId file,
                                     MLIRContext &context, bool optimize,
                                     const BuildOptions &options,
                                     BuildTimes *times) {
  const sema::SemaResult *result = fe.getSemaResult(file);
  if (!result)
    internalError("IRGen", "no Sema result for the main file");
  SourceManager &sm = fe.getSourceManager();
  IRGenOptions irgenOptions;
  irgenOptions.sourcePath = sm.getPath(file);
  irgenOptions.sourceHash = hashSource(sm.getText(file));
  // Load the dialects first: their one-time set-up is not IRGen's cost.
  context.loadAllAvailableDialects();
  auto start = std::chrono::steady_clock::now();
  OwningOpRef<ModuleOp> module = generateIR(context, *result, sm, irgenOptions);
  if (failed(verify(*module))) {
    module->print(llvm::errs());
    internalError("IRGen", "the generated blk IR does not verify");
  }
  runPasses(context, *module, options, buildLoweringPipeline, "IRGen",
            "a lowering pass failed on the generated blk IR");
  if (times) {
    times->irgen = msSince(start);
    times->specializations = 0;
    for (auto func : module->getOps<func::FuncOp>())
      times->specializations += func->hasAttr("blk.kernel") ? 1 : 0;
  }
  if (!optimize)
    return module;
  start = std::chrono::steady_clock::now();
  runPasses(context, *module, options, buildOptimizationPipeline, "passes",
            "the optimisation pipeline failed");
  if (times)
    times->optimize = msSince(start);
  return module;
}

} // namespace blk
