//===- blk-opt.cpp - optimiser driver for the blk dialect -----------------===//
//
// mlir-opt with exactly the dialects blk IR uses and the blk passes, so every
// pass can run alone on a .mlir file (tests/lit/transforms/).
//
//===----------------------------------------------------------------------===//
#include "blk/IR/Registration.h"
#include "blk/Transforms/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  blk::registerBlkIRDialects(registry);
  blk::registerBlkPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "blk optimiser driver\n", registry));
}
