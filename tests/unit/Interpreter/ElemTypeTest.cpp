// Rounding to f16/bf16/f32 and integer wrapping of the interpreter value model.
#include "blk/Interpreter/ElemType.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

using namespace blk::interp;

TEST(ElemTypeTest, F16RoundsToNearestEven) {
  EXPECT_EQ(roundToF16(1.0), 1.0);
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties go to the even 1.0.
  EXPECT_EQ(roundToF16(1.0 + std::ldexp(1.0, -11)), 1.0);
  // 1 + 3*2^-11 is halfway between 1+2^-10 (odd) and 1+2^-9 (even).
  EXPECT_EQ(roundToF16(1.0 + 3 * std::ldexp(1.0, -11)), 1.0 + std::ldexp(1.0, -9));
  EXPECT_EQ(roundToF16(0.1), 0.0999755859375);
  EXPECT_EQ(roundToF16(65504.0), 65504.0);
  EXPECT_EQ(roundToF16(65519.0), 65504.0);       // below the halfway point
  EXPECT_TRUE(std::isinf(roundToF16(65520.0)));  // halfway rounds to even: overflow
  EXPECT_EQ(roundToF16(std::ldexp(1.0, -24)), std::ldexp(1.0, -24)); // smallest subnormal
  EXPECT_EQ(roundToF16(std::ldexp(1.0, -25)), 0.0);                  // tie to even 0
  EXPECT_EQ(roundToF16(std::ldexp(1.5, -25)), std::ldexp(1.0, -24));
  EXPECT_TRUE(std::isnan(roundToF16(NAN)));
  EXPECT_EQ(roundToF16(-2.0 / 3.0), -0.66650390625);
}

TEST(ElemTypeTest, F16BitsRoundTrip) {
  EXPECT_EQ(f16ToBits(1.0), 0x3c00);
  EXPECT_EQ(f16ToBits(-2.0), 0xc000);
  EXPECT_EQ(f16ToBits(65504.0), 0x7bff);
  EXPECT_EQ(f16ToBits(INFINITY), 0x7c00);
  EXPECT_EQ(f16ToBits(std::ldexp(1.0, -24)), 0x0001);
  EXPECT_EQ(f16ToBits(std::ldexp(1023.0, -24)), 0x03ff);
  EXPECT_EQ(f16ToBits(-0.0), 0x8000);
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    double v = f16FromBits(uint16_t(bits));
    if (std::isnan(v))
      continue;
    ASSERT_EQ(f16ToBits(v), bits) << "bits " << bits;
    ASSERT_EQ(roundToF16(v), v);
  }
}

TEST(ElemTypeTest, BF16MatchesTruncationOfFloatWithRounding) {
  EXPECT_EQ(bf16ToBits(1.0), 0x3f80);
  EXPECT_EQ(roundToBF16(1.0 + std::ldexp(1.0, -8)), 1.0);                       // tie, even
  EXPECT_EQ(roundToBF16(1.0 + 3 * std::ldexp(1.0, -8)), 1.0 + std::ldexp(1.0, -6));
  EXPECT_EQ(roundToBF16(3.14159265), 3.140625);
  EXPECT_TRUE(std::isinf(roundToBF16(3.4e38)));
  for (uint32_t bits = 0; bits < 0x10000; bits += 7) {
    double v = bf16FromBits(uint16_t(bits));
    if (std::isnan(v))
      continue;
    ASSERT_EQ(bf16ToBits(v), bits);
  }
}

TEST(ElemTypeTest, F32RoundingIsFloatCast) {
  EXPECT_EQ(roundFloat(ElemKind::F32, 0.1), double(0.1f));
  EXPECT_EQ(roundFloat(ElemKind::F64, 0.1), 0.1);
}

TEST(ElemTypeTest, IntegersWrapToWidth) {
  EXPECT_EQ(wrapToWidth(8, 200), -56);
  EXPECT_EQ(wrapToWidth(32, int64_t(1) << 31), -(int64_t(1) << 31));
  EXPECT_EQ(wrapToWidth(1, 1), -1);
  EXPECT_EQ(unsignedView(8, -1), 255u);
  EXPECT_EQ(unsignedView(32, -1), 4294967295u);
}

TEST(ElemTypeTest, ParsesBlkTypeNames) {
  EXPECT_EQ(parseDataType("u32"), (DataType{ElemKind::I32, true}));
  EXPECT_EQ(parseDataType("bf16"), (DataType{ElemKind::BF16, false}));
  EXPECT_EQ(parseDataType("bool"), (DataType{ElemKind::I1, false}));
  EXPECT_FALSE(parseDataType("f8"));
  EXPECT_EQ(dataTypeName({ElemKind::I16, true}), "u16");
}
