//===- Fp8Test.cpp - fp8 rounding and bit patterns ------------------------===//
#include "blk/Support/Fp8.h"

#include <gtest/gtest.h>

#include <cmath>

using blk::Fp8Format;

namespace {

TEST(Fp8Test, EveryFiniteCodeRoundTrips) {
  for (Fp8Format f : {Fp8Format::E4M3, Fp8Format::E5M2})
    for (unsigned b = 0; b < 256; ++b) {
      double v = blk::fp8ToDouble(f, uint8_t(b));
      if (!std::isfinite(v))
        continue;
      EXPECT_EQ(blk::fp8FromDouble(f, v), uint8_t(b)) << "code " << b;
    }
}

TEST(Fp8Test, KnownValues) {
  EXPECT_EQ(blk::fp8ToDouble(Fp8Format::E4M3, 0x7e), 448.0);
  EXPECT_EQ(blk::fp8ToDouble(Fp8Format::E4M3, 0x38), 1.0);
  EXPECT_EQ(blk::fp8ToDouble(Fp8Format::E4M3, 0x01), std::ldexp(1.0, -9));
  EXPECT_TRUE(std::isnan(blk::fp8ToDouble(Fp8Format::E4M3, 0x7f)));
  EXPECT_TRUE(std::isnan(blk::fp8ToDouble(Fp8Format::E4M3, 0xff)));
  EXPECT_EQ(blk::fp8ToDouble(Fp8Format::E4M3, 0x78), 256.0); // exp 15 is finite
  EXPECT_EQ(blk::fp8ToDouble(Fp8Format::E5M2, 0x7b), 57344.0);
  EXPECT_EQ(blk::fp8ToDouble(Fp8Format::E5M2, 0x3c), 1.0);
  EXPECT_EQ(blk::fp8ToDouble(Fp8Format::E5M2, 0x7c), INFINITY);
  EXPECT_EQ(blk::fp8ToDouble(Fp8Format::E5M2, 0xfc), -INFINITY);
  EXPECT_TRUE(std::isnan(blk::fp8ToDouble(Fp8Format::E5M2, 0x7d)));
  EXPECT_EQ(blk::fp8ToDouble(Fp8Format::E5M2, 0x01), std::ldexp(1.0, -16));
}

TEST(Fp8Test, RoundsToNearestEven) {
  // E4M3 around 1: quantum 1/8. 1 + 1/16 is a tie: to even (1.0); 1 + 3/16
  // ties to 1.25 (mantissa 010 is even).
  EXPECT_EQ(blk::roundToFp8(Fp8Format::E4M3, 1.0625), 1.0);
  EXPECT_EQ(blk::roundToFp8(Fp8Format::E4M3, 1.1875), 1.25);
  EXPECT_EQ(blk::roundToFp8(Fp8Format::E4M3, 1.0626), 1.125);
  // Subnormals: quantum 2^-9; half of it ties to 0, 1.5 quanta to 2.
  EXPECT_EQ(blk::roundToFp8(Fp8Format::E4M3, std::ldexp(1.0, -10)), 0.0);
  EXPECT_EQ(blk::roundToFp8(Fp8Format::E4M3, std::ldexp(3.0, -10)), std::ldexp(1.0, -8));
  // E5M2 around 1: quantum 1/4.
  EXPECT_EQ(blk::roundToFp8(Fp8Format::E5M2, 1.125), 1.0);
  EXPECT_EQ(blk::roundToFp8(Fp8Format::E5M2, 1.375), 1.5);
  // A carry into the next binade.
  EXPECT_EQ(blk::roundToFp8(Fp8Format::E4M3, 1.97), 2.0);
  EXPECT_EQ(blk::fp8FromDouble(Fp8Format::E4M3, 1.97), 0x40);
  // Negative values keep their sign, -0 included.
  EXPECT_EQ(blk::fp8FromDouble(Fp8Format::E4M3, -1.0), 0xb8);
  EXPECT_EQ(blk::fp8FromDouble(Fp8Format::E4M3, -0.0), 0x80);
}

TEST(Fp8Test, SaturatesAsSatfiniteDoes) {
  EXPECT_EQ(blk::roundToFp8(Fp8Format::E4M3, 464.0), 448.0); // would round up to 480
  EXPECT_EQ(blk::roundToFp8(Fp8Format::E4M3, 1e30), 448.0);
  EXPECT_EQ(blk::roundToFp8(Fp8Format::E4M3, -INFINITY), -448.0);
  EXPECT_EQ(blk::fp8FromDouble(Fp8Format::E4M3, INFINITY), 0x7e);
  EXPECT_EQ(blk::roundToFp8(Fp8Format::E5M2, 70000.0), 57344.0);
  EXPECT_EQ(blk::fp8FromDouble(Fp8Format::E5M2, -INFINITY), 0xfb);
  EXPECT_EQ(blk::fp8FromDouble(Fp8Format::E4M3, NAN), 0x7f);
  EXPECT_TRUE(std::isnan(blk::roundToFp8(Fp8Format::E5M2, NAN)));
}

} // namespace
