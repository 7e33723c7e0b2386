//===- SharedLayout.h - where a moved block lives in shared memory -*- C++ -*-===//
#ifndef BLK_LIB_CONVERSION_SHAREDLAYOUT_H
#define BLK_LIB_CONVERSION_SHAREDLAYOUT_H

#include "Emitter.h"

namespace blk::gpu {

/// A block in shared memory during a move: src dim `inner` is the row
/// (contiguous), rows are padded by `pad` elements, and groups of
/// `swizzleVec` elements are XOR-ed with (row / perPhase) % maxPhase.
/// Threads store `writeVec` and load `readVec` elements per access.
struct SmemLayout {
  llvm::SmallVector<int64_t> shape; ///< the source block's shape
  unsigned inner = 0;
  int64_t pad = 0;
  unsigned swizzleVec = 1, perPhase = 1, maxPhase = 1;
  unsigned writeVec = 1, readVec = 1;

  int64_t rowLen() const { return shape[inner]; }
  int64_t numRows() const;
  int64_t sizeElems() const { return numRows() * (rowLen() + pad); }
  /// Element offset of src coordinates `c`.
  int64_t offset(llvm::ArrayRef<int64_t> c) const;
  llvm::Value *offset(llvm::IRBuilder<> &b, llvm::ArrayRef<llvm::Value *> c) const;
};

/// Picks, among row dims, paddings and swizzles, the shared layout whose
/// stores (from `src`) and loads (for `dst`) take the fewest shared-memory
/// wavefronts, simulating warp 0's accesses on the host.
SmemLayout chooseSmemLayout(const LayoutView &src, const LayoutView &dst,
                            const CoordMap &map, unsigned elemBytes);

/// Local elements of `v` in runs of `vec` along own dim `dim`: (first
/// element, distance between consecutive elements of the run).
llvm::SmallVector<std::pair<unsigned, unsigned>> vectorRuns(const LayoutView &v,
                                                            unsigned dim, unsigned vec);

/// Consecutive elements a thread holds along own dim `dim` (1 for a dim the
/// layout slices away).
unsigned runLength(const LayoutView &v, unsigned dim);

} // namespace blk::gpu

#endif // BLK_LIB_CONVERSION_SHAREDLAYOUT_H
