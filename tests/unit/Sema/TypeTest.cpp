// Unit tests for the blk type model: spelling, broadcasting, promotion.
#include "blk/Sema/Mangle.h"
#include "blk/Sema/Type.h"

#include <gtest/gtest.h>

using namespace blk::sema;

TEST(ScalarKind, ParseAndSpell) {
  EXPECT_EQ(parseScalarKind("bool"), ScalarKind::I1);
  EXPECT_EQ(parseScalarKind("bf16"), ScalarKind::BF16);
  EXPECT_EQ(parseScalarKind("u64"), ScalarKind::U64);
  EXPECT_FALSE(parseScalarKind("f8").has_value());
  EXPECT_EQ(spelling(ScalarKind::U16), "u16");
  EXPECT_EQ(bitWidth(ScalarKind::I1), 1u);
  EXPECT_EQ(byteSize(ScalarKind::I1), 1u);
  EXPECT_EQ(byteSize(ScalarKind::F64), 8u);
  EXPECT_TRUE(isUnsigned(ScalarKind::U8));
  EXPECT_FALSE(isUnsigned(ScalarKind::I8));
  EXPECT_TRUE(isFloat(ScalarKind::BF16));
}

TEST(TypeStr, Spellings) {
  EXPECT_EQ(Type::scalar(ScalarKind::F32).str(), "f32");
  EXPECT_EQ(Type::pointer(ScalarKind::F16).str(), "*f16");
  EXPECT_EQ(Type::block(ScalarKind::I32, {64, 32}).str(), "i32[64, 32]");
  EXPECT_EQ(Type::pointerBlock(ScalarKind::F32, {128}).str(), "*f32[128]");
  EXPECT_EQ(Type::error().str(), "<error>");
  EXPECT_TRUE(Type::block(ScalarKind::I1, {8}).isBoolLike());
  EXPECT_TRUE(Type::pointerBlock(ScalarKind::F32, {8}).isPointerLike());
  EXPECT_FALSE(Type::pointerBlock(ScalarKind::F32, {8}).isFloatLike());
  EXPECT_TRUE(Type::pointer(ScalarKind::F32).isScalarLike());
  EXPECT_FALSE(Type::pointer(ScalarKind::F32).isScalar());
}

TEST(Shape, PowerOfTwoAndCount) {
  EXPECT_TRUE(isPowerOfTwo(1));
  EXPECT_TRUE(isPowerOfTwo(1024));
  EXPECT_FALSE(isPowerOfTwo(7));
  EXPECT_FALSE(isPowerOfTwo(0));
  EXPECT_FALSE(isPowerOfTwo(-8));
  EXPECT_EQ(numElements({64, 32}), 2048);
  EXPECT_EQ(numElements({}), 1);
  EXPECT_EQ(formatShape({64, 32}), "[64, 32]");
}

TEST(Broadcast, NumpyRules) {
  EXPECT_EQ(broadcastShapes({64, 1}, {1, 32}), (Shape{64, 32}));
  EXPECT_EQ(broadcastShapes({}, {8}), (Shape{8}));
  EXPECT_EQ(broadcastShapes({32}, {64, 32}), (Shape{64, 32}));
  EXPECT_EQ(broadcastShapes({4, 1, 8}, {2, 1}), (Shape{4, 2, 8}));
  EXPECT_FALSE(broadcastShapes({64}, {64, 32}).has_value());
  EXPECT_FALSE(broadcastShapes({3, 4}, {4, 3}).has_value());
}

TEST(Broadcast, BroadcastsTo) {
  EXPECT_TRUE(broadcastsTo({64, 1}, {64, 32}));
  EXPECT_TRUE(broadcastsTo({}, {64, 32}));
  EXPECT_TRUE(broadcastsTo({32}, {64, 32}));
  // [64] aligns with the last dimension (32): the seed's mask trap.
  EXPECT_FALSE(broadcastsTo({64}, {64, 32}));
  // Broadcasting must not grow the target.
  EXPECT_FALSE(broadcastsTo({64, 32}, {64, 1}));
  EXPECT_FALSE(broadcastsTo({2, 64, 32}, {64, 32}));
}

