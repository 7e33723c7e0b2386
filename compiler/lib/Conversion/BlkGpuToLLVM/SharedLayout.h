//===- SharedLayout.h - addresses in a move's shared layout -----*- C++ -*-===//
//
// The host side (which layout, how wide the accesses) is in
// blk/Dialect/BlkGpu/Transforms/SharedMemory.h; this is its address
// arithmetic in emitted code.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LIB_CONVERSION_BLKGPUTOLLVM_SHAREDLAYOUT_H
#define BLK_LIB_CONVERSION_BLKGPUTOLLVM_SHAREDLAYOUT_H

#include "Emitter.h"

namespace blk::gpu {

/// Element offset of src coordinates `c` in `layout` (SmemLayout::offset
/// as instructions).
llvm::Value *emitSmemOffset(llvm::IRBuilder<> &b, const SmemLayout &layout,
                            llvm::ArrayRef<llvm::Value *> c);

/// Source coordinates (instructions) of the element dst coordinates `dst`
/// copy (CoordMap::apply as instructions).
llvm::SmallVector<llvm::Value *> applyCoords(llvm::IRBuilder<> &b, const CoordMap &map,
                                             llvm::ArrayRef<llvm::Value *> dst);

/// Elements per access of a thread's block in layout `view` moving to or
/// from a slot in `layout`: its run along the slot's row dim, capped at 16
/// bytes and at a swizzle group (which stays contiguous), dividing the
/// stored row so every access is aligned.
unsigned sharedAccessWidth(const LayoutView &view, const SmemLayout &layout, unsigned bytes);

/// True when a wgmma reads `buffer` (directly or through a ring slot): its
/// reads go through the async proxy, which must be fenced after ordinary
/// stores and cp.async (PTX ISA, "Proxies").
bool readByAsyncProxy(mlir::Value buffer);

} // namespace blk::gpu

#endif // BLK_LIB_CONVERSION_BLKGPUTOLLVM_SHAREDLAYOUT_H
