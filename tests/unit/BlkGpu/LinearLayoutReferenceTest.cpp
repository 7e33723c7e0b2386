// Linear layouts against the pre-linear layout model (LayoutReference.cpp):
// an exhaustive comparison over every blocked layout getBlockedLayout /
// getDefaultLayout choose for ranks 1-3 (power-of-two dims up to 1024, at
// most 2^16 elements), 1/2/4/8 warps, every order and vec 1..16, and every
// slice (and slice of a slice) of those: the coordinates of every
// (register, lane, warp), owners, shuffle strides, vector runs; and the
// register mappings of the emitter's moves (convert_layout, broadcast,
// expand_dims, trans, reshape) and layout equivalence between them. Layout.h's
// LayoutView (built on LinearLayout) is checked against the same reference.
// Hand-checked bases are in LinearLayoutTest.cpp.
#include "LayoutReference.h"

#include "blk/Dialect/BlkGpu/IR/Layout.h"
#include "blk/Dialect/BlkGpu/IR/LinearLayout.h"

#include "mlir/IR/MLIRContext.h"

#include "llvm/ADT/DenseSet.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

using namespace blk::gpu;
using llvm::ArrayRef;
using llvm::SmallVector;

namespace {

using Coords = SmallVector<int64_t>;
using Basis = LinearLayout::Basis;

/// One layout on one block shape.
struct Case {
  mlir::Attribute encoding;
  Coords shape;
};

/// Every power-of-two shape of rank `rank`, dims 1..1024, at most
/// 2^maxLog elements (the domain is maxLog = 16).
static std::vector<Coords> shapesOfRank(unsigned rank, int64_t maxLog) {
  std::vector<Coords> out;
  Coords logs(rank, 0);
  while (true) {
    if (std::accumulate(logs.begin(), logs.end(), int64_t(0)) <= maxLog) {
      Coords s;
      for (int64_t l : logs)
        s.push_back(int64_t(1) << l);
      out.push_back(s);
    }
    unsigned d = 0;
    while (d < rank && ++logs[d] > 10)
      logs[d++] = 0;
    if (d == rank)
      return out;
  }
}

static Coords without(ArrayRef<int64_t> v, unsigned dim) {
  Coords out(v.begin(), v.end());
  out.erase(out.begin() + dim);
  return out;
}

/// The blocked layouts the layout passes choose for `shape`.
static std::vector<Case> blockedCases(mlir::MLIRContext *ctx,
                                      ArrayRef<int64_t> shape) {
  std::vector<Case> out;
  llvm::DenseSet<mlir::Attribute> seen;
  auto add = [&](mlir::Attribute a) {
    if (seen.insert(a).second)
      out.push_back({a, Coords(shape.begin(), shape.end())});
  };
  SmallVector<unsigned> order(shape.size());
  for (unsigned warps : {1, 2, 4, 8}) {
    add(getDefaultLayout(ctx, shape, warps));
    std::iota(order.begin(), order.end(), 0);
    do {
      for (unsigned vec : {1, 2, 4, 8, 16})
        add(getBlockedLayout(ctx, shape, warps, order, vec));
    } while (std::next_permutation(order.begin(), order.end()));
  }
  return out;
}

/// `c` and its slices, slices of slices, ... down to rank 0.
static void addWithSlices(const Case &c, std::vector<Case> &out) {
  out.push_back(c);
  for (unsigned d = 0; d < c.shape.size(); ++d)
    addWithSlices(
        {SliceEncodingAttr::get(c.encoding.getContext(), d, c.encoding),
         without(c.shape, d)},
        out);
}

static std::string describe(const Case &c) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << c.encoding << " on [";
  llvm::interleave(c.shape, os, "x");
  os << "]";
  return s;
}

/// The lane XOR masks EmitReduce shuffled over before linear layouts.
static SmallVector<unsigned>
referenceShuffleStrides(const reference::LayoutView &v, unsigned d) {
  unsigned laneStride = 1;
  for (unsigned o : v.base.getOrder()) {
    if (o == d)
      break;
    laneStride *= v.base.getThreadsPerWarp()[o];
  }
  SmallVector<unsigned> strides;
  for (unsigned k = 1; k < v.distinctLanes(d); k *= 2)
    strides.push_back(k * laneStride);
  return strides;
}

static bool referenceIsOwner(const reference::LayoutView &v, unsigned lane,
                             unsigned warp) {
  for (unsigned d = 0; d < v.baseShape.size(); ++d)
    if (v.laneIndex(lane, d) >= v.distinctLanes(d) ||
        v.warpIndex(warp, d) >= v.distinctWarps(d))
      return false;
  return true;
}

