//===- Coalesce.h - coalesced layouts for memory ops ------------*- C++ -*-===//
#ifndef BLK_DIALECT_BLKGPU_TRANSFORMS_COALESCE_H
#define BLK_DIALECT_BLKGPU_TRANSFORMS_COALESCE_H

#include "blk/Dialect/BlkGpu/IR/BlkGpuDialect.h"
#include "blk/Dialect/BlkGpu/Transforms/Utility.h"

namespace blk::gpu {

/// The attribute blkgpu-coalesce puts on a memory op: the layout its pointer
/// block gets (blkgpu-assign-layouts applies it).
constexpr llvm::StringLiteral kMemoryLayoutAttr = "blkgpu.layout";

/// Elements per vector access along the contiguous dim `dim` for a memory op
/// whose pointer has AccessHints `hints` and elements of `elemBits` bits
/// (at most 128 bits; masked ops also need mask constancy).
unsigned getVectorWidth(const AccessHints &hints, unsigned dim,
                        unsigned elemBits, bool masked);

/// The blocked layout that coalesces `memOp` (pointer block operand 0)
/// across each warp: lanes run along the most contiguous dim, each thread
/// holds a vector of up to 16 bytes there.
BlockedEncodingAttr getCoalescedLayout(mlir::Operation *memOp, unsigned numWarps);

/// Bits of the element that a memory op moves (i1 as 8).
unsigned getMemoryElemBits(mlir::Operation *memOp);

} // namespace blk::gpu

#endif // BLK_DIALECT_BLKGPU_TRANSFORMS_COALESCE_H
