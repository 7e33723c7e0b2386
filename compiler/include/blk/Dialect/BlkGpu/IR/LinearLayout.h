//===- LinearLayout.h - layouts as linear maps over GF(2) -------*- C++ -*-===//
//
// A linear layout maps the bits of a hardware index (register, lane, warp)
// to the bits of a block coordinate: each input bit has a basis (the
// coordinate it contributes), and an index maps to the XOR of the bases of
// its set bits. blk's block shapes and layout parameters are powers of two,
// so this is exact: adding disjoint bit ranges is XOR, and wrapping `mod
// shape` drops high bits, which makes a basis zero (the threads or
// registers that differ in that bit hold copies).
//
// Expects: output sizes are powers of two; bases lie inside them.
// Guarantees: for #blkgpu.blocked and #blkgpu.slice, register r of
// (lane, warp) is element r of LayoutView's order (row-major over perDim,
// last dim fastest; Layout.h), with the coordinates LayoutView::coords
// gives. Tests: tests/unit/BlkGpu/LinearLayoutReferenceTest.cpp (exhaustive
// against the pre-linear implementation kept in LayoutReference.cpp) and
// LinearLayoutTest.cpp (hand-checked bases and queries).
//
// #blkgpu.mma (LinearLayout.cpp, mmaToLinear; g = lane >> 2, t = lane & 3,
// from ../shared/docs/TENSORCORES.md): lane bits 0,1 -> col 2,4, lane bits
// 2..4 -> row 1,2,4; registers row-major over (row, col) like a blocked
// layout's: col 1, then col 8 .. instrN/2 (the fragments of one
// instruction), then the repeats along N; then row 8, then the repeats
// along M; warp bits -> row 16, 32, ... (warps along M; a wgmma warpgroup
// is 64 rows), then col instrN, 2·instrN, ... MmaTiling maps an
// instruction's own register order onto these registers (tested against
// the fragment formula in LinearLayoutTest.cpp). Version 2 (mma.sync) uses
// the same bases with instrN = 8; nothing lowers it yet. Still to come:
//  - #dot_operand (opIdx, parent mma, kWidth) for register operands
//    (mma.sync, wgmma's register-A form): A 16x16: register bit 0 -> k
//    1, lane bits 0,1 -> k 2,4, lane bits 2..4 -> row 1,2,4, register bit 1
//    -> row 8, register bit 2 -> k 8; B 16x8: register bit 0 -> k 1, bit 1
//    -> k 8, lane bits 0,1 -> k 2,4, lane bits 2..4 -> n 1,2,4; warp bits
//    are the parent's along the non-k dim and zero (broadcast) along k.
//  - #dot_operand (opIdx, parent mma, kWidth): A 16x16: register bit 0 -> k
//    1, lane bits 0,1 -> k 2,4, lane bits 2..4 -> row 1,2,4, register bit 1
//    -> row 8, register bit 2 -> k 8; B 16x8: register bit 0 -> k 1, bit 1
//    -> k 8, lane bits 0,1 -> k 2,4, lane bits 2..4 -> n 1,2,4; warp bits
//    are the parent's along the non-k dim and zero (broadcast) along k.
//  - #shared / #nvmma_shared: a fourth input, the element offset in the
//    buffer (InDim gains Offset); the swizzle `chunk XOR (row mod 8)` is
//    linear, so an offset basis is (row, col ^ swizzle(row)). A
//    local_load/local_store is then register -> offset = shared^-1 o regs,
//    and the vector width is the run of register bits that map to
//    consecutive offsets (getVectorRun on the composed layout).
// The queries below take any layout, so they serve those unchanged.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_DIALECT_BLKGPU_IR_LINEARLAYOUT_H
#define BLK_DIALECT_BLKGPU_IR_LINEARLAYOUT_H

#include "mlir/IR/Attributes.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

#include <array>
#include <cstdint>
#include <optional>

namespace blk::gpu {

class MmaEncodingAttr;

/// The hardware indices a distributed layout maps from.
enum class InDim : unsigned { Register = 0, Lane = 1, Warp = 2 };
constexpr unsigned kNumInDims = 3;

/// A linear map from (register, lane, warp) bits to coordinate bits.
class LinearLayout {
public:
  /// The coordinate one input bit contributes: one value per output dim.
  using Basis = llvm::SmallVector<int64_t, 4>;
  using Bases = std::array<llvm::SmallVector<Basis>, kNumInDims>;
  /// A map of coordinates (dst -> src), GF(2)-linear on their bits.
  using CoordFn =
      llvm::function_ref<llvm::SmallVector<int64_t>(llvm::ArrayRef<int64_t>)>;

  /// The empty layout (no outputs, one register, lane and warp).
  LinearLayout() = default;
  /// `bases[in][b]` is the basis of bit b of input `in`; every basis has one
  /// coordinate in [0, outSizes[d]) per output dim d.
  LinearLayout(Bases bases, llvm::ArrayRef<int64_t> outSizes);

