//===- Fp8.cpp - the fp8 formats' rounding and bit patterns ---------------===//
#include "blk/Support/Fp8.h"

#include <algorithm>
#include <cmath>

namespace blk {

namespace {
struct Params {
  int mantBits; ///< stored mantissa bits
  int bias;
  int minExp;   ///< exponent of the smallest normal
};

Params params(Fp8Format f) {
  return f == Fp8Format::E4M3 ? Params{3, 7, -6} : Params{2, 15, -14};
}
} // namespace

double fp8MaxFinite(Fp8Format f) { return f == Fp8Format::E4M3 ? 448.0 : 57344.0; }

double roundToFp8(Fp8Format f, double x) {
  if (std::isnan(x) || x == 0.0)
    return x;
  double max = fp8MaxFinite(f);
  if (std::isinf(x))
    return std::copysign(max, x);
  Params p = params(f);
  int e;
  std::frexp(x, &e); // |x| = m * 2^e, m in [0.5, 1): the leading bit is 2^(e-1)
  int exp = std::max(e - 1, p.minExp);
  // One quantum is the value of the last kept mantissa bit; x / quantum is
  // exact in double and rint() rounds ties to even.
  double quantum = std::ldexp(1.0, exp - p.mantBits);
  double r = std::rint(x / quantum) * quantum;
  return std::fabs(r) > max ? std::copysign(max, x) : r;
}

uint8_t fp8FromDouble(Fp8Format f, double x) {
  if (std::isnan(x))
    return 0x7f;
  double v = roundToFp8(f, x);
  uint8_t sign = std::signbit(v) ? 0x80 : 0;
  v = std::fabs(v);
  if (v == 0.0)
    return sign;
  Params p = params(f);
  int e;
  std::frexp(v, &e);
  int exp = e - 1;
  if (exp < p.minExp) // subnormal: multiples of 2^(minExp - mantBits)
    return sign | uint8_t(std::ldexp(v, p.mantBits - p.minExp));
  unsigned frac = unsigned(std::ldexp(v, p.mantBits - exp)) - (1u << p.mantBits);
  return sign | uint8_t(((exp + p.bias) << p.mantBits) | frac);
}

double fp8ToDouble(Fp8Format f, uint8_t bits) {
  Params p = params(f);
  double sign = (bits & 0x80) ? -1.0 : 1.0;
  int expBits = 7 - p.mantBits;
  int exp = (bits >> p.mantBits) & ((1 << expBits) - 1);
  int frac = bits & ((1 << p.mantBits) - 1);
  int allOnes = (1 << expBits) - 1;
  if (f == Fp8Format::E4M3 && exp == allOnes && frac == (1 << p.mantBits) - 1)
    return NAN; // E4M3 keeps the rest of its top binade for finite values
  if (f == Fp8Format::E5M2 && exp == allOnes)
    return frac ? NAN : sign * INFINITY;
  if (exp == 0)
    return sign * std::ldexp(double(frac), p.minExp - p.mantBits);
  return sign * std::ldexp(double(frac + (1 << p.mantBits)), exp - p.bias - p.mantBits);
}

} // namespace blk