/// Compares everything LinearLayout and LayoutView answer about one case
/// with the reference; returns the number of (register, lane, warp) checked.
static uint64_t checkCase(const Case &c) {
  SCOPED_TRACE(describe(c));
  std::optional<reference::LayoutView> ref =
      reference::getLayoutView(c.encoding, c.shape);
  std::optional<LinearLayout> ll = toLinearLayout(c.encoding, c.shape);
  std::optional<LayoutView> view = getLayoutView(c.encoding, c.shape);
  EXPECT_TRUE(ref && ll && view);
  if (!ref || !ll || !view)
    return 0;
  unsigned regs = ref->numElems(), warps = ref->numThreads() / kWarpSize;
  EXPECT_EQ(ll->getInSize(InDim::Register), regs);
  EXPECT_EQ(ll->getInSize(InDim::Lane), kWarpSize);
  EXPECT_EQ(ll->getInSize(InDim::Warp), warps);
  EXPECT_EQ(view->numElems(), regs);
  EXPECT_EQ(view->numThreads(), ref->numThreads());
  uint64_t checked = 0;
  for (unsigned w = 0; w < warps; ++w)
    for (unsigned l = 0; l < kWarpSize; ++l) {
      EXPECT_EQ(ll->isOwner(l, w), referenceIsOwner(*ref, l, w))
          << "lane " << l << " warp " << w;
      for (unsigned r = 0; r < regs; ++r, ++checked) {
        // LayoutView::coords is LinearLayout::apply; one register and one
        // thread of it are enough, the rest is the linear layout's.
        Coords want = ref->coords(r, l, w);
        if (ll->apply(r, l, w) != want ||
            ((r == 0 || l + w == 0) && view->coords(r, l, w) != want)) {
          ADD_FAILURE() << "register " << r << " lane " << l << " warp " << w;
          return checked;
        }
      }
    }
  for (unsigned r = 0; r < regs; ++r)
    EXPECT_EQ(view->elemOffset(r), ref->elemOffset(r)) << "register " << r;
  EXPECT_EQ(view->hasReplicas(), ref->hasReplicas());
  EXPECT_EQ(view->hasReplicas(),
            (ll->getFreeMask(InDim::Lane) | ll->getFreeMask(InDim::Warp)) != 0);
  for (unsigned d = 0; d < ref->baseShape.size(); ++d) {
    EXPECT_EQ(view->distinctLanes(d), ref->distinctLanes(d))
        << "base dim " << d;
    EXPECT_EQ(view->distinctWarps(d), ref->distinctWarps(d))
        << "base dim " << d;
  }
  for (unsigned j = 0; j < c.shape.size(); ++j) {
    unsigned d = ref->kept[j];
    EXPECT_EQ(ll->getShuffleStrides(j), referenceShuffleStrides(*ref, d))
        << "dim " << j;
    EXPECT_EQ(1u << llvm::popcount(ll->getMaskAlong(InDim::Warp, j)),
              ref->distinctWarps(d));
    // LayoutView's run is sizePerThread (sizeEff); with one thread and one
    // warp along the dim, its repeats are adjacent and the run is the dim.
    LinearLayout::VectorRun run = ll->getVectorRun(j);
    bool alone =
        ref->base.getThreadsPerWarp()[d] * ref->base.getWarpsPerCTA()[d] == 1;
    EXPECT_EQ(run.length, alone ? ref->perDim[d] : ref->sizeEff[d])
        << "dim " << j;
    unsigned stride = 1;
    for (unsigned k = d + 1; k < ref->perDim.size(); ++k)
      stride *= ref->perDim[k];
    if (run.length > 1) {
      EXPECT_EQ(run.stride, stride) << "dim " << j;
    }
  }
  return checked;
}

/// A coordinate map of the emitter's moves (CoordMap in SharedMemory.h), dst ->
/// src; all are GF(2)-linear on power-of-two shapes.
struct Move {
  Case src, dst;
  std::function<Coords(ArrayRef<int64_t>)> dstToSrc;
};

static std::function<Coords(ArrayRef<int64_t>)> identityMove() {
  return [](ArrayRef<int64_t> c) { return Coords(c.begin(), c.end()); };
}

/// broadcast: dims of size 1 in src read coordinate 0.
static std::function<Coords(ArrayRef<int64_t>)> broadcastMove(Coords srcShape) {
  return [srcShape](ArrayRef<int64_t> c) {
    Coords s;
    for (unsigned d = 0; d < c.size(); ++d)
      s.push_back(srcShape[d] == 1 ? 0 : c[d]);
    return s;
  };
}

