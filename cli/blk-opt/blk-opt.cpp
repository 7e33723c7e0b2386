//===- blk-opt.cpp - optimiser driver for the blk and blkgpu dialects -----===//
//
// mlir-opt with exactly the dialects blk and blkgpu IR use, the blk passes
// and the back end's blkgpu passes, so every pass can run alone on a .mlir
// file (tests/lit/transforms/, tests/lit/blkgpu/).
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/IR/BlkGpuDialect.h"
#include "blk/Dialect/BlkGpu/Transforms/Passes.h"
#include "blk/IR/Registration.h"
#include "blk/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  blk::registerBlkIRDialects(registry);
  registry.insert<blk::gpu::BlkGpuDialect>();
  blk::registerBlkPasses();
  blk::gpu::registerGpuPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "blk optimiser driver\n", registry));
}
