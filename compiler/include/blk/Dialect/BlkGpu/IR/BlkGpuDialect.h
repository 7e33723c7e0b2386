//===- BlkGpuDialect.h - the blkgpu dialect ---------------------*- C++ -*-===//
//
// Layout encodings (#blkgpu.blocked, #blkgpu.slice, #blkgpu.shared) and
// blkgpu.convert_layout. Layout.h has the functions that interpret them.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_DIALECT_BLKGPU_IR_BLKGPUDIALECT_H
#define BLK_DIALECT_BLKGPU_IR_BLKGPUDIALECT_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include "blk/Dialect/BlkGpu/IR/BlkGpuDialect.h.inc"

#define GET_ATTRDEF_CLASSES
#include "blk/Dialect/BlkGpu/IR/BlkGpuAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "blk/Dialect/BlkGpu/IR/BlkGpuTypes.h.inc"

#define GET_OP_CLASSES
#include "blk/Dialect/BlkGpu/IR/BlkGpuOps.h.inc"

namespace blk::gpu {
/// Bytes per element of the tensor `map` describes.
unsigned tensorMapElementBytes(TensorMapOp map);
} // namespace blk::gpu

#endif // BLK_DIALECT_BLKGPU_IR_BLKGPUDIALECT_H
