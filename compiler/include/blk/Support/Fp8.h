//===- Fp8.h - the fp8 formats' rounding and bit patterns -------*- C++ -*-===//
//
// f8e4m3 (OCP E4M3: bias 7, no infinities, one NaN per sign, largest 448)
// and f8e5m2 (OCP E5M2: bias 15, IEEE-like, largest 57344). Conversions to
// fp8 round to nearest even and saturate, as PTX `cvt.rn.satfinite` does: a
// value beyond the largest finite one, infinity included, becomes the
// largest finite value of its sign; NaN stays NaN. One definition for the
// constant folder (IRGen) and the interpreter, so both agree with the GPU.
// Tests: tests/unit/Support/Fp8Test.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_SUPPORT_FP8_H
#define BLK_SUPPORT_FP8_H

#include <cstdint>

namespace blk {

enum class Fp8Format : uint8_t { E4M3, E5M2 };

/// The fp8 bits of `x` rounded to nearest even with saturation (NaN: 0x7f).
uint8_t fp8FromDouble(Fp8Format format, double x);
/// The value of fp8 bits (exact in double).
double fp8ToDouble(Fp8Format format, uint8_t bits);
/// `x` rounded to the format, as a double.
double roundToFp8(Fp8Format format, double x);
/// The largest finite value: 448 (E4M3), 57344 (E5M2).
double fp8MaxFinite(Fp8Format format);

} // namespace blk

#endif // BLK_SUPPORT_FP8_H
