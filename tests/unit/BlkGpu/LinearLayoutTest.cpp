// Linear layouts, checked by hand: the bases of blocked and slice layouts,
// the queries on them, and on layouts no blocked encoding makes (the mma.sync
// C fragment of ../shared/docs/TENSORCORES.md, duplicated bases). The
// exhaustive comparison with the old model is LinearLayoutReferenceTest.cpp.
#include "blk/Dialect/BlkGpu/IR/LinearLayout.h"
#include "blk/Dialect/BlkGpu/IR/Layout.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <set>

using namespace blk::gpu;
using llvm::SmallVector;

namespace {

using Basis = LinearLayout::Basis;
using BasisList = SmallVector<Basis>;

class LinearLayoutTest : public ::testing::Test {
protected:
  LinearLayoutTest() { ctx.loadDialect<BlkGpuDialect>(); }
  mlir::MLIRContext ctx;
};

static LinearLayout::Bases makeBases(BasisList regs, BasisList lanes,
                                     BasisList warps) {
  return {std::move(regs), std::move(lanes), std::move(warps)};
}

static BasisList basesOf(const LinearLayout &l, InDim in) {
  return BasisList(l.getBases(in).begin(), l.getBases(in).end());
}

TEST_F(LinearLayoutTest, CoalescedVec4Bases) {
  auto l = getBlockedLayout(&ctx, {1024}, 4, {0}, 4);
  LinearLayout ll = *toLinearLayout(l, {1024});
  EXPECT_EQ(basesOf(ll, InDim::Register), (BasisList{{1}, {2}, {512}}));
  EXPECT_EQ(basesOf(ll, InDim::Lane), (BasisList{{4}, {8}, {16}, {32}, {64}}));
  EXPECT_EQ(basesOf(ll, InDim::Warp), (BasisList{{128}, {256}}));
  // Thread 5 of warp 1 (tid 37): elements 148..151 and 660..663.
  std::vector<int64_t> got;
  for (unsigned r = 0; r < 8; ++r)
    got.push_back(ll.apply(r, 5, 1)[0]);
  EXPECT_EQ(got,
            (std::vector<int64_t>{148, 149, 150, 151, 660, 661, 662, 663}));
  EXPECT_EQ(ll.getFreeMask(InDim::Lane), 0u);
  EXPECT_EQ(ll.getFreeMask(InDim::Warp), 0u);
  EXPECT_EQ(ll.getVectorRun(0).length, 4u);
  EXPECT_EQ(ll.getShuffleStrides(0), (SmallVector<unsigned>{1, 2, 4, 8, 16}));
}

TEST_F(LinearLayoutTest, SmallBlockReplicatesThroughZeroBases) {
  // threadsPerWarp [16, 2]: lane bits 2..4 wrap past the 2 rows.
  auto l = getDefaultLayout(&ctx, {2, 2}, 1);
  LinearLayout ll = *toLinearLayout(l, {2, 2});
  EXPECT_EQ(ll.getInBits(InDim::Register), 0u);
  EXPECT_EQ(basesOf(ll, InDim::Lane),
            (BasisList{{0, 1}, {1, 0}, {0, 0}, {0, 0}, {0, 0}}));
  EXPECT_EQ(ll.getFreeMask(InDim::Lane), 0b11100u);
  std::set<unsigned> owners;
  for (unsigned lane = 0; lane < 32; ++lane)
    if (ll.isOwner(lane, 0))
      owners.insert(lane);
  EXPECT_EQ(owners, (std::set<unsigned>{0, 1, 2, 3}));
}

TEST_F(LinearLayoutTest, SliceDropsTheReducedDim) {
  // Parent: sizePerThread [1, 4], threadsPerWarp [2, 16], warpsPerCTA [4, 1].
  auto parent = getBlockedLayout(&ctx, {32, 64}, 4, {1, 0}, 4);
  auto slice = SliceEncodingAttr::get(&ctx, 1, parent);
  LinearLayout ll = *toLinearLayout(slice, {32});
  EXPECT_EQ(basesOf(ll, InDim::Register), (BasisList{{8}, {16}}));
  EXPECT_EQ(basesOf(ll, InDim::Lane), (BasisList{{0}, {0}, {0}, {0}, {1}}));
  EXPECT_EQ(basesOf(ll, InDim::Warp), (BasisList{{2}, {4}}));
  // The 16 lanes along the removed dim hold copies; a reduction along the
  // rows would shuffle over lane bit 4 only.
  EXPECT_EQ(ll.getFreeMask(InDim::Lane), 0b01111u);
  EXPECT_EQ(ll.getShuffleStrides(0), (SmallVector<unsigned>{16}));
  EXPECT_EQ(ll.getMaskAlong(InDim::Warp, 0), 0b11u);
}

TEST_F(LinearLayoutTest, VectorRuns) {
  auto rowMajor = getBlockedLayout(&ctx, {64, 64}, 4, {1, 0}, 4);
  LinearLayout ll = *toLinearLayout(rowMajor, {64, 64});
  EXPECT_EQ(ll.getVectorRun(1).length, 4u);
  EXPECT_EQ(ll.getVectorRun(1).stride, 1u);
  EXPECT_EQ(ll.getVectorRun(0).length, 1u);
  // One thread and one warp along dim 1: its repeats of 4 are adjacent, so
  // all 16 columns are one run (LayoutView's runLength said 4).
  auto narrow = BlockedEncodingAttr::get(&ctx, {1, 4}, {32, 1}, {4, 1}, {1, 0});
  LinearLayout n = *toLinearLayout(narrow, {128, 16});
  EXPECT_EQ(n.getVectorRun(1).length, 16u);
  EXPECT_EQ(n.getVectorRun(1).stride, 1u);
  // Registers are row-major whatever the order: the run of 4 along dim 0
  // steps over the 8 registers of dim 1.
  auto colMajor = getBlockedLayout(&ctx, {64, 64}, 4, {0, 1}, 4);
  LinearLayout c = *toLinearLayout(colMajor, {64, 64});
  EXPECT_EQ(c.getVectorRun(0).length, 4u);
  EXPECT_EQ(c.getVectorRun(0).stride, c.getInSize(InDim::Register) / 4);
}

TEST_F(LinearLayoutTest, MmaFragmentQueries) {
  // mma.sync m16n8 f32 C fragment: g = lane >> 2, t = lane & 3; register i
  // holds (g + 8 * (i / 2), 2t + i % 2).
  LinearLayout c(
      makeBases({{0, 1}, {8, 0}}, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}, {}),
      {16, 8});
  std::set<std::pair<int64_t, int64_t>> seen;
  for (unsigned lane = 0; lane < 32; ++lane)
    for (unsigned i = 0; i < 4; ++i) {
      int64_t g = lane >> 2, t = lane & 3;
      EXPECT_EQ(c.apply(i, lane, 0),
                (SmallVector<int64_t>{g + 8 * (i / 2), 2 * t + i % 2}));
      seen.insert({g + 8 * (i / 2), 2 * t + i % 2});
    }
  EXPECT_EQ(seen.size(), 128u);
  EXPECT_EQ(c.getVectorRun(1).length, 2u);
  EXPECT_EQ(c.getVectorRun(0).length, 1u);
  EXPECT_EQ(c.getShuffleStrides(1), (SmallVector<unsigned>{1, 2}));
  EXPECT_EQ(c.getShuffleStrides(0), (SmallVector<unsigned>{4, 8, 16}));
  EXPECT_EQ(c.getFreeMask(InDim::Lane), 0u);
}

