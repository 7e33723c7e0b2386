//===- TensorMapExpr.h - a tensor map's dims as launch expressions -*- C++ -*-===//
//
// libblkrt encodes each blkgpu.tensor_map at launch from the manifest's
// `tensor_maps` entry (docs/manifest.md, "Tensor maps"), whose dims and
// strides are expressions over the kernel's parameters in the grid
// expressions' JSON. blkgpu-pipeline-loops makes a tensor map only from
// values this can translate; the emitter writes them into the manifest.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_DIALECT_BLKGPU_TRANSFORMS_TENSORMAPEXPR_H
#define BLK_DIALECT_BLKGPU_TRANSFORMS_TENSORMAPEXPR_H

#include "blk/Dialect/BlkGpu/IR/BlkGpuDialect.h"
#include "blk/Target/Manifest.h"

#include <optional>
#include <string>

namespace blk::gpu {

/// `v`, an integer scalar computed from the kernel's arguments and
/// constants by add, sub, mul, div, rem, min and max (and widening casts),
/// as a grid-expression JSON text: {"param": i}, {"int": v} or
/// {"op": "add", "args": [...]}; nullopt when it needs anything else.
std::optional<std::string> launchExpression(mlir::Value v);

/// The manifest entry of `map`; nullopt when its base is not a parameter
/// or a dim or stride is no launch expression.
std::optional<target::TensorMapEntry> describeTensorMap(TensorMapOp map);

} // namespace blk::gpu

#endif // BLK_DIALECT_BLKGPU_TRANSFORMS_TENSORMAPEXPR_H
