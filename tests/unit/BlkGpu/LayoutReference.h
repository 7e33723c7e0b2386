//===- LayoutReference.h - the layout model before linear layouts -*- C++ -*-===//
//
// A frozen copy of LayoutView, getRegisterMapping and layoutsEquivalent as
// Layout.cpp computed them before they were rebuilt on LinearLayout (commit
// 6d2427d), so LinearLayoutTest.cpp can keep comparing the two. Do not
// "fix" this file: it is the oracle.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TESTS_UNIT_BLKGPU_LAYOUTREFERENCE_H
#define BLK_TESTS_UNIT_BLKGPU_LAYOUTREFERENCE_H

#include "blk/Dialect/BlkGpu/IR/BlkGpuDialect.h"

#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <optional>

namespace blk::gpu::reference {

/// A distributed layout resolved for one block shape (Layout.h at 6d2427d).
struct LayoutView {
  BlockedEncodingAttr base;
  llvm::SmallVector<int64_t> shape;        ///< the block's own shape
  llvm::SmallVector<int64_t> baseShape;    ///< shape with sliced dims as 1
  llvm::SmallVector<unsigned> kept;        ///< own dim i is base dim kept[i]
  llvm::SmallVector<unsigned> sliced;      ///< base dims removed by slices
  llvm::SmallVector<int64_t> sizeEff;      ///< min(sizePerThread, baseShape)
  llvm::SmallVector<int64_t> tile;         ///< spt * tpw * wpc per base dim
  llvm::SmallVector<int64_t> perDim;       ///< elements per thread per base dim

  unsigned rank() const { return shape.size(); }
  unsigned numElems() const;
  unsigned numThreads() const;
  /// Base-dim offsets of local element i (row-major over perDim).
  llvm::SmallVector<int64_t> elemOffset(unsigned i) const;
  /// Lane / warp index of a thread along base dim d (numbered along order).
  unsigned laneIndex(unsigned lane, unsigned d) const;
  unsigned warpIndex(unsigned warp, unsigned d) const;
  /// Own-dim coordinates of element i of thread (lane, warp).
  llvm::SmallVector<int64_t> coords(unsigned i, unsigned lane, unsigned warp) const;
  /// Lanes / warps along base dim d that hold distinct data (the others hold
  /// copies); a thread with laneIndex < distinctLanes(d) and warpIndex <
  /// distinctWarps(d) for every d owns its elements.
  unsigned distinctLanes(unsigned d) const;
  unsigned distinctWarps(unsigned d) const;
  bool hasReplicas() const;
};

/// Resolves `encoding` (blocked or slice) for `shape`; nullopt for others.
std::optional<LayoutView> getLayoutView(mlir::Attribute encoding,
                                        llvm::ArrayRef<int64_t> shape);

/// For dst element i (of any thread), the src-local index holding the
/// element that `dstToSrc` maps dst's coordinates to, provided that index is
/// the same for every thread (so the move needs no communication).
/// dstToSrc maps own dst coordinates to own src coordinates.
std::optional<llvm::SmallVector<unsigned>> getRegisterMapping(
    const LayoutView &src, const LayoutView &dst,
    const std::function<llvm::SmallVector<int64_t>(llvm::ArrayRef<int64_t>)>
        &dstToSrc);

/// Identity coordinate map for getRegisterMapping.
llvm::SmallVector<int64_t> identityCoords(llvm::ArrayRef<int64_t> c);

/// True when a and b put the same elements, in the same local order, in
/// every thread for `shape`.
bool layoutsEquivalent(mlir::Attribute a, mlir::Attribute b,
                       llvm::ArrayRef<int64_t> shape);

} // namespace blk::gpu::reference

#endif // BLK_TESTS_UNIT_BLKGPU_LAYOUTREFERENCE_H