TEST_F(LinearLayoutTest, DuplicatedBasisIsFree) {
  // Lane bit 0 moves to the element register bit 0 already reaches, so lanes
  // 0 and 1 hold the same pair {0, 1}: lane 1 is a copy.
  LinearLayout l(makeBases({{1}}, {{1}, {2}, {0}, {0}, {0}}, {}), {4});
  EXPECT_EQ(l.getFreeMask(InDim::Lane), 0b11101u);
  std::multiset<int64_t> owned;
  for (unsigned lane = 0; lane < 32; ++lane)
    if (l.isOwner(lane, 0))
      for (unsigned r = 0; r < 2; ++r)
        owned.insert(l.apply(r, lane, 0)[0]);
  EXPECT_EQ(owned, (std::multiset<int64_t>{0, 1, 2, 3}));
}

TEST_F(LinearLayoutTest, RegisterMappingPicksTheLowestRegister) {
  // src registers 0..3 hold 0, 1, 1, 0; dst registers hold 0, 1, 0, 1.
  LinearLayout src(makeBases({{1}, {1}}, {}, {}), {2});
  LinearLayout dst(makeBases({{1}, {0}}, {}, {}), {2});
  EXPECT_EQ(getRegisterMapping(src, dst), (SmallVector<unsigned>{0, 1, 0, 1}));
  // Not in src's registers, or another thread holds it: no mapping.
  LinearLayout wide(makeBases({{2}}, {}, {}), {4});
  LinearLayout narrow(makeBases({{1}}, {}, {}), {4});
  EXPECT_FALSE(getRegisterMapping(narrow, wide).has_value());
  LinearLayout lanes(makeBases({{1}}, {{2}}, {}), {4});
  LinearLayout otherLanes(makeBases({{1}}, {{0}}, {}), {4});
  EXPECT_FALSE(getRegisterMapping(lanes, otherLanes).has_value());
}

