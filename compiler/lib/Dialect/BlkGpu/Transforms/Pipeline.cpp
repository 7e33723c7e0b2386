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
                      bool autoSpecialize, bool tma, bool warpgroupTurns,
                      bool storesFromRegisters) {
  if (autoSpecialize)
    pm.addPass(createAutoSpecialize());
  mlir::OpPassManager &kernel = pm.nest<mlir::func::FuncOp>();
  kernel.addPass(createAnnotateAccessHints());
  kernel.addPass(createCoalesce(CoalesceOptions{target.arch}));
  kernel.addPass(createAssignLayouts());
  kernel.addPass(createAccelerateMatmul(AccelerateMatmulOptions{target.arch}));
  kernel.addPass(createPropagateMmaLayouts(PropagateMmaLayoutsOptions{storesFromRegisters}));
  kernel.addPass(createWgmmaRegisterA());
  kernel.addPass(createPipelineLoops(PipelineLoopsOptions{target.arch, tma}));
  kernel.addPass(createRemoveLayoutConversions());
  kernel.addPass(createChooseSharedLayouts());
  kernel.addPass(createAllocateShared());
  kernel.addPass(createInsertBarriers());
  kernel.addPass(createDeferWgmmaWaits());
  // Off by default until it has run on a GPU (bench/NOTES.md, session 20).
  if (warpgroupTurns)
    kernel.addPass(createWarpGroupTurns());
  kernel.addPass(createLoopUnrollHints());
}

void registerGpuPasses() {
  registerBlkGpuPasses();
  mlir::PassPipelineRegistration<>(
      "blkgpu-pipeline", "the back-end pipeline for sm_90 (docs/architecture.md)",
      [](mlir::OpPassManager &pm) { buildGpuPipeline(pm, GpuTarget::fromArch("sm_90", 80)); });
}

} // namespace blk::gpu
