//===- Layout.h - what a layout encoding means ------------------*- C++ -*-===//
//
// Every distributed layout resolves, for a block shape, to a LayoutView: its
// linear layout (LinearLayout.h: which register of which lane and warp holds
// which element; the one definition the host queries use) plus the blocked
// base layout it came from, on a base shape (a slice inserts size-1 dims),
// and the kept dims. Thread (lane, warp) holds numElems() elements; element
// i has base coordinate (threadBase(lane, warp) + elemOffset(i)) mod
// baseShape per dim, which is the XOR of the linear layout's bases. The
// emitter computes that XOR from tid's bits with LLVM values
// (Emitter::coords); the passes and the emitter compare layouts on the host
// through the linear layout (convert_layout, broadcast, trans need no data
// movement when every thread already holds the elements it needs). An MMA
// layout adds a toLinearLayout case.
// Test: tests/unit/BlkGpu/LayoutTest.cpp, LinearLayoutReferenceTest.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_DIALECT_BLKGPU_IR_LAYOUT_H
#define BLK_DIALECT_BLKGPU_IR_LAYOUT_H

#include "blk/Dialect/BlkGpu/IR/BlkGpuDialect.h"
#include "blk/Dialect/BlkGpu/IR/LinearLayout.h"

#include "llvm/ADT/SmallVector.h"

#include <functional>
#include <optional>

namespace blk::gpu {

constexpr unsigned kWarpSize = 32;

/// A distributed layout resolved for one block shape (see file comment).
struct LayoutView {
  LinearLayout linear;                     ///< own dims; what every query reads
  BlockedEncodingAttr base;                ///< null for #blkgpu.mma
  llvm::SmallVector<int64_t> shape;        ///< the block's own shape
  llvm::SmallVector<int64_t> baseShape;    ///< shape with sliced dims as 1
  llvm::SmallVector<unsigned> kept;        ///< own dim i is base dim kept[i]
  llvm::SmallVector<unsigned> sliced;      ///< base dims removed by slices
  /// min(sizePerThread, baseShape): the registers that the emitter vectorises
  /// along a dim (a prefix of linear.getVectorRun, which can be longer).
  llvm::SmallVector<int64_t> sizeEff;
  llvm::SmallVector<int64_t> perDim;       ///< elements per thread per base dim

  unsigned rank() const { return shape.size(); }
  unsigned numElems() const { return linear.getInSize(InDim::Register); }
  unsigned numThreads() const;
  /// Base-dim offsets of local element i (row-major over perDim): its
  /// coordinates in lane 0 of warp 0.
  llvm::SmallVector<int64_t> elemOffset(unsigned i) const;
  /// Lane / warp index of a thread along base dim d (numbered along order),
  /// for the emitter's index arithmetic.
  unsigned laneIndex(unsigned lane, unsigned d) const;
  unsigned warpIndex(unsigned warp, unsigned d) const;
  /// Own-dim coordinates of element i of thread (lane, warp).
  llvm::SmallVector<int64_t> coords(unsigned i, unsigned lane, unsigned warp) const;
  /// Lanes / warps along base dim d that hold distinct data (the others hold
  /// copies): 2^(lane / warp bits whose basis moves along d). A thread with
  /// laneIndex < distinctLanes(d) and warpIndex < distinctWarps(d) for every d
  /// owns its elements (LinearLayout::isOwner).
  unsigned distinctLanes(unsigned d) const;
  unsigned distinctWarps(unsigned d) const;
  bool hasReplicas() const;
};

/// Resolves `encoding` (blocked or slice) for `shape`; nullopt for others.
std::optional<LayoutView> getLayoutView(mlir::Attribute encoding,
                                        llvm::ArrayRef<int64_t> shape);

/// The encoding of a tensor type (null for scalars / unencoded tensors).
mlir::Attribute getEncoding(mlir::Type type);

/// `type` (a ranked tensor) with `encoding` attached.
mlir::RankedTensorType withEncoding(mlir::Type type, mlir::Attribute encoding);

/// Warps per program from the enclosing func's `blk.num_warps` (default 4).
unsigned getNumWarps(mlir::Operation *op);

/// Programs per SM the enclosing func's `blk.programs_per_sm` asks for
/// (`@config(…, programs_per_sm = P)`; 1 when it names none).
unsigned getProgramsPerSm(mlir::Operation *op);

/// Blocked layout for `shape`: `vec` contiguous elements per thread along
/// order[0], lanes then warps filled along `order`; leftover lanes/warps
/// replicate along the slowest dim.
BlockedEncodingAttr getBlockedLayout(mlir::MLIRContext *ctx,
                                     llvm::ArrayRef<int64_t> shape,
                                     unsigned numWarps,
                                     llvm::ArrayRef<unsigned> order,
                                     unsigned vec);

/// The layout of trans(x, perm) when x has `src`: dim i of the result is dim
/// perm[i] of the source, so every thread keeps its elements.
BlockedEncodingAttr getTransposedLayout(BlockedEncodingAttr src,
                                        llvm::ArrayRef<int32_t> perm);

/// The default layout: vec 1, last dim fastest.
BlockedEncodingAttr getDefaultLayout(mlir::MLIRContext *ctx,
                                     llvm::ArrayRef<int64_t> shape,
                                     unsigned numWarps);

/// For dst element i (of any thread), the src-local index holding the
/// element that `dstToSrc` maps dst's coordinates to, provided that index is
/// the same for every thread (so the move needs no communication).
/// dstToSrc maps own dst coordinates to own src coordinates and must be
/// GF(2)-linear on their bits (the emitter's identity, broadcast, drop-dim,
/// permute and row-major reshape maps of power-of-two shapes are): it is
/// applied to dst's bases, not to every element.
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

} // namespace blk::gpu

#endif // BLK_DIALECT_BLKGPU_IR_LAYOUT_H
