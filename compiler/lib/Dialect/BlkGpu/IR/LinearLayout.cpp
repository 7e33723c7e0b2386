//===- LinearLayout.cpp - layouts as linear maps over GF(2) ---------------===//
//
// See LinearLayout.h. The queries flatten each basis to its row-major index
// (output dims concatenated as bit fields) and do Gaussian elimination on
// those 64-bit words.
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/IR/LinearLayout.h"

#include "blk/Dialect/BlkGpu/IR/BlkGpuDialect.h"

#include "llvm/Support/MathExtras.h"

#include <cassert>

using namespace mlir;

namespace blk::gpu {

LinearLayout::LinearLayout(Bases bases, ArrayRef<int64_t> outSizes)
    : bases(std::move(bases)), outSizes(outSizes.begin(), outSizes.end()) {
  unsigned outBits = 0;
  for (int64_t s : outSizes) {
    assert(s >= 1 && llvm::isPowerOf2_64(s) &&
           "output sizes are powers of two");
    outBits += llvm::Log2_64(s);
  }
  assert(outBits < 64 && "flattened coordinates fit in 64 bits");
  (void)outBits;
  for (const auto &in : this->bases) {
    assert(in.size() < 32 && "input indices fit in 32 bits");
    for (const Basis &b : in) {
      assert(b.size() == outSizes.size() && "one coordinate per output dim");
      for (unsigned d = 0; d < b.size(); ++d)
        assert(b[d] >= 0 && b[d] < outSizes[d] && "basis inside the block");
    }
  }
}

SmallVector<int64_t> LinearLayout::apply(unsigned reg, unsigned lane,
                                         unsigned warp) const {
  SmallVector<int64_t> c(outSizes.size(), 0);
  unsigned index[kNumInDims] = {reg, lane, warp};
  for (unsigned in = 0; in < kNumInDims; ++in)
    for (auto [bit, basis] : llvm::enumerate(bases[in]))
      if (index[in] >> bit & 1)
        for (unsigned d = 0; d < c.size(); ++d)
          c[d] ^= basis[d];
  return c;
}

bool LinearLayout::operator==(const LinearLayout &other) const {
  return outSizes == other.outSizes && bases == other.bases;
}

LinearLayout LinearLayout::mapOutputs(CoordFn map,
                                      ArrayRef<int64_t> newOutSizes) const {
  Bases mapped;
  for (unsigned in = 0; in < kNumInDims; ++in)
    for (const Basis &b : bases[in]) {
      SmallVector<int64_t> c = map(b);
      mapped[in].push_back(Basis(c.begin(), c.end()));
    }
  return LinearLayout(std::move(mapped), newOutSizes);
}

LinearLayout LinearLayout::dropOutDim(unsigned dim) const {
  Bases kept = bases;
  for (auto &in : kept)
    for (Basis &b : in)
      b.erase(b.begin() + dim);
  SmallVector<int64_t> sizes = outSizes;
  sizes.erase(sizes.begin() + dim);
  return LinearLayout(std::move(kept), sizes);
}

uint64_t LinearLayout::flatten(ArrayRef<int64_t> coord) const {
  uint64_t lin = 0;
  for (unsigned d = 0; d < outSizes.size(); ++d)
    lin = (lin << llvm::Log2_64(outSizes[d])) | uint64_t(coord[d]);
  return lin;
}

namespace {
/// A span of 64-bit words in echelon form: row[p] has highest bit p. Each
/// row remembers which inputs it combines (`combo`, a bit per input).
struct Echelon {
  std::array<uint64_t, 64> row{}, combo{};
  std::array<bool, 64> used{};

