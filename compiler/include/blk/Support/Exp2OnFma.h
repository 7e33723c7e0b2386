//===- Exp2OnFma.h - 2^x by a polynomial on the FMA units -------*- C++ -*-===//
//
// What `@config(…, exp2_on_fma = N)` computes for one f32 exp2 in N
// (docs/language.md §10.4): x = j + f with j = round(x), taken from the low
// bits of x + 1.5 * 2^23 (no F2I or FRND, which share the MUFU pipe with
// ex2), 2^f for f in [-0.5, 0.5] by a cubic fitted for relative error, and
// j added to the result's exponent field. Relative error at most 1.02e-4
// for x in [-126, 127] (ex2.approx's: 2^-22), none at integers; 0 below
// -126 (ex2.approx.ftz flushes there too); 2^127 * 2^f above 127 (not
// +inf); NaN stays NaN.
// The GPU back end (EmitArith.cpp) emits these steps with these constants;
// exp2OnFma is the same arithmetic on the host, for the tests
// (tests/unit/Support/Exp2OnFmaTest.cpp) and the accuracy bound above.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_SUPPORT_EXP2ONFMA_H
#define BLK_SUPPORT_EXP2ONFMA_H

#include <cmath>
#include <cstdint>
#include <cstring>

namespace blk {

/// The func attribute (an i32, only when the config sets it) of
/// `exp2_on_fma = N`: one f32 exp2 in N per thread on the FMA units.
constexpr const char *kExp2OnFmaAttr = "blk.exp2_on_fma";

} // namespace blk

namespace blk::exp2_on_fma {

/// x + kRoundMagic has round(x) in its low mantissa bits (|x| < 2^22).
inline constexpr float kRoundMagic = 12582912.0f; // 1.5 * 2^23
/// The input range the exponent arithmetic holds for.
inline constexpr float kLowest = -126.0f, kHighest = 127.0f;
/// 2^f ≈ ((c3 f + c2) f + c1) f + 1 on [-0.5, 0.5], fitted for relative
/// error with the constant term held at 1: 2^0 is exactly 1, and so 2^j
/// for every integer j in range. Online softmax multiplies its running sum
/// by exp2(m_old - m_new), which is exp2(0) whenever the row maximum holds:
/// the unconstrained fit (constant 0.99992) shrank that sum by 8e-5 a
/// block, 3.7e-3 in the log-sum-exp after 64 blocks (H100, session 23).
inline constexpr float kC3 = 0.055009014904499054f, kC2 = 0.2422109991312027f,
                       kC1 = 0.6932829022407532f, kC0 = 1.0f;

inline uint32_t bitsOf(float v) {
  uint32_t u;
  std::memcpy(&u, &v, sizeof u);
  return u;
}

inline float floatOf(uint32_t u) {
  float v;
  std::memcpy(&v, &u, sizeof v);
  return v;
}

/// The back end's result, step for step (float arithmetic, fused fma).
inline float exp2OnFma(float x) {
  if (std::isnan(x))
    return x;
  if (x < kLowest)
    return 0.0f;
  float xc = std::fmin(std::fmax(x, kLowest), kHighest);
  volatile float t = xc + kRoundMagic; // volatile: no folding back to xc
  float frac = xc - (t - kRoundMagic);
  float p = std::fma(std::fma(std::fma(kC3, frac, kC2), frac, kC1), frac, kC0);
  // The low 9 bits of t's bits are round(xc) + 2^22's: shifted by 23 they
  // are round(xc) in the exponent field (0x4B400000 << 23 vanishes).
  return floatOf(bitsOf(p) + (bitsOf(t) << 23));
}

} // namespace blk::exp2_on_fma

#endif // BLK_SUPPORT_EXP2ONFMA_H