  unsigned getNumOutDims() const { return outSizes.size(); }
  llvm::ArrayRef<int64_t> getOutSizes() const { return outSizes; }
  /// Number of bits of input `in` (its size is 1 << bits).
  unsigned getInBits(InDim in) const { return bases[unsigned(in)].size(); }
  unsigned getInSize(InDim in) const { return 1u << getInBits(in); }
  llvm::ArrayRef<Basis> getBases(InDim in) const { return bases[unsigned(in)]; }

  /// Coordinates of register `reg` of lane `lane` in warp `warp`.
  llvm::SmallVector<int64_t> apply(unsigned reg, unsigned lane,
                                   unsigned warp) const;

  /// Same inputs, outputs and bases (so the same element in every register
  /// of every thread).
  bool operator==(const LinearLayout &other) const;
  bool operator!=(const LinearLayout &other) const { return !(*this == other); }

  /// This layout followed by `map` into coordinates of size `newOutSizes`:
  /// each basis is mapped, which is exact because `map` is linear.
  LinearLayout mapOutputs(CoordFn map,
                          llvm::ArrayRef<int64_t> newOutSizes) const;
  /// This layout without output dim `dim` (slices: that dim has size 1, so
  /// its coordinate is always 0).
  LinearLayout dropOutDim(unsigned dim) const;

  /// Bits of input `in` whose basis is a combination of the bases before it
  /// (registers, then lanes, then warps; zero bases included). Threads that
  /// differ only in free lane / warp bits hold the same elements.
  uint32_t getFreeMask(InDim in) const;
  /// True for the one thread of each group of copies that owns the data:
  /// its free lane and warp bits are all 0.
  bool isOwner(unsigned lane, unsigned warp) const;
  /// Bits of input `in` whose basis has a non-zero coordinate along `outDim`.
  uint32_t getMaskAlong(InDim in, unsigned outDim) const;
  /// The lane XOR masks (ascending) a butterfly reduction along `outDim`
  /// shuffles over: one per lane bit that moves along that dim.
  llvm::SmallVector<unsigned> getShuffleStrides(unsigned outDim) const;

  /// Registers first + j * stride (j < length, first with those register
  /// bits 0) hold consecutive coordinates along one dim: c, c + 1, ...
  struct VectorRun {
    unsigned length = 1;
    unsigned stride = 1;
  };
  /// The longest run along `outDim` (length 1 when none).
  VectorRun getVectorRun(unsigned outDim) const;

  /// Row-major index of a coordinate (output dims concatenated as bits).
  uint64_t flatten(llvm::ArrayRef<int64_t> coord) const;

private:
  Bases bases;
  llvm::SmallVector<int64_t> outSizes;
};

/// For dst register i, the lowest src register holding the element dst
/// register i holds, when that register is the same for every thread (so
/// the move is a renaming of registers). `dst` must already be expressed in
/// src's coordinates (LinearLayout::mapOutputs). It exists iff src and dst
/// have the same lanes and warps with the same bases and every dst register
/// basis is in the span of src's register bases.
std::optional<llvm::SmallVector<unsigned>>
getRegisterMapping(const LinearLayout &src, const LinearLayout &dst);

/// The shape a slice along `dim` of a block of `shape` has in its parent:
/// `shape` with a 1 inserted at `dim`; nullopt when `dim` is out of range.
std::optional<llvm::SmallVector<int64_t>> getSliceParentShape(unsigned dim,
                                                              llvm::ArrayRef<int64_t> shape);

/// How an MMA accumulator block splits into instructions: each warp runs
/// repM x repN instructions of 16 x instrN (wgmma: per warpgroup 64 x
/// instrN), each holding instrN / 2 registers.
struct MmaTiling {
  unsigned instrN = 8, fragsPerInstr = 1, repM = 1, repN = 1;
  /// The thread-local element (LinearLayout register) that register
  /// `instrReg` of instruction (repMIdx, repNIdx) is.
  unsigned element(unsigned repMIdx, unsigned repNIdx, unsigned instrReg) const;
  unsigned regsPerInstr() const { return instrN / 2; }
};
MmaTiling getMmaTiling(MmaEncodingAttr mma, llvm::ArrayRef<int64_t> shape);

/// The linear layout of `encoding` (#blkgpu.blocked, #blkgpu.slice or #blkgpu.mma) for a
/// block of `shape`; nullopt for other encodings, a rank mismatch or a
/// dimension that is not a power of two.
std::optional<LinearLayout> toLinearLayout(mlir::Attribute encoding,
                                           llvm::ArrayRef<int64_t> shape);

} // namespace blk::gpu

#endif // BLK_DIALECT_BLKGPU_IR_LINEARLAYOUT_H
