// Whole-block kernels: elementwise arithmetic, shapes, reductions, scans, dot.
#include "blk/Interpreter/BlockOps.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace blk::interp;

static Block ints(ElemKind k, Shape shape, std::vector<int64_t> v) {
  Block b = Block::zeros(k, std::move(shape));
  for (size_t i = 0; i < v.size(); ++i)
    b.i[i] = wrapToWidth(bitWidth(k), v[i]);
  return b;
}

static Block floats(ElemKind k, Shape shape, std::vector<double> v) {
  Block b = Block::zeros(k, std::move(shape));
  for (size_t i = 0; i < v.size(); ++i)
    b.f[i] = roundFloat(k, v[i]);
  return b;
}

TEST(BlockOpsTest, IntegerArithmeticWrapsAndTruncates) {
  Block a = ints(ElemKind::I32, {4}, {7, -7, 2147483647, 100});
  Block b = ints(ElemKind::I32, {4}, {2, 2, 1, -3});
  EXPECT_EQ(binary(BinOp::DivS, a, b).i, (std::vector<int64_t>{3, -3, 2147483647, -33}));
  EXPECT_EQ(binary(BinOp::RemS, a, b).i, (std::vector<int64_t>{1, -1, 0, 1}));
  EXPECT_EQ(binary(BinOp::Add, a, b).i[2], -2147483648); // wraps
  Block u8 = ints(ElemKind::I8, {2}, {200, 10});
  Block three = ints(ElemKind::I8, {}, {3});
  // 200 as u8 / 3 = 66; as i8 (-56) / 3 = -18.
  EXPECT_EQ(binary(BinOp::DivU, u8, three).i, (std::vector<int64_t>{66, 3}));
  EXPECT_EQ(binary(BinOp::DivS, u8, three).i, (std::vector<int64_t>{-18, 3}));
  EXPECT_EQ(binary(BinOp::ShrU, u8, three).i, (std::vector<int64_t>{25, 1}));
  EXPECT_EQ(binary(BinOp::ShrS, u8, three).i, (std::vector<int64_t>{-7, 1}));
  EXPECT_EQ(compare(CmpPred::Ult, u8, three).i, (std::vector<int64_t>{0, 0}));
  EXPECT_EQ(compare(CmpPred::Slt, u8, three).i, (std::vector<int64_t>{-1, 0}));
}

TEST(BlockOpsTest, F16ArithmeticRoundsEveryOp) {
  Block a = floats(ElemKind::F16, {2}, {2048, 0.1});
  Block one = floats(ElemKind::F16, {}, {1});
  Block r = binary(BinOp::FAdd, a, one);
  EXPECT_EQ(r.f[0], 2048.0); // 2049 is not an f16: ties to even 2048
  EXPECT_EQ(r.f[1], roundToF16(roundToF16(0.1) + 1.0));
  Block f32 = cast(CastOp::ExtF, a, ElemKind::F32);
  EXPECT_EQ(f32.f[1], 0.0999755859375);
  Block back = cast(CastOp::TruncF, floats(ElemKind::F32, {1}, {65520.0}), ElemKind::F16);
  EXPECT_TRUE(std::isinf(back.f[0]));
}

TEST(BlockOpsTest, CastsSaturateAndExtend) {
  Block f = floats(ElemKind::F32, {4}, {3.9, -3.9, 1e20, NAN});
  EXPECT_EQ(cast(CastOp::FPToSI, f, ElemKind::I32).i,
            (std::vector<int64_t>{3, -3, 2147483647, 0}));
  Block m = ints(ElemKind::I1, {2}, {1, 0});
  EXPECT_EQ(cast(CastOp::ExtUI, m, ElemKind::I32).i, (std::vector<int64_t>{1, 0}));
  EXPECT_EQ(cast(CastOp::ExtSI, m, ElemKind::I32).i, (std::vector<int64_t>{-1, 0}));
  Block bits = cast(CastOp::Bitcast, floats(ElemKind::F32, {1}, {1.0}), ElemKind::I32);
  EXPECT_EQ(bits.i[0], 0x3f800000);
  EXPECT_EQ(cast(CastOp::UIToFP, ints(ElemKind::I8, {1}, {-1}), ElemKind::F32).f[0], 255.0);
}

TEST(BlockOpsTest, ShapesBroadcastAndPermute) {
  Block row = makeRange(0, 3); // [0 1 2]
  Block col = expandDims(makeRange(10, 12), 1);  // [[10],[11]]
  Block grid = binary(BinOp::Add, broadcastTo(expandDims(row, 0), {2, 3}), broadcastTo(col, {2, 3}));
  EXPECT_EQ(grid.i, (std::vector<int64_t>{10, 11, 12, 11, 12, 13}));
  Block t = permute(grid, {1, 0});
  EXPECT_EQ(t.shape, (Shape{3, 2}));
  EXPECT_EQ(t.i, (std::vector<int64_t>{10, 11, 11, 12, 12, 13}));
  Block p3 = permute(reshape(makeRange(0, 8), {2, 2, 2}), {2, 0, 1});
  EXPECT_EQ(p3.i, (std::vector<int64_t>{0, 2, 4, 6, 1, 3, 5, 7}));
}

