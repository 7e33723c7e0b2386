//===- Registration.h - dialects that blk IR uses ---------------*- C++ -*-===//
#ifndef BLK_IR_REGISTRATION_H
#define BLK_IR_REGISTRATION_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace blk {

/// Adds blk, arith, math, scf and func (with its inliner extension) to
/// `registry`: every dialect that IRGen emits and the passes need.
void registerBlkIRDialects(mlir::DialectRegistry &registry);

} // namespace blk

#endif // BLK_IR_REGISTRATION_H
