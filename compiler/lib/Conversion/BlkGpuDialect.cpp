//===- BlkGpuDialect.cpp - blkgpu dialect registration --------------------===//
#include "blk/Conversion/BlkGpuDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

#include "llvm/ADT/TypeSwitch.h"

#include "blk/Conversion/BlkGpuDialect.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "blk/Conversion/BlkGpuAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "blk/Conversion/BlkGpuOps.cpp.inc"

void blk::gpu::BlkGpuDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "blk/Conversion/BlkGpuAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "blk/Conversion/BlkGpuOps.cpp.inc"
      >();
}
