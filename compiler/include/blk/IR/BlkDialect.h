//===- BlkDialect.h - the blk dialect ---------------------------*- C++ -*-===//
//
// The blk block-IR dialect (docs/ir.md). Include BlkOps.h for the ops and
// BlkTypes.h for `!blk.ptr<T>`.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_IR_BLKDIALECT_H
#define BLK_IR_BLKDIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Dialect.h"

#include "blk/IR/BlkDialect.h.inc"

#endif // BLK_IR_BLKDIALECT_H
