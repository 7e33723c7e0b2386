//===- Pipeline.cpp - the back-end pass list ------------------------------===//
//
// One readable list (docs/architecture.md, "Backend", has each pass's
// contract). The emitter (Conversion/BlkGpuToLLVM) runs after it.
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

namespace blk::gpu {

void buildGpuPipeline(mlir::OpPassManager &pm, const GpuTarget &target,
                      const BackendChoices &choices) {
  if (choices.autoSpecialize)
    pm.addPass(createAutoSpecialize());
  mlir::OpPassManager &kernel = pm.nest<mlir::func::FuncOp>();
  kernel.addPass(createAnnotateAccessHints());
  kernel.addPass(createCoalesce(CoalesceOptions{target.arch}));
  kernel.addPass(createAssignLayouts());
  kernel.addPass(createAccelerateMatmul(AccelerateMatmulOptions{target.arch}));
  kernel.addPass(
      createPropagateMmaLayouts(PropagateMmaLayoutsOptions{choices.storesFromRegisters}));
  kernel.addPass(createWgmmaRegisterA());
  kernel.addPass(createPipelineLoops(PipelineLoopsOptions{target.arch, choices.tma}));
  kernel.addPass(createRemoveLayoutConversions());
  kernel.addPass(createChooseSharedLayouts());
  kernel.addPass(createAllocateShared());
  kernel.addPass(createInsertBarriers());
  kernel.addPass(createDeferWgmmaWaits());
  // Off by default until it has run on a GPU (bench/NOTES.md, session 20).
  if (choices.warpgroupTurns)
    kernel.addPass(createWarpGroupTurns());
  kernel.addPass(createLoopUnrollHints());
}

namespace {

/// `blk-opt --blkgpu-pipeline="stores-from-registers=true"`: BackendChoices
/// by blkc build's flag names, so that the back end's oracle
/// (tests/lit/interp/Inputs/backend_oracle.py) walks the pipeline a flag
/// makes.
struct GpuPipelineFlags : mlir::PassPipelineOptions<GpuPipelineFlags> {
  Option<bool> autoSpecialize{*this, "auto-specialize", llvm::cl::init(true),
                              llvm::cl::desc("blkc build without --no-auto-specialize")};
  Option<bool> tma{*this, "tma", llvm::cl::init(true),
                   llvm::cl::desc("blkc build without --no-tma")};
  Option<bool> warpgroupTurns{*this, "warpgroup-turns", llvm::cl::init(false),
                              llvm::cl::desc("blkc build --warpgroup-turns")};
  Option<bool> storesFromRegisters{*this, "stores-from-registers", llvm::cl::init(false),
                                   llvm::cl::desc("blkc build --stores-from-registers")};

  BackendChoices choices() const {
    return {autoSpecialize, tma, warpgroupTurns, storesFromRegisters};
  }
};

} // namespace

void registerGpuPasses() {
  registerBlkGpuPasses();
  mlir::PassPipelineRegistration<GpuPipelineFlags>(
      "blkgpu-pipeline", "the back-end pipeline for sm_90 (docs/architecture.md)",
      [](mlir::OpPassManager &pm, const GpuPipelineFlags &flags) {
        buildGpuPipeline(pm, GpuTarget::fromArch("sm_90", 80), flags.choices());
      });
}

} // namespace blk::gpu