TEST(Promotion, Typed) {
  EXPECT_EQ(promote(ScalarKind::I32, ScalarKind::F16), ScalarKind::F16);
  EXPECT_EQ(promote(ScalarKind::F16, ScalarKind::F32), ScalarKind::F32);
  EXPECT_EQ(promote(ScalarKind::F16, ScalarKind::BF16), ScalarKind::F32);
  EXPECT_EQ(promote(ScalarKind::I8, ScalarKind::I32), ScalarKind::I32);
  EXPECT_EQ(promote(ScalarKind::I32, ScalarKind::U32), ScalarKind::U32);
  EXPECT_EQ(promote(ScalarKind::U8, ScalarKind::I32), ScalarKind::I32);
  EXPECT_EQ(promote(ScalarKind::I1, ScalarKind::I8), ScalarKind::I8);
  EXPECT_EQ(promote(ScalarKind::I64, ScalarKind::U32), ScalarKind::I64);
  EXPECT_EQ(promote(ScalarKind::F64, ScalarKind::I64), ScalarKind::F64);
}

TEST(Promotion, Literals) {
  // x * 2.0 stays f16 for x: f16[...].
  EXPECT_EQ(promoteWithLiterals(ScalarKind::F16, false, ScalarKind::F32, true),
            ScalarKind::F16);
  // An int literal adopts the other's integer kind.
  EXPECT_EQ(promoteWithLiterals(ScalarKind::I32, true, ScalarKind::U8, false),
            ScalarKind::U8);
  EXPECT_EQ(promoteWithLiterals(ScalarKind::I32, true, ScalarKind::BF16, false),
            ScalarKind::BF16);
  // A float literal against integers gives f32.
  EXPECT_EQ(promoteWithLiterals(ScalarKind::I64, false, ScalarKind::F32, true),
            ScalarKind::F32);
  // Booleans count in i32 against an integer literal.
  EXPECT_EQ(promoteWithLiterals(ScalarKind::I1, false, ScalarKind::I32, true),
            ScalarKind::I32);
  // Two literals promote as usual.
  EXPECT_EQ(promoteWithLiterals(ScalarKind::I32, true, ScalarKind::F32, true),
            ScalarKind::F32);
}

TEST(Promotion, Narrowing) {
  EXPECT_TRUE(isNarrowing(ScalarKind::F32, ScalarKind::F16));
  EXPECT_TRUE(isNarrowing(ScalarKind::F32, ScalarKind::I32));
  EXPECT_TRUE(isNarrowing(ScalarKind::I64, ScalarKind::I32));
  EXPECT_FALSE(isNarrowing(ScalarKind::I32, ScalarKind::F32));
  EXPECT_FALSE(isNarrowing(ScalarKind::F16, ScalarKind::F32));
  EXPECT_FALSE(isNarrowing(ScalarKind::I32, ScalarKind::I64));
}

TEST(Mangle, EntryNames) {
  EXPECT_EQ(mangleEntryName("double_grid", {{"BLOCK", ConstValue::integer(1024)}}, 4, false),
            "double_grid__BLOCK_1024__w4");
  EXPECT_EQ(mangleEntryName("mm",
                            {{"BM", ConstValue::integer(64)}, {"BN", ConstValue::integer(32)}},
                            8, false),
            "mm__BM_64_BN_32__w8");
  EXPECT_EQ(mangleEntryName("k", {{"OFF", ConstValue::integer(-5)},
                                  {"FLAG", ConstValue::boolean(true)}}, 2, false),
            "k__OFF_m5_FLAG_1__w2");
  EXPECT_EQ(mangleEntryName("k", {}, 4, false), "k__w4");
  // A warp-specialised config is another entry than the same values without.
  EXPECT_EQ(mangleEntryName("mm",
                            {{"BM", ConstValue::integer(128)}, {"BN", ConstValue::integer(256)}},
                            8, true),
            "mm__BM_128_BN_256__w8__ws");
}