/// expand_dims: dst has a size-1 dim `dim` that src lacks.
static std::function<Coords(ArrayRef<int64_t>)> dropDimMove(unsigned dim) {
  return [dim](ArrayRef<int64_t> c) { return without(c, dim); };
}

/// trans: dst dim i is src dim perm[i].
static std::function<Coords(ArrayRef<int64_t>)>
permuteMove(SmallVector<int32_t> perm) {
  return [perm](ArrayRef<int64_t> c) {
    Coords s(c.size(), 0);
    for (unsigned i = 0; i < c.size(); ++i)
      s[perm[i]] = c[i];
    return s;
  };
}

/// reshape: the same row-major index.
static std::function<Coords(ArrayRef<int64_t>)> reshapeMove(Coords srcShape,
                                                            Coords dstShape) {
  return [srcShape, dstShape](ArrayRef<int64_t> c) {
    int64_t lin = 0;
    for (unsigned d = 0; d < dstShape.size(); ++d)
      lin = lin * dstShape[d] + c[d];
    Coords s(srcShape.size(), 0);
    for (int d = srcShape.size() - 1; d >= 0; --d) {
      s[d] = lin % srcShape[d];
      lin /= srcShape[d];
    }
    return s;
  };
}

static unsigned warpsOf(mlir::Attribute a) {
  return reference::getLayoutView(
             a, Coords(cast<BlockedEncodingAttr>(a).getOrder().size(), 1))
             ->numThreads() /
         kWarpSize;
}

/// The moves the emitter makes between the layouts of `shape` (same warps).
static std::vector<Move> movesFor(mlir::MLIRContext *ctx,
                                  ArrayRef<int64_t> shape) {
  std::vector<Move> out;
  std::vector<Case> layouts = blockedCases(ctx, shape);
  unsigned rank = shape.size();
  for (const Case &a : layouts) {
    for (const Case &b : layouts)
      if (warpsOf(a.encoding) == warpsOf(b.encoding))
        out.push_back({a, b, identityMove()}); // convert_layout
    for (unsigned d = 0; d < rank; ++d) {
      if (shape[d] == 1)
        continue;
      Coords narrow = a.shape;
      narrow[d] = 1;
      out.push_back({{a.encoding, narrow}, a, broadcastMove(narrow)});
      // expand_dims of a slice of a (and of a slice of the default layout).
      for (mlir::Attribute parent :
           {a.encoding,
            mlir::Attribute(getDefaultLayout(ctx, shape, warpsOf(a.encoding)))})
        out.push_back(
            {{SliceEncodingAttr::get(ctx, d, parent), without(a.shape, d)},
             {a.encoding, narrow},
             dropDimMove(d)});
    }
    SmallVector<int32_t> perm(rank);
    std::iota(perm.begin(), perm.end(), 0);
    do {
      Coords permuted;
      for (int32_t p : perm)
        permuted.push_back(shape[p]);
      auto blocked = cast<BlockedEncodingAttr>(a.encoding);
      for (mlir::Attribute dst :
           {mlir::Attribute(getTransposedLayout(blocked, perm)),
            mlir::Attribute(
                getDefaultLayout(ctx, permuted, warpsOf(a.encoding)))})
        out.push_back({a, {dst, permuted}, permuteMove(perm)});
    } while (std::next_permutation(perm.begin(), perm.end()));
    // reshape to 1-d and to [n / k, k].
    int64_t n = 1;
    for (int64_t s : shape)
      n *= s;
    int64_t k = int64_t(1) << (llvm::Log2_64(n) / 2);
    for (Coords to : {Coords{n}, Coords{n / k, k}})
      for (const Case &b : blockedCases(ctx, to))
        if (warpsOf(b.encoding) == warpsOf(a.encoding))
          out.push_back({a, b, reshapeMove(a.shape, to)});
  }
  return out;
}

class LinearLayoutReferenceTest : public ::testing::Test {
protected:
  LinearLayoutReferenceTest() { ctx.loadDialect<BlkGpuDialect>(); }

  /// Every case of rank `rank` (blocks of <= 2^maxLog elements) with all its
  /// slices.
  std::vector<Case> casesOfRank(unsigned rank, int64_t maxLog) {
    std::vector<Case> out;
    for (const Coords &shape : shapesOfRank(rank, maxLog))
      for (const Case &c : blockedCases(&ctx, shape))
        addWithSlices(c, out);
    return out;
  }

