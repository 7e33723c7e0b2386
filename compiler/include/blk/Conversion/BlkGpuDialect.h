//===- BlkGpuDialect.h - the blkgpu dialect ---------------------*- C++ -*-===//
//
// Layout encodings (#blkgpu.blocked, #blkgpu.slice, #blkgpu.shared) and
// blkgpu.convert_layout. Layout.h has the functions that interpret them.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_CONVERSION_BLKGPUDIALECT_H
#define BLK_CONVERSION_BLKGPUDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "blk/Conversion/BlkGpuDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "blk/Conversion/BlkGpuAttrs.h.inc"

#define GET_OP_CLASSES
#include "blk/Conversion/BlkGpuOps.h.inc"

#endif // BLK_CONVERSION_BLKGPUDIALECT_H
