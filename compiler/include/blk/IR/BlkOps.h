//===- BlkOps.h - blk dialect operations ------------------------*- C++ -*-===//
//
// Op classes of the blk dialect: blk::ProgramIdOp, blk::LoadOp, … (see the
// table in docs/ir.md for names and operands).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_IR_BLKOPS_H
#define BLK_IR_BLKOPS_H

#include "blk/IR/BlkDialect.h"
#include "blk/IR/BlkTypes.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "blk/IR/BlkEnums.h.inc"

#define GET_OP_CLASSES
#include "blk/IR/BlkOps.h.inc"

#endif // BLK_IR_BLKOPS_H