  void checkAllOfRank(unsigned rank, int64_t maxLog, uint64_t wantCases) {
    std::vector<Case> cases = casesOfRank(rank, maxLog);
    uint64_t checked = 0;
    for (const Case &c : cases)
      checked += checkCase(c);
    EXPECT_EQ(cases.size(), wantCases);
    std::printf("rank %u, <= 2^%lld elements: %zu layouts, %llu (register, "
                "lane, warp)\n",
                rank, (long long)maxLog, cases.size(),
                (unsigned long long)checked);
  }

  /// Old and new register mappings (and equivalence, for identity moves)
  /// agree on every move between layouts of rank-`rank` blocks of at most
  /// 2^maxLog elements; `wantMapped` of `wantMoves` stay in registers.
  void checkMovesOfRank(unsigned rank, int64_t maxLog, uint64_t wantMoves,
                        uint64_t wantMapped) {
    uint64_t moves = 0, mapped = 0;
    for (const Coords &shape : shapesOfRank(rank, maxLog))
      for (const Move &m : movesFor(&ctx, shape)) {
        ++moves;
        SCOPED_TRACE(describe(m.src) + " -> " + describe(m.dst));
        auto refSrc = reference::getLayoutView(m.src.encoding, m.src.shape);
        auto refDst = reference::getLayoutView(m.dst.encoding, m.dst.shape);
        auto src = getLayoutView(m.src.encoding, m.src.shape);
        auto dst = getLayoutView(m.dst.encoding, m.dst.shape);
        auto llSrc = toLinearLayout(m.src.encoding, m.src.shape);
        auto llDst = toLinearLayout(m.dst.encoding, m.dst.shape);
        ASSERT_TRUE(refSrc && refDst && src && dst && llSrc && llDst);
        auto want = reference::getRegisterMapping(*refSrc, *refDst, m.dstToSrc);
        mapped += want.has_value();
        EXPECT_EQ(getRegisterMapping(*src, *dst, m.dstToSrc), want);
        auto fn = [&](ArrayRef<int64_t> c) { return m.dstToSrc(c); };
        EXPECT_EQ(
            getRegisterMapping(*llSrc, llDst->mapOutputs(fn, m.src.shape)),
            want);
        if (m.src.shape != m.dst.shape)
          continue;
        bool same = reference::layoutsEquivalent(m.src.encoding, m.dst.encoding,
                                                 m.src.shape);
        EXPECT_EQ(
            layoutsEquivalent(m.src.encoding, m.dst.encoding, m.src.shape),
            same);
        EXPECT_EQ(*llSrc == *llDst, same);
      }
    EXPECT_EQ(moves, wantMoves);
    EXPECT_EQ(mapped, wantMapped);
    std::printf("rank %u, <= 2^%lld elements: %llu moves, %llu in registers\n",
                rank, (long long)maxLog, (unsigned long long)moves,
                (unsigned long long)mapped);
  }

  mlir::MLIRContext ctx;
};

// The whole domain is about 3.6e9 (register, lane, warp) triples, ~15 CPU
// minutes, too long for every test run: by default, every layout of rank 1,
// rank 2 up to 2^12 elements and rank 3 up to 2^6 (moves: up to 2^16, 2^8,
// 2^4). The DISABLED_ tests take the whole domain (moves: up to 2^12 and
// 2^8); run them with --gtest_also_run_disabled_tests after changing a
// layout.
TEST_F(LinearLayoutReferenceTest, Rank1MatchesReference) {
  checkAllOfRank(1, 16, 360);
}
TEST_F(LinearLayoutReferenceTest, Rank2SmallMatchesReference) {
  checkAllOfRank(2, 12, 12640);
}
TEST_F(LinearLayoutReferenceTest, Rank3SmallMatchesReference) {
  checkAllOfRank(3, 6, 78720);
}
TEST_F(LinearLayoutReferenceTest, DISABLED_Rank2MatchesReference) {
  checkAllOfRank(2, 16, 17800);
}
TEST_F(LinearLayoutReferenceTest, DISABLED_Rank3MatchesReference) {
  checkAllOfRank(3, 16, 1132800);
}

TEST_F(LinearLayoutReferenceTest, Rank1MovesMatchReference) {
  checkMovesOfRank(1, 16, 3888, 1265);
}
TEST_F(LinearLayoutReferenceTest, Rank2MovesMatchReference) {
  checkMovesOfRank(2, 8, 33144, 10371);
}
TEST_F(LinearLayoutReferenceTest, Rank3MovesMatchReference) {
  checkMovesOfRank(3, 4, 65784, 27608);
}
TEST_F(LinearLayoutReferenceTest, DISABLED_LargerMovesMatchReference) {
  checkMovesOfRank(2, 12, 79048, 23147);
  checkMovesOfRank(3, 8, 545568, 167757);
}

} // namespace
