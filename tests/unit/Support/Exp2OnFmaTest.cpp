//===- Exp2OnFmaTest.cpp - the exp2_on_fma polynomial ---------------------===//
// The arithmetic the back end emits for `exp2_on_fma` (blk/Support/
// Exp2OnFma.h; its PTX: tests/lit/codegen/exp2-on-fma.blk), against exp2
// in double precision.
#include "blk/Support/Exp2OnFma.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using blk::exp2_on_fma::exp2OnFma;

namespace {

TEST(Exp2OnFmaTest, RelativeErrorBelowBoundOverTheRange) {
  double worst = 0, worstAt = 0;
  // Every 1/4096 from -125 to 127, plus the edges of each rounding interval.
  for (int i = -125 * 4096; i <= 127 * 4096; ++i) {
    for (float x : {float(i) / 4096.0f, std::nextafter(float(i) / 4096.0f + 0.5f, -200.0f)}) {
      if (x < -125.0f || x > 127.0f)
        continue;
      double want = std::exp2(double(x));
      double err = std::fabs(double(exp2OnFma(x)) - want) / want;
      if (err > worst)
        worst = err, worstAt = x;
    }
  }
  EXPECT_LE(worst, 1.02e-4) << "at x = " << worstAt;
}

// Online softmax rescales its running sum by exp2(m_old - m_new) = exp2(0)
// on every block where the row maximum holds: any error there compounds
// over the blocks (the GPU's log-sum-exp was 3.7e-3 off after 64 blocks
// when exp2(0) was 0.99992). Integers, 0 among them, are exact.
TEST(Exp2OnFmaTest, ExactAtIntegersSoRescalesDoNotDrift) {
  EXPECT_EQ(exp2OnFma(0.0f), 1.0f);
  EXPECT_EQ(exp2OnFma(-0.0f), 1.0f);
  for (int j = -126; j <= 127; ++j)
    EXPECT_EQ(exp2OnFma(float(j)), std::ldexp(1.0f, j)) << "at " << j;
  float sum = 1.0f;
  for (int block = 0; block < 4096; ++block)
    sum = sum * exp2OnFma(0.0f);
  EXPECT_EQ(sum, 1.0f);
}

TEST(Exp2OnFmaTest, SoftmaxValues) {
  EXPECT_EQ(exp2OnFma(0.0f), 1.0f);
  EXPECT_EQ(exp2OnFma(-1.0f), 0.5f);
  EXPECT_NEAR(exp2OnFma(-20.5f), std::exp2(-20.5f), 1.02e-4f * std::exp2(-20.5f));
  EXPECT_GT(exp2OnFma(-126.0f), 0.0f);
}

TEST(Exp2OnFmaTest, EdgesAsDocumented) {
  const float inf = std::numeric_limits<float>::infinity();
  EXPECT_EQ(exp2OnFma(-inf), 0.0f);        // masked scores: p = 0
  EXPECT_EQ(exp2OnFma(-126.5f), 0.0f);     // flushed, as ex2.approx.ftz
  EXPECT_FALSE(std::signbit(exp2OnFma(-1000.0f)));
  EXPECT_TRUE(std::isnan(exp2OnFma(std::nanf(""))));
  EXPECT_TRUE(std::isfinite(exp2OnFma(inf))); // clamped at 127: no overflow
  EXPECT_NEAR(exp2OnFma(inf), std::exp2(127.0f), 1e-4 * std::exp2(127.0));
}

} // namespace
