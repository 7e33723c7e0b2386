//===- SharedLayout.cpp - bank-conflict-aware shared memory for moves -----===//
//
// Layout conversions store a block to shared memory and load it back in
// another layout. Which dim is contiguous, how much padding and which XOR
// swizzle make both sides conflict-free depends on the two layouts, so the
// candidates are compared by simulating warp 0's accesses on the host:
// 32 banks of 4 bytes, one wavefront per 128 bytes of a warp access, and as
// many wavefronts as the most distinct words any bank must serve. Vector
// accesses (up to 16 bytes) are used where a thread's run of elements is
// contiguous and aligned in the chosen layout. Test:
// codegen/convert-layout-transpose.mlir.
//
//===----------------------------------------------------------------------===//
#include "SharedLayout.h"

#include "llvm/Support/MathExtras.h"

#include <algorithm>
#include <map>
#include <tuple>
#include <vector>

namespace blk::gpu {

int64_t SmemLayout::numRows() const {
  int64_t n = 1;
  for (unsigned d = 0; d < shape.size(); ++d)
    if (d != inner)
      n *= shape[d];
  return n;
}

int64_t SmemLayout::offset(llvm::ArrayRef<int64_t> c) const {
  int64_t row = 0;
  for (unsigned d = 0; d < shape.size(); ++d)
    if (d != inner)
      row = row * shape[d] + c[d];
  int64_t col = c[inner];
  int64_t group = (col / swizzleVec) ^ ((row / perPhase) % maxPhase);
  return row * (rowLen() + pad) + group * swizzleVec + col % swizzleVec;
}

llvm::Value *SmemLayout::offset(llvm::IRBuilder<> &b,
                                llvm::ArrayRef<llvm::Value *> c) const {
  llvm::Value *row = b.getInt32(0);
  for (unsigned d = 0; d < shape.size(); ++d)
    if (d != inner)
      row = b.CreateAdd(b.CreateMul(row, b.getInt32(shape[d])), c[d]);
  llvm::Value *col = c[inner];
  if (maxPhase > 1) {
    llvm::Value *phase = b.CreateAnd(b.CreateLShr(row, llvm::Log2_32(perPhase)),
                                     maxPhase - 1);
    llvm::Value *group = b.CreateXor(b.CreateLShr(col, llvm::Log2_32(swizzleVec)), phase);
    col = b.CreateOr(b.CreateShl(group, llvm::Log2_32(swizzleVec)),
                     b.CreateAnd(col, swizzleVec - 1));
  }
  return b.CreateAdd(b.CreateMul(row, b.getInt32(rowLen() + pad)), col);
}

unsigned runLength(const LayoutView &v, unsigned dim) {
  return v.sizeEff[v.kept[dim]];
}

llvm::SmallVector<std::pair<unsigned, unsigned>> vectorRuns(const LayoutView &v,
                                                            unsigned dim, unsigned vec) {
  unsigned d = v.kept[dim];
  unsigned stride = 1;
  for (unsigned k = d + 1; k < v.perDim.size(); ++k)
    stride *= v.perDim[k];
  llvm::SmallVector<std::pair<unsigned, unsigned>> runs;
  for (unsigned i = 0, e = v.numElems(); i < e; ++i)
    if (((i / stride) % v.perDim[d]) % vec == 0)
      runs.push_back({i, stride});
  return runs;
}

/// The dst dim whose neighbours are neighbours along src dim `inner`.
static int dstDimFor(const CoordMap &map, unsigned inner, unsigned dstRank,
                     llvm::ArrayRef<int64_t> dstShape) {
  int found = -1;
  for (unsigned d = 0; d < dstRank; ++d)
    if (dstShape[d] > 1 && map.srcDimOf(d) == int(inner))
      found = d;
  return found;
}

/// Widest access (elements) along a run of `run` elements in layout `s`.
static unsigned accessWidth(const SmemLayout &s, unsigned run, unsigned elemBytes) {
  unsigned w = 1;
  while (w * 2 <= run && w * 2 * elemBytes <= 16 && (s.rowLen() + s.pad) % (w * 2) == 0 &&
         (s.maxPhase == 1 || w * 2 <= s.swizzleVec))
    w *= 2;
  return w;
}

/// Warp 0's accesses on one side of a move: for each run (vector access),
/// the source coordinates of the first element for each of the 32 lanes.
using WarpAccesses = std::vector<llvm::SmallVector<llvm::SmallVector<int64_t>, 32>>;

static WarpAccesses warpAccesses(const LayoutView &v, unsigned dim, unsigned w,
                                 const CoordMap *map) {
  WarpAccesses out;
  for (auto [first, stride] : vectorRuns(v, dim, w)) {
    llvm::SmallVector<llvm::SmallVector<int64_t>, 32> lanes;
    for (unsigned lane = 0; lane < 32; ++lane) {
      llvm::SmallVector<int64_t> c = v.coords(first, lane, 0);
      lanes.push_back(map ? map->apply(c) : c);
    }
    out.push_back(std::move(lanes));
  }
  return out;
}

/// Wavefronts for `accesses` of `w` elements each in layout `s`.
static int64_t simulate(const SmemLayout &s, const WarpAccesses &accesses, unsigned w,
                        unsigned elemBytes) {
  unsigned accessBytes = w * elemBytes;
  unsigned lanesPerPhase = std::clamp<unsigned>(128 / std::max(accessBytes, 4u), 1, 32);
  int64_t cost = 0;
  llvm::SmallVector<std::pair<int64_t, int64_t>, 128> touched; // (bank, word)
  for (const auto &lanes : accesses) {
    for (unsigned phase = 0; phase < 32; phase += lanesPerPhase) {
      touched.clear();
      for (unsigned lane = phase; lane < phase + lanesPerPhase; ++lane) {
        int64_t byte = s.offset(lanes[lane]) * elemBytes;
        for (int64_t word = byte / 4; word <= (byte + accessBytes - 1) / 4; ++word)
          touched.push_back({word % 32, word});
      }
      llvm::sort(touched);
      touched.erase(std::unique(touched.begin(), touched.end()), touched.end());
      int64_t worst = 1, run = 0;
      for (size_t i = 0; i < touched.size(); ++i) {
        run = (i && touched[i].first == touched[i - 1].first) ? run + 1 : 1;
        worst = std::max(worst, run);
      }
      cost += worst;
    }
  }
  return cost;
}

SmemLayout chooseSmemLayout(const LayoutView &src, const LayoutView &dst,
                            const CoordMap &map, unsigned elemBytes) {
  // Candidates: plain rows, padded rows, or XOR-swizzled rows.
  struct Shape {
    int64_t pad;
    unsigned sv, pp, mp;
  };
  llvm::SmallVector<Shape> shapes;
  for (int64_t pad : {0, 1, 2, 4, 8})
    shapes.push_back({pad, 1, 1, 1});
  for (unsigned sv : {1u, 2u, 4u, 8u})
    for (unsigned pp : {1u, 2u, 4u})
      for (unsigned mp : {2u, 4u, 8u, 16u})
        shapes.push_back({0, sv, pp, mp});

  std::map<std::tuple<int, unsigned, unsigned>, WarpAccesses> cache;
  auto accesses = [&](bool write, unsigned dim, unsigned w) -> const WarpAccesses & {
    auto key = std::make_tuple(int(write), dim, w);
    auto it = cache.find(key);
    if (it == cache.end())
      it = cache.emplace(key, write ? warpAccesses(src, dim, w, nullptr)
                                    : warpAccesses(dst, dim, w, &map)).first;
    return it->second;
  };

  SmemLayout best;
  best.shape = src.shape;
  best.inner = src.rank() - 1;
  int64_t bestCost = -1;
  for (unsigned inner = 0; inner < src.rank(); ++inner) {
    if (src.shape[inner] == 1 && inner != src.rank() - 1)
      continue;
    int dstDim = dstDimFor(map, inner, dst.rank(), dst.shape);
    unsigned srcRun = runLength(src, inner);
    unsigned dstRun = dstDim >= 0 ? runLength(dst, dstDim) : 1;
    for (const Shape &shape : shapes) {
      if (shape.sv * shape.mp > src.shape[inner])
        continue;
      SmemLayout s;
      s.shape = src.shape;
      s.inner = inner;
      s.pad = shape.pad;
      s.swizzleVec = shape.sv;
      s.perPhase = shape.pp;
      s.maxPhase = shape.mp;
      s.writeVec = accessWidth(s, srcRun, elemBytes);
      s.readVec = dstDim >= 0 ? accessWidth(s, dstRun, elemBytes) : 1;
      int64_t cost =
          simulate(s, accesses(true, inner, s.writeVec), s.writeVec, elemBytes) +
          simulate(s, accesses(false, dstDim >= 0 ? dstDim : 0, s.readVec), s.readVec,
                   elemBytes);
      if (bestCost < 0 || cost < bestCost ||
          (cost == bestCost && s.sizeElems() < best.sizeElems())) {
        best = s;
        bestCost = cost;
      }
    }
  }
  return best;
}

} // namespace blk::gpu
