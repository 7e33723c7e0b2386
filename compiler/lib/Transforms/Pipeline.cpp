//===- Pipeline.cpp - the blk optimisation pipeline -----------------------===//
//
// A plain list: blk-unroll-static-loops, then MLIR's own passes (the
// lowering passes, which run with or without it, are buildLoweringPipeline's);
// the blk dialect contributes
// folders and canonicalization patterns (lib/IR/BlkFolds.cpp) and side
// effects that keep CSE/LICM/DCE correct around memory ops.
//
//===----------------------------------------------------------------------===//
#include "blk/Transforms/Pipeline.h"
#include "blk/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

void blk::buildOptimizationPipeline(mlir::OpPassManager &pm) {
  // IRGen inlines `fn` calls itself; this catches calls in blk-opt inputs.
  pm.addPass(mlir::createInlinerPass());
  pm.addPass(blk::createUnrollStaticLoops());
  pm.addPass(mlir::createCanonicalizerPass());
  pm.addPass(mlir::createCSEPass());
  pm.addPass(mlir::createSCCPPass());
  pm.addPass(mlir::createLoopInvariantCodeMotionPass());
  pm.addPass(mlir::createCanonicalizerPass());
  // Hoisting leaves copies of values also computed after the loop.
  pm.addPass(mlir::createCSEPass());
  pm.addPass(mlir::createSymbolDCEPass());
}

void blk::buildLoweringPipeline(mlir::OpPassManager &pm) {
  pm.addPass(blk::createMakePersistent());
}

void blk::enablePassPrinting(mlir::PassManager &pm, llvm::ArrayRef<std::string> names,
                             bool all) {
  if (!all && names.empty())
    return;
  pm.getContext()->disableMultithreading();
  std::vector<std::string> wanted(names.begin(), names.end());
  pm.enableIRPrinting(
      [](mlir::Pass *, mlir::Operation *) { return false; },
      [wanted, all](mlir::Pass *pass, mlir::Operation *) {
        return all || llvm::is_contained(wanted, pass->getArgument().str());
      },
      /*printModuleScope=*/true, /*printAfterOnlyOnChange=*/false);
}

void blk::registerBlkPasses() {
  registerTestPrintAxisInfo();
  registerTestPrintPointerAccess();
  registerMakePersistent();
  registerUnrollStaticLoops();
  mlir::registerInlinerPass();
  mlir::registerCanonicalizerPass();
  mlir::registerCSEPass();
  mlir::registerSCCPPass();
  mlir::registerLoopInvariantCodeMotionPass();
  mlir::registerSymbolDCEPass();
  mlir::PassPipelineRegistration<>(
      "blk-optimize", "the blkc optimisation pipeline (docs/ir.md)",
      buildOptimizationPipeline);
}
