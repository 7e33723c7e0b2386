//===- blk-opt.cpp - optimiser driver for the blk dialect -----------------===//
//
// mlir-opt with exactly the dialects blk IR uses and the blk passes, so every
// pass can run alone on a .mlir file (tests/lit/transforms/).
//
//===----------------------------------------------------------------------===//
#include "blk/IR/BlkDialect.h"
// #include "blk/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<blk::BlkDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect, mlir::math::MathDialect,
                  mlir::scf::SCFDialect>();
  // blk::registerBlkPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "blk optimiser driver\n", registry));
}
