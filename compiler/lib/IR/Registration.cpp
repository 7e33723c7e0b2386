//===- Registration.cpp - dialects that blk IR uses -----------------------===//
#include "blk/IR/Registration.h"
#include "blk/IR/BlkDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"

void blk::registerBlkIRDialects(mlir::DialectRegistry &registry) {
  registry.insert<BlkDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect, mlir::math::MathDialect,
                  mlir::scf::SCFDialect>();
  mlir::func::registerInlinerExtension(registry);
}
