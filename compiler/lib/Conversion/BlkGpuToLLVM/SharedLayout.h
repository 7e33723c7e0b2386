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

} // namespace blk::gpu

#endif // BLK_LIB_CONVERSION_BLKGPUTOLLVM_SHAREDLAYOUT_H