TEST_F(LinearLayoutTest, BroadcastMapsEveryColumnToTheRow) {
  auto l = getBlockedLayout(&ctx, {64, 64}, 4, {1, 0}, 4);
  LinearLayout src = *toLinearLayout(l, {64, 1});
  LinearLayout dst = *toLinearLayout(l, {64, 64});
  auto toColumn = [](llvm::ArrayRef<int64_t> c) {
    return SmallVector<int64_t>{c[0], 0};
  };
  auto map = getRegisterMapping(src, dst.mapOutputs(toColumn, {64, 1}));
  ASSERT_TRUE(map.has_value());
  ASSERT_EQ(map->size(), 32u);
  for (unsigned i = 0; i < 32; ++i)
    EXPECT_EQ((*map)[i], i / 4) << i; // 4 columns per thread, one row each
}

TEST_F(LinearLayoutTest, DifferentAttributesSameLayout) {
  // Order only numbers lanes and warps along dims of more than one thread.
  auto a = BlockedEncodingAttr::get(&ctx, {1, 1}, {1, 32}, {1, 4}, {1, 0});
  auto b = BlockedEncodingAttr::get(&ctx, {1, 1}, {1, 32}, {1, 4}, {0, 1});
  EXPECT_NE(a, b);
  EXPECT_EQ(*toLinearLayout(a, {1, 128}), *toLinearLayout(b, {1, 128}));
  EXPECT_TRUE(layoutsEquivalent(a, b, {1, 128}));
  EXPECT_NE(*toLinearLayout(a, {1, 128}), *toLinearLayout(a, {1, 256}));
}

TEST_F(LinearLayoutTest, SharedHasNoDistributedLayout) {
  auto shared = SharedEncodingAttr::get(&ctx, 8, 1, 8, {1, 0}, 0, 0);
  EXPECT_FALSE(toLinearLayout(shared, {64, 64}).has_value());
  auto l = getDefaultLayout(&ctx, {64, 64}, 4);
  EXPECT_FALSE(toLinearLayout(l, {64}).has_value());     // rank mismatch
  EXPECT_FALSE(toLinearLayout(l, {64, 48}).has_value()); // not a power of two
}

/// The wgmma m64nNk16 accumulator fragment (../shared/docs/TENSORCORES.md):
/// warp w of a warpgroup, lane l, instruction register i.
static SmallVector<int64_t> wgmmaFormula(unsigned w, unsigned l, unsigned i) {
  return {int64_t(16 * w + l / 4 + 8 * ((i / 2) % 2)), int64_t(8 * (i / 4) + 2 * (l % 4) + i % 2)};
}

/// Checks every register of every thread of `mma` on [m, n] against the
/// formula, with warpgroups along M then N and instructions repeated.
static void expectWgmmaFragments(MmaEncodingAttr mma, int64_t m, int64_t n) {
  LinearLayout ll = *toLinearLayout(mma, {m, n});
  MmaTiling t = getMmaTiling(mma, {m, n});
  unsigned wm = mma.getWarpsPerCTA()[0], wn = mma.getWarpsPerCTA()[1];
  ASSERT_EQ(ll.getInSize(InDim::Register), t.repM * t.repN * t.regsPerInstr());
  std::set<std::pair<int64_t, int64_t>> seen;
  for (unsigned w = 0; w < wm * wn; ++w)
    for (unsigned l = 0; l < 32; ++l)
      for (unsigned mr = 0; mr < t.repM; ++mr)
        for (unsigned nr = 0; nr < t.repN; ++nr)
          for (unsigned i = 0; i < t.regsPerInstr(); ++i) {
            SmallVector<int64_t> want = wgmmaFormula(w % 4, l, i);
            want[0] += 64 * ((w / 4) % (wm / 4)) + 16 * int64_t(wm) * mr;
            want[1] += int64_t(t.instrN) * (w / wm + wn * nr);
            SmallVector<int64_t> got = ll.apply(t.element(mr, nr, i), l, w);
            ASSERT_EQ(got, want) << "warp " << w << " lane " << l << " instr (" << mr << ", "
                                 << nr << ") reg " << i;
            seen.insert({got[0], got[1]});
          }
  EXPECT_EQ(int64_t(seen.size()), m * n); // each element held exactly once
}

