//===- SharedMemory.h - what each op needs of shared memory -----*- C++ -*-===//
//
// One model of the shared memory an op's lowering uses, read by the passes
// that plan it (choose-shared-layouts, allocate-shared, insert-barriers)
// and by the emitter that lowers it, so the plan and the code agree.
//
// A *scratch user* stages data through shared memory in two phases: its
// threads write, the lowering synchronises the program (the one barrier it
// owns), then its threads read. Scratch users are the moves (broadcast,
// expand_dims, reshape, trans, convert_layout) that cannot stay in
// registers, reductions across warps, scans, FMA dots, and atomics whose
// result must reach the copies of a replicated layout. The barrier *before*
// a user's writes is not the user's: blkgpu-insert-barriers puts a
// `blkgpu.barrier` there only when an earlier access to the same bytes may
// still be in flight.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_DIALECT_BLKGPU_TRANSFORMS_SHAREDMEMORY_H
#define BLK_DIALECT_BLKGPU_TRANSFORMS_SHAREDMEMORY_H

#include "blk/Dialect/BlkGpu/IR/Layout.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/SmallVector.h"

#include <optional>

namespace blk::gpu {

/// Attributes the shared-memory passes record (checked by the verifier).
/// On a move that goes through shared memory: its #blkgpu.shared layout.
constexpr llvm::StringLiteral kScratchLayoutAttr = "blkgpu.scratch_layout";
/// On a scratch user: the byte offset of its scratch (allocate-shared).
constexpr llvm::StringLiteral kScratchOffsetAttr = "blkgpu.scratch_offset";
/// On a func: bytes of shared memory the kernel needs (allocate-shared).
constexpr llvm::StringLiteral kSharedBytesAttr = "blkgpu.shared_bytes";
/// On a local_alloc: the byte offset of its buffer (allocate-shared).
constexpr llvm::StringLiteral kBufferOffsetAttr = "blkgpu.buffer_offset";

/// How a destination element's coordinates map to the source element it
/// copies (broadcast, expand_dims, trans, reshape, convert_layout).
struct CoordMap {
  enum Kind { Identity, Broadcast, DropDim, Permute, Reshape } kind = Identity;
  llvm::SmallVector<int64_t> srcShape, dstShape;
  llvm::SmallVector<int64_t> perm; ///< Permute: dst dim i is src dim perm[i]
  int64_t dim = 0;                 ///< DropDim: the dst dim that src lacks

  /// Source coordinates of the element dst coordinates `dst` copy.
  llvm::SmallVector<int64_t> apply(llvm::ArrayRef<int64_t> dst) const;
  /// The src dim that dst dim `dstDim` walks along (-1: none).
  int srcDimOf(unsigned dstDim) const;
};

/// What a move op does: the two layouts and the coordinate map.
struct Move {
  LayoutView src, dst;
  CoordMap map;
  mlir::Type elemType;
};

/// The move `op` performs; nullopt for ops that are not moves (or whose
/// operand or result has no distributed layout).
std::optional<Move> getMove(mlir::Operation *op);

/// True when no thread holds every element it needs: the move goes
/// through shared memory.
bool needsSharedMemory(const Move &move);

/// Bytes one element of `type` takes in shared memory (i1 as a byte,
/// pointers as 8).
unsigned getMemBytes(mlir::Type type);

/// A block in shared memory: src dim `inner` is the row (contiguous), rows
/// are padded by `pad` elements, and groups of `swizzleVec` elements are
/// XOR-ed with (row / perPhase) % maxPhase. With `block` > 0 the rows are cut
/// into column blocks of `block` elements, stored one after another (the
/// NVMMA layout; #blkgpu.shared). This is the one address function of
/// shared memory: moves, buffers, wgmma descriptors and async copies all
/// read it. Threads store `writeVec` and load `readVec` elements per access.
struct SmemLayout {
  llvm::SmallVector<int64_t> shape; ///< the source block's shape
  unsigned inner = 0;
  int64_t pad = 0;
  unsigned swizzleVec = 1, perPhase = 1, maxPhase = 1;
  int64_t block = 0;
  unsigned writeVec = 1, readVec = 1;

  int64_t rowLen() const { return shape[inner]; }
  /// Elements of one stored row: a column block's width, or the row's.
  int64_t blockLen() const { return block > 0 && block < rowLen() ? block : rowLen(); }
  int64_t numBlocks() const { return rowLen() / blockLen(); }
  int64_t numRows() const;
  int64_t sizeElems() const { return numBlocks() * numRows() * (blockLen() + pad); }
  /// Element offset of src coordinates `c`.
  int64_t offset(llvm::ArrayRef<int64_t> c) const;
};

/// Picks, among row dims, paddings and swizzles, the shared layout whose
/// stores and loads take the fewest shared-memory wavefronts, simulating
/// warp 0's accesses on the host.
SmemLayout chooseSmemLayout(const Move &move);

/// `layout` as the attribute blkgpu-choose-shared-layouts records, and
/// back (the access widths are recomputed from the move).
SharedEncodingAttr getSharedEncoding(mlir::MLIRContext *ctx, const SmemLayout &layout);
SmemLayout getSmemLayout(SharedEncodingAttr attr, const Move &move);

/// Local elements of `v` in runs of `vec` along own dim `dim`: (first
/// element, distance between consecutive elements of the run).
llvm::SmallVector<std::pair<unsigned, unsigned>> vectorRuns(const LayoutView &v,
                                                            unsigned dim, unsigned vec);

/// Consecutive elements a thread holds along own dim `dim`.
unsigned runLength(const LayoutView &v, unsigned dim);

/// The scratch of a reduction across warps, a scan or an FMA dot: one
/// array per part (reduced/scanned operand, or dot's A and B) at these
/// byte offsets from the op's scratch offset, `total` bytes in all.
struct ScratchArrays {
  llvm::SmallVector<uint64_t> offsets;
  uint64_t total = 0;
};

/// Warps along the reduced dim that hold partial results (1: the
/// reduction needs no shared memory).
unsigned getReduceWarps(mlir::Operation *reduce);
std::optional<ScratchArrays> getReduceScratch(mlir::Operation *reduce);
std::optional<ScratchArrays> getScanScratch(mlir::Operation *scan);
/// Dot: offsets[0] = A (rows padded to k + 1), offsets[1] = B.
std::optional<ScratchArrays> getDotScratch(mlir::Operation *dot);
/// Row stride (elements) of A in a dot's scratch.
int64_t getDotAStride(mlir::Operation *dot);

/// One slot of a shared-memory buffer (the block dims of `type`) as an
/// SmemLayout (no access widths: local_load/local_store move elements).
SmemLayout getSlotLayout(MemDescType type);
/// Bytes of one slot and of the whole buffer (every ring slot).
uint64_t getSlotBytes(MemDescType type);
uint64_t getBufferBytes(MemDescType type);
/// The local_alloc a buffer value comes from (through memdesc_index and
/// memdesc_trans); null when it is not known (e.g. a loop-carried buffer).
mlir::Operation *getBufferAlloc(mlir::Value memdesc);

/// Bytes of scratch `op`'s lowering needs (0: it is not a scratch user).
/// Moves need blkgpu.scratch_layout (blkgpu-choose-shared-layouts) to be
/// counted.
uint64_t getScratchBytes(mlir::Operation *op);

} // namespace blk::gpu

#endif // BLK_DIALECT_BLKGPU_TRANSFORMS_SHAREDMEMORY_H
