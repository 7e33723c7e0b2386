// The host's 16-bit float conversions (blk/runtime/Types.h): exact bits for
// rounding, ties, overflow, subnormals and NaN, and every half round-trips.
#include "blk/runtime/Types.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

namespace {

TEST(TypesTest, ToHalfRoundsToNearestEven) {
  EXPECT_EQ(blk::toHalf(1.0f).bits, 0x3C00);
  EXPECT_EQ(blk::toHalf(-2.0f).bits, 0xC000);
  EXPECT_EQ(blk::toHalf(-0.0f).bits, 0x8000);
  EXPECT_EQ(blk::toHalf(1.0f + std::ldexp(1.0f, -11)).bits, 0x3C00);     // tie: even
  EXPECT_EQ(blk::toHalf(1.0f + 3 * std::ldexp(1.0f, -11)).bits, 0x3C02); // tie: even
  EXPECT_EQ(blk::toHalf(65504.0f).bits, 0x7BFF);
  EXPECT_EQ(blk::toHalf(65519.0f).bits, 0x7BFF);
  EXPECT_EQ(blk::toHalf(65520.0f).bits, 0x7C00); // overflows to infinity
  EXPECT_EQ(blk::toHalf(-INFINITY).bits, 0xFC00);
  EXPECT_EQ(blk::toHalf(std::ldexp(1.0f, -24)).bits, 0x0001); // smallest subnormal
  EXPECT_EQ(blk::toHalf(std::ldexp(1.0f, -25)).bits, 0x0000); // tie to even: zero
  EXPECT_EQ(blk::toHalf(std::ldexp(3.0f, -25)).bits, 0x0002);
  EXPECT_EQ(blk::toHalf(NAN).bits & 0x7E00, 0x7E00); // a quiet NaN
}

TEST(TypesTest, ToFloatOfHalf) {
  EXPECT_EQ(blk::toFloat(blk::half{0x0001}), std::ldexp(1.0f, -24));
  EXPECT_EQ(blk::toFloat(blk::half{0x3555}), 0.333251953125f);
  EXPECT_EQ(blk::toFloat(blk::half{0xFC00}), -INFINITY);
  EXPECT_TRUE(std::isnan(blk::toFloat(blk::half{0x7E00})));
}

TEST(TypesTest, EveryHalfRoundTrips) {
  for (uint32_t bits = 0; bits <= 0xFFFF; ++bits) {
    blk::half h{uint16_t(bits)};
    bool nan = (bits & 0x7C00) == 0x7C00 && (bits & 0x3FF);
    if (nan)
      EXPECT_TRUE(std::isnan(blk::toFloat(h))) << bits;
    else
      EXPECT_EQ(blk::toHalf(blk::toFloat(h)).bits, bits) << bits;
  }
}

TEST(TypesTest, Bfloat16) {
  EXPECT_EQ(blk::toBfloat16(1.0f).bits, 0x3F80);
  EXPECT_EQ(blk::toBfloat16(1.0f + std::ldexp(1.0f, -8)).bits, 0x3F80);     // tie: even
  EXPECT_EQ(blk::toBfloat16(1.0f + 3 * std::ldexp(1.0f, -8)).bits, 0x3F82); // tie: even
  EXPECT_EQ(blk::toFloat(blk::bfloat16{0xC040}), -3.0f);
  EXPECT_TRUE(std::isnan(blk::toFloat(blk::toBfloat16(NAN))));
}

// The host fp8 conversions round and saturate as `as f8e4m3` does on the GPU
// (cvt.rn.satfinite); the compiler's unit tests cover every code.
TEST(TypesTest, Float8) {
  EXPECT_EQ(blk::toFloat8E4M3(1.0f).bits, 0x38);
  EXPECT_EQ(blk::toFloat8E4M3(1.0625f).bits, 0x38); // tie: even
  EXPECT_EQ(blk::toFloat8E4M3(1000.0f).bits, 0x7E); // saturates to 448
  EXPECT_EQ(blk::toFloat8E4M3(-INFINITY).bits, 0xFE);
  EXPECT_EQ(blk::toFloat(blk::float8_e4m3{0x7E}), 448.0f);
  EXPECT_TRUE(std::isnan(blk::toFloat(blk::toFloat8E4M3(NAN))));
  EXPECT_EQ(blk::toFloat8E5M2(1.0f).bits, 0x3C);
  EXPECT_EQ(blk::toFloat8E5M2(1e6f).bits, 0x7B); // saturates to 57344
  EXPECT_EQ(blk::toFloat(blk::float8_e5m2{0x7C}), INFINITY);
  EXPECT_EQ(blk::toFloat(blk::float8_e5m2{0x01}), std::ldexp(1.0f, -16));
}

} // namespace