  /// Reduces `v` (made of inputs `c`) against the rows; adds it as a new row
  /// when it is independent. Returns false when it was in the span, leaving
  /// in `c` the inputs that XOR to zero.
  bool insert(uint64_t v, uint64_t &c) {
    for (int p = 63; p >= 0; --p) {
      if (!(v >> p & 1))
        continue;
      if (!used[p]) {
        used[p] = true;
        row[p] = v;
        combo[p] = c;
        return true;
      }
      v ^= row[p];
      c ^= combo[p];
    }
    return false;
  }
  /// The inputs whose XOR is `v`, if `v` is in the span.
  std::optional<uint64_t> solve(uint64_t v) const {
    uint64_t c = 0;
    for (int p = 63; p >= 0; --p) {
      if (!(v >> p & 1))
        continue;
      if (!used[p])
        return std::nullopt;
      v ^= row[p];
      c ^= combo[p];
    }
    return c;
  }
  /// The smallest `x ^ (XOR of some rows)`: clearing the highest bit of each
  /// row from the top down only ever lowers x.
  uint64_t minimize(uint64_t x) const {
    for (int p = 63; p >= 0; --p)
      if (used[p] && (x >> p & 1))
        x ^= row[p];
    return x;
  }
};
} // namespace

uint32_t LinearLayout::getFreeMask(InDim which) const {
  Echelon span;
  for (unsigned in = 0; in < kNumInDims; ++in) {
    uint32_t free = 0;
    for (auto [bit, basis] : llvm::enumerate(bases[in])) {
      uint64_t unused = 0;
      if (!span.insert(flatten(basis), unused))
        free |= 1u << bit;
    }
    if (in == unsigned(which))
      return free;
  }
  return 0;
}

bool LinearLayout::isOwner(unsigned lane, unsigned warp) const {
  return (lane & getFreeMask(InDim::Lane)) == 0 &&
         (warp & getFreeMask(InDim::Warp)) == 0;
}

uint32_t LinearLayout::getMaskAlong(InDim in, unsigned outDim) const {
  uint32_t mask = 0;
  for (auto [bit, basis] : llvm::enumerate(getBases(in)))
    if (basis[outDim] != 0)
      mask |= 1u << bit;
  return mask;
}

SmallVector<unsigned> LinearLayout::getShuffleStrides(unsigned outDim) const {
  SmallVector<unsigned> strides;
  uint32_t mask = getMaskAlong(InDim::Lane, outDim);
  for (unsigned bit = 0; bit < getInBits(InDim::Lane); ++bit)
    if (mask >> bit & 1)
      strides.push_back(1u << bit);
  return strides;
}

/// True when `b` is `value` along `dim` and 0 elsewhere.
static bool isUnit(const LinearLayout::Basis &b, unsigned dim, int64_t value) {
  for (unsigned d = 0; d < b.size(); ++d)
    if (b[d] != (d == dim ? value : 0))
      return false;
  return true;
}

LinearLayout::VectorRun LinearLayout::getVectorRun(unsigned outDim) const {
  ArrayRef<Basis> regs = getBases(InDim::Register);
  unsigned first = 0;
  while (first < regs.size() && !isUnit(regs[first], outDim, 1))
    ++first;
  unsigned k = 0;
  while (first + k < regs.size() &&
         isUnit(regs[first + k], outDim, int64_t(1) << k))
    ++k;
  // XOR with j < 2^k is adding j only where every other basis leaves the
  // low k bits along outDim clear.
  for (unsigned in = 0; in < kNumInDims; ++in)
    for (auto [bit, basis] : llvm::enumerate(bases[in])) {
      bool inRun =
          in == unsigned(InDim::Register) && bit >= first && bit < first + k;
      while (!inRun && k > 0 && basis[outDim] % (int64_t(1) << k) != 0)
        --k;
    }
  if (k == 0)
    return {};
  return {1u << k, 1u << first};
}

std::optional<SmallVector<unsigned>>
getRegisterMapping(const LinearLayout &src, const LinearLayout &dst) {
  // The same register of every thread: dst and src must agree on which
  // element each lane and warp bit moves to.
  if (src.getOutSizes() != dst.getOutSizes() ||
      src.getBases(InDim::Lane) != dst.getBases(InDim::Lane) ||
      src.getBases(InDim::Warp) != dst.getBases(InDim::Warp))
    return std::nullopt;
  Echelon regs, kernel;
  for (auto [bit, basis] : llvm::enumerate(src.getBases(InDim::Register))) {
    uint64_t c = uint64_t(1) << bit;
    if (!regs.insert(src.flatten(basis), c)) {
      uint64_t unused = 0;
      kernel.insert(c, unused); // registers whose bases XOR to zero
    }
  }
  SmallVector<uint64_t> dstBits;
  for (const LinearLayout::Basis &b : dst.getBases(InDim::Register))
    dstBits.push_back(src.flatten(b));
  SmallVector<unsigned> mapping;
  for (unsigned i = 0, e = dst.getInSize(InDim::Register); i < e; ++i) {
    uint64_t want = 0;
    for (unsigned bit = 0; bit < dstBits.size(); ++bit)
      if (i >> bit & 1)
        want ^= dstBits[bit];
    std::optional<uint64_t> c = regs.solve(want);
    if (!c)
      return std::nullopt;
    mapping.push_back(kernel.minimize(*c));
  }
  return mapping;
}

/// `value` along `dim` of a rank-`rank` coordinate.
static LinearLayout::Basis unit(unsigned rank, unsigned dim, int64_t value) {
  LinearLayout::Basis b(rank, 0);
  b[dim] = value;
  return b;
}

/// Bases of a blocked layout: thread (lane, warp) holds, along dim d, the
/// sizePerThread elements from (warpIndex * threadsPerWarp + laneIndex) *
/// sizePerThread, repeated every tile; all sizes are powers of two, so the
/// pieces are disjoint bit fields and wrapping mod shape zeroes a basis.
static LinearLayout blockedToLinear(BlockedEncodingAttr blocked,
                                    ArrayRef<int64_t> shape) {
  unsigned rank = shape.size();
  ArrayRef<unsigned> spt = blocked.getSizePerThread();
  ArrayRef<unsigned> tpw = blocked.getThreadsPerWarp();
  ArrayRef<unsigned> wpc = blocked.getWarpsPerCTA();
  auto wrapped = [&](unsigned d, int64_t v) { return v < shape[d] ? v : 0; };
  LinearLayout::Bases bases;
  auto &regs = bases[unsigned(InDim::Register)];
  // Registers are row-major over dims (last dim fastest); within a dim the
  // sizePerThread run comes first, then its repeats one tile apart.
  for (int d = rank - 1; d >= 0; --d) {
    int64_t run = std::min<int64_t>(spt[d], shape[d]);
    for (int64_t v = 1; v < run; v <<= 1)
      regs.push_back(unit(rank, d, v));
    int64_t tile = int64_t(spt[d]) * tpw[d] * wpc[d];
    for (int64_t v = tile; v < shape[d]; v <<= 1)
      regs.push_back(unit(rank, d, v));
  }
  // Lanes, then warps, are numbered along `order` (order[0] fastest).
  for (unsigned d : blocked.getOrder())
    for (int64_t k = 1; k < tpw[d]; k <<= 1)
      bases[unsigned(InDim::Lane)].push_back(
          unit(rank, d, wrapped(d, k * spt[d])));
  for (unsigned d : blocked.getOrder())
    for (int64_t k = 1; k < wpc[d]; k <<= 1)
      bases[unsigned(InDim::Warp)].push_back(
          unit(rank, d, wrapped(d, k * spt[d] * tpw[d])));
  return LinearLayout(std::move(bases), shape);
}

/// Bases of an MMA accumulator (BlkGpuDialect.td, #blkgpu.mma): the 16 x 8
/// fragment (register bit 0 -> col 1, lane bits -> col 2, 4 and row 1, 2, 4,
/// row 8 a register bit), instrN / 8 fragments side by side, warps along M
/// then N, tiles repeated over the block. Registers are row-major over
/// (row, col) like a blocked layout's, so the emitter's per-dim runs hold;
/// the instruction's own register order is a permutation of these bits
/// (getMmaInstrRegister). A block smaller than the warps' tile wraps as a
/// blocked layout does: register bits past the block are dropped and lane or
/// warp bits past it hold copies, so a row vector of the accumulator
/// ([M, 1], what `max(acc, axis: 1)[:, None]` is) and its slice are layouts
/// too.
static std::optional<LinearLayout> mmaToLinear(MmaEncodingAttr mma, ArrayRef<int64_t> shape) {
  if (shape.size() != 2)
    return std::nullopt;
  int64_t m = shape[0], n = shape[1];
  unsigned wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
  int64_t instrN = mma.getInstrN();
  auto inside = [&](unsigned dim, int64_t v) { return v < shape[dim]; };
  auto wrapped = [&](unsigned dim, int64_t v) { return unit(2, dim, inside(dim, v) ? v : 0); };
  LinearLayout::Bases bases;
  auto &regs = bases[unsigned(InDim::Register)];
  auto addReg = [&](unsigned dim, int64_t v) {
    if (inside(dim, v))
      regs.push_back(unit(2, dim, v));
  };
  addReg(1, 1);
  for (int64_t c = 8; c < instrN; c <<= 1)
    addReg(1, c);
  for (int64_t c = instrN * wn; c < n; c <<= 1)
    addReg(1, c);
  addReg(0, 8);
  for (int64_t r = 16 * int64_t(wm); r < m; r <<= 1)
    addReg(0, r);
  auto &lanes = bases[unsigned(InDim::Lane)];
  lanes = {wrapped(1, 2), wrapped(1, 4), wrapped(0, 1), wrapped(0, 2), wrapped(0, 4)};
  auto &warps = bases[unsigned(InDim::Warp)];
  for (int64_t k = 1; k < wm; k <<= 1)
    warps.push_back(wrapped(0, 16 * k));
  for (int64_t k = 1; k < wn; k <<= 1)
    warps.push_back(wrapped(1, instrN * k));
  return LinearLayout(std::move(bases), shape);
}

MmaTiling getMmaTiling(MmaEncodingAttr mma, ArrayRef<int64_t> shape) {
  MmaTiling t;
  t.instrN = mma.getInstrN();
  t.fragsPerInstr = t.instrN / 8;
  t.repN = shape[1] / (t.instrN * mma.getWarpsPerCTA()[1]);
  t.repM = shape[0] / (16 * mma.getWarpsPerCTA()[0]);
  return t;
}

unsigned MmaTiling::element(unsigned repMIdx, unsigned repNIdx, unsigned instrReg) const {
  // Instruction register i: bit 0 -> col +1, bit 1 -> row +8, bits 2.. ->
  // fragment (col +8 each). Element index: row-major over (rowIdx, colIdx)
  // with colIdx = [col bit | fragment bits | repN bits], rowIdx = [row-8 bit
  // | repM bits].
  unsigned colBit = instrReg & 1, rowBit = (instrReg >> 1) & 1, frag = instrReg >> 2;
  unsigned colsPerRow = 2 * fragsPerInstr * repN;
  unsigned colIdx = colBit | (frag << 1) | (repNIdx * 2 * fragsPerInstr);
  unsigned rowIdx = rowBit | (repMIdx << 1);
  return rowIdx * colsPerRow + colIdx;
}

std::optional<SmallVector<int64_t>> getSliceParentShape(unsigned dim, ArrayRef<int64_t> shape) {
  if (dim > shape.size())
    return std::nullopt;
  SmallVector<int64_t> parentShape(shape.begin(), shape.end());
  parentShape.insert(parentShape.begin() + dim, 1);
  return parentShape;
}

std::optional<LinearLayout> toLinearLayout(Attribute encoding,
                                           ArrayRef<int64_t> shape) {
  if (!llvm::all_of(shape,
                    [](int64_t s) { return s >= 1 && llvm::isPowerOf2_64(s); }))
    return std::nullopt;
  if (auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(encoding)) {
    if (blocked.getSizePerThread().size() != shape.size())
      return std::nullopt;
    return blockedToLinear(blocked, shape);
  }
  if (auto mma = dyn_cast_or_null<MmaEncodingAttr>(encoding))
    return mmaToLinear(mma, shape);
  if (auto slice = dyn_cast_or_null<SliceEncodingAttr>(encoding)) {
    std::optional<SmallVector<int64_t>> parentShape = getSliceParentShape(slice.getDim(), shape);
    if (!parentShape)
      return std::nullopt;
    std::optional<LinearLayout> parent = toLinearLayout(slice.getParent(), *parentShape);
    if (!parent)
      return std::nullopt;
    return parent->dropOutDim(slice.getDim());
  }
  return std::nullopt;
}

} // namespace blk::gpu
