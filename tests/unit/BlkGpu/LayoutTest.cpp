// Layout model: which thread holds which element, and when a change of
// layout needs no data movement.
#include "blk/Dialect/BlkGpu/IR/Layout.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <set>

using namespace blk::gpu;

namespace {

class LayoutTest : public ::testing::Test {
protected:
  LayoutTest() { ctx.loadDialect<BlkGpuDialect>(); }
  mlir::MLIRContext ctx;
};

TEST_F(LayoutTest, CoalescedVec4Layout1D) {
  auto l = getBlockedLayout(&ctx, {1024}, 4, {0}, 4);
  EXPECT_EQ(l.getSizePerThread()[0], 4u);
  EXPECT_EQ(l.getThreadsPerWarp()[0], 32u);
  EXPECT_EQ(l.getWarpsPerCTA()[0], 4u);
  auto v = *getLayoutView(l, {1024});
  ASSERT_EQ(v.numElems(), 8u);
  // Thread 5 of warp 1 (tid 37): elements 148..151 and 660..663.
  std::vector<int64_t> got;
  for (unsigned i = 0; i < 8; ++i)
    got.push_back(v.coords(i, 5, 1)[0]);
  EXPECT_EQ(got, (std::vector<int64_t>{148, 149, 150, 151, 660, 661, 662, 663}));
  EXPECT_FALSE(v.hasReplicas());
}

TEST_F(LayoutTest, EveryElementHeldOnceWithoutReplicas) {
  auto l = getBlockedLayout(&ctx, {64, 64}, 4, {1, 0}, 4);
  auto v = *getLayoutView(l, {64, 64});
  std::set<int64_t> seen;
  for (unsigned t = 0; t < 128; ++t)
    for (unsigned i = 0; i < v.numElems(); ++i) {
      auto c = v.coords(i, t % 32, t / 32);
      EXPECT_TRUE(seen.insert(c[0] * 64 + c[1]).second);
    }
  EXPECT_EQ(seen.size(), 4096u);
}

TEST_F(LayoutTest, SmallBlockReplicates) {
  auto l = getDefaultLayout(&ctx, {2, 2}, 1);
  auto v = *getLayoutView(l, {2, 2});
  EXPECT_EQ(v.numElems(), 1u);
  EXPECT_TRUE(v.hasReplicas());
  // Lane 2 along dim 0 holds a copy of lane 0's element.
  unsigned owners = 0;
  for (unsigned lane = 0; lane < 32; ++lane) {
    bool owner = true;
    for (unsigned d = 0; d < 2; ++d)
      owner &= v.laneIndex(lane, d) < v.distinctLanes(d);
    owners += owner;
  }
  EXPECT_EQ(owners, 4u);
}

TEST_F(LayoutTest, SliceDropsTheReducedDim) {
  auto parent = getBlockedLayout(&ctx, {32, 64}, 4, {1, 0}, 4);
  auto slice = SliceEncodingAttr::get(&ctx, 1, parent);
  auto v = *getLayoutView(slice, {32});
  EXPECT_EQ(v.rank(), 1u);
  EXPECT_EQ(v.sliced, (llvm::SmallVector<unsigned>{1}));
  // Lanes that differ only along the removed dim hold the same rows.
  EXPECT_EQ(v.coords(0, 0, 0), v.coords(0, 1, 0));
  EXPECT_EQ(v.distinctLanes(1), 1u);
}

TEST_F(LayoutTest, EquivalentLayoutsNeedNoMove) {
  auto a = getBlockedLayout(&ctx, {128}, 4, {0}, 1);
  auto b = getBlockedLayout(&ctx, {128}, 4, {0}, 1);
  EXPECT_TRUE(layoutsEquivalent(a, b, {128}));
  auto c = getBlockedLayout(&ctx, {1024}, 4, {0}, 4);
  EXPECT_FALSE(layoutsEquivalent(a, c, {1024}));
}

TEST_F(LayoutTest, TransposedTileNeedsCommunication) {
  auto rowMajor = getBlockedLayout(&ctx, {64, 64}, 4, {1, 0}, 4);
  auto colMajor = getBlockedLayout(&ctx, {64, 64}, 4, {0, 1}, 4);
  auto src = *getLayoutView(rowMajor, {64, 64});
  auto dst = *getLayoutView(colMajor, {64, 64});
  EXPECT_FALSE(getRegisterMapping(src, dst, identityCoords).has_value());
  EXPECT_TRUE(getRegisterMapping(src, src, identityCoords).has_value());
}

TEST_F(LayoutTest, BroadcastStaysInRegisters) {
  auto l = getBlockedLayout(&ctx, {64, 64}, 4, {1, 0}, 4);
  auto src = *getLayoutView(l, {64, 1});
  auto dst = *getLayoutView(l, {64, 64});
  auto map = getRegisterMapping(src, dst, [](llvm::ArrayRef<int64_t> c) {
    return llvm::SmallVector<int64_t>{c[0], 0};
  });
  ASSERT_TRUE(map.has_value());
  EXPECT_EQ(map->size(), dst.numElems());
}

} // namespace