static Combiner binaryCombiner(BinOp op) {
  return [op](const std::vector<Block> &l, const std::vector<Block> &r, std::vector<Block> &out) {
    out.push_back(binary(op, l[0], r[0]));
    return true;
  };
}

TEST(BlockOpsTest, ReduceAlongAxes) {
  Block x = reshape(makeRange(0, 8), {2, 4});
  std::vector<Block> res;
  ASSERT_TRUE(reduceAlong({x}, 1, binaryCombiner(BinOp::Add), res));
  EXPECT_EQ(res[0].shape, (Shape{2}));
  EXPECT_EQ(res[0].i, (std::vector<int64_t>{6, 22}));
  ASSERT_TRUE(reduceAlong({x}, 0, binaryCombiner(BinOp::MaxS), res));
  EXPECT_EQ(res[0].i, (std::vector<int64_t>{4, 5, 6, 7}));
  ASSERT_TRUE(reduceAlong({makeRange(0, 1024)}, 0, binaryCombiner(BinOp::Add), res));
  EXPECT_TRUE(res[0].isScalar());
  EXPECT_EQ(res[0].i[0], 1023 * 1024 / 2);
  // The fixed pairwise order: (x0 + x2) + (x1 + x3) = (1e8 - 1e8) + (1 + 1)
  // in f32, where a left-to-right fold would lose the first 1 (1e8 + 1 = 1e8).
  Block f = floats(ElemKind::F32, {4}, {1e8, 1, -1e8, 1});
  ASSERT_TRUE(reduceAlong({f}, 0, binaryCombiner(BinOp::FAdd), res));
  EXPECT_EQ(res[0].f[0], 2.0);
}

TEST(BlockOpsTest, ArgmaxCombinerKeepsLowestIndexOnTies) {
  Block v = floats(ElemKind::F32, {8}, {1, 5, 2, 5, 0, 5, 3, 1});
  Block idx = makeRange(0, 8);
  Combiner argmax = [](const std::vector<Block> &l, const std::vector<Block> &r,
                       std::vector<Block> &out) {
    Block gt = compare(CmpPred::FOgt, l[0], r[0]);
    Block eq = compare(CmpPred::FOeq, l[0], r[0]);
    Block lt = compare(CmpPred::Slt, l[1], r[1]);
    Block pickLeft = binary(BinOp::Or, gt, binary(BinOp::And, eq, lt));
    out.push_back(select(pickLeft, l[0], r[0]));
    out.push_back(select(pickLeft, l[1], r[1]));
    return true;
  };
  std::vector<Block> res;
  ASSERT_TRUE(reduceAlong({v, idx}, 0, argmax, res));
  EXPECT_EQ(res[0].f[0], 5.0);
  EXPECT_EQ(res[1].i[0], 1);
}

TEST(BlockOpsTest, ScanForwardAndReverse) {
  Block x = reshape(makeRange(1, 9), {2, 4});
  std::vector<Block> res;
  ASSERT_TRUE(scanAlong({x}, 1, false, binaryCombiner(BinOp::Add), res));
  EXPECT_EQ(res[0].i, (std::vector<int64_t>{1, 3, 6, 10, 5, 11, 18, 26}));
  ASSERT_TRUE(scanAlong({x}, 1, true, binaryCombiner(BinOp::Add), res));
  EXPECT_EQ(res[0].i, (std::vector<int64_t>{10, 9, 7, 4, 26, 21, 15, 8}));
  ASSERT_TRUE(scanAlong({x}, 0, false, binaryCombiner(BinOp::Add), res));
  EXPECT_EQ(res[0].i, (std::vector<int64_t>{1, 2, 3, 4, 6, 8, 10, 12}));
}

TEST(BlockOpsTest, DotAccumulatesInF32) {
  Block a = floats(ElemKind::F16, {2, 3}, {1, 2, 3, 4, 5, 6});
  Block b = floats(ElemKind::F16, {3, 2}, {1, 0, 0, 1, 1, 1});
  Block acc = floats(ElemKind::F32, {2, 2}, {0.5, 0, 0, 0});
  Block r = dot(a, b, acc);
  EXPECT_EQ(r.f, (std::vector<double>{4.5, 5, 10, 11}));
  Block ai = ints(ElemKind::I8, {1, 2}, {127, 127});
  Block bi = ints(ElemKind::I8, {2, 1}, {127, 127});
  EXPECT_EQ(dot(ai, bi, Block::zeros(ElemKind::I32, {1, 1})).i[0], 2 * 127 * 127);
}