TEST_F(LinearLayoutTest, MmaV3OneWarpgroupOneInstruction) {
  expectWgmmaFragments(MmaEncodingAttr::get(&ctx, 3, {4, 1}, 64), 64, 64);
}

TEST_F(LinearLayoutTest, MmaV3RepeatsInstructionsOverTheBlock) {
  expectWgmmaFragments(MmaEncodingAttr::get(&ctx, 3, {4, 1}, 64), 128, 128);
}

TEST_F(LinearLayoutTest, MmaV3TwoWarpgroupsAlongM) {
  expectWgmmaFragments(MmaEncodingAttr::get(&ctx, 3, {8, 1}, 256), 128, 256);
}

TEST_F(LinearLayoutTest, MmaV3WarpgroupsAlongN) {
  expectWgmmaFragments(MmaEncodingAttr::get(&ctx, 3, {4, 2}, 128), 64, 256);
}

TEST_F(LinearLayoutTest, MmaRegistersAreRowMajorRunsForTheEmitter) {
  // Column pairs are runs of 2, as LayoutView::sizeEff says.
  auto mma = MmaEncodingAttr::get(&ctx, 3, {4, 1}, 128);
  std::optional<LayoutView> v = getLayoutView(mma, {128, 128});
  ASSERT_TRUE(v.has_value());
  EXPECT_EQ(v->sizeEff, (SmallVector<int64_t>{1, 2}));
  EXPECT_EQ(v->perDim, (SmallVector<int64_t>{4, 32}));
  EXPECT_EQ(v->linear.apply(1, 0, 0), (SmallVector<int64_t>{0, 1}));
  EXPECT_EQ(v->linear.apply(2, 0, 0), (SmallVector<int64_t>{0, 8}));
  EXPECT_EQ(v->linear.apply(32, 0, 0), (SmallVector<int64_t>{8, 0}));
}

TEST_F(LinearLayoutTest, MmaWrapsOnBlocksSmallerThanItsTile) {
  // A row vector of the accumulator ([M, 1], as `max(acc, axis: 1)[:, None]`
  // is): each thread holds its rows g and g + 8 (and those of the repeats
  // along M); the quad's lanes and the column registers hold copies.
  auto mma = MmaEncodingAttr::get(&ctx, 3, {4, 1}, 128);
  std::optional<LinearLayout> rows = toLinearLayout(mma, {128, 1});
  ASSERT_TRUE(rows.has_value());
  EXPECT_EQ(rows->getInSize(InDim::Register), 4u);
  EXPECT_EQ(rows->apply(1, 0, 0), (SmallVector<int64_t>{8, 0}));
  EXPECT_EQ(rows->apply(2, 0, 0), (SmallVector<int64_t>{64, 0}));
  EXPECT_EQ(rows->apply(0, 3, 0), (SmallVector<int64_t>{0, 0}));  // lanes 0..3: one row
  EXPECT_EQ(rows->apply(0, 4, 0), (SmallVector<int64_t>{1, 0}));
  EXPECT_EQ(rows->apply(0, 0, 3), (SmallVector<int64_t>{48, 0}));
  // Its slice along the columns is the rows' layout, and it is the same for
  // another instruction width (a conversion between them moves nothing).
  auto narrow = MmaEncodingAttr::get(&ctx, 3, {4, 1}, 64);
  auto slice = SliceEncodingAttr::get(&ctx, 1, mma);
  EXPECT_TRUE(layoutsEquivalent(slice, SliceEncodingAttr::get(&ctx, 1, narrow), {128}));
  // With one warpgroup column the instruction width only groups registers:
  // the whole tiles are the same layout too. Warpgroups along N are not.
  EXPECT_TRUE(layoutsEquivalent(mma, narrow, {128, 128}));
  EXPECT_FALSE(layoutsEquivalent(mma, MmaEncodingAttr::get(&ctx, 3, {4, 2}, 64), {128, 128}));
  // Warps past a short block hold copies: rows 32.. of the tile wrap to 0.
  std::optional<LinearLayout> shortBlock = toLinearLayout(mma, {32, 128});
  ASSERT_TRUE(shortBlock.has_value());
  EXPECT_EQ(shortBlock->apply(0, 0, 2), (SmallVector<int64_t>{0, 0}));
  EXPECT_EQ(shortBlock->apply(0, 0, 1), (SmallVector<int64_t>{16, 0}));
}

} // namespace
