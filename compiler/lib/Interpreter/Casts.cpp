//===- Casts.cpp - arith conversions on whole blocks -----------------------===//
//
// Float to integer conversions saturate and map NaN to 0, as PTX's cvt.rzi
// does, so the interpreter agrees with the GPU where LLVM leaves it poison.
// Integer to float conversions round once, to nearest even, as cvt.rn does
// (tests/lit/interp/int-to-float-rounding.blk).
//
//===----------------------------------------------------------------------===//
#include "blk/Interpreter/BlockOps.h"
#include "blk/Support/Fp8.h"

#include <bit>
#include <cmath>
#include <cstring>

namespace blk::interp {

static int64_t fpToSigned(double x, unsigned w) {
  if (std::isnan(x))
    return 0;
  double hi = std::ldexp(1.0, int(w) - 1); // 2^(w-1)
  if (x >= hi)
    return w >= 64 ? INT64_MAX : int64_t(hi) - 1;
  if (x <= -hi)
    return w >= 64 ? INT64_MIN : -int64_t(hi);
  return int64_t(std::trunc(x));
}

static int64_t fpToUnsigned(double x, unsigned w) {
  if (std::isnan(x) || x <= 0)
    return 0;
  double hi = std::ldexp(1.0, int(w)); // 2^w
  if (x >= hi)
    return wrapToWidth(w, -1);
  return wrapToWidth(w, int64_t(uint64_t(std::trunc(x))));
}

/// The integer sign * magnitude in a double rounded to odd (a dropped bit
/// sets the last kept one): rounding that again to f32, f16 or bf16 (at
/// most 24 bits, two fewer than 53) gives the one correctly rounded value,
/// where rounding to nearest twice could land on a tie and go the wrong way.
static double roundedToOdd(uint64_t magnitude, bool negative) {
  int bits = 64 - std::countl_zero(magnitude);
  double d = double(magnitude);
  if (bits > 53) {
    int drop = bits - 53;
    uint64_t kept = magnitude >> drop;
    if (magnitude & ((uint64_t(1) << drop) - 1))
      kept |= 1;
    d = std::ldexp(double(kept), drop); // exact: kept < 2^53
  }
  return negative ? -d : d;
}

static double intToFloat(ElemKind to, int64_t v, bool isUnsigned) {
  bool negative = !isUnsigned && v < 0;
  uint64_t magnitude = negative ? uint64_t(0) - uint64_t(v) : uint64_t(v);
  if (to == ElemKind::F64)
    return negative ? -double(magnitude) : double(magnitude);
  return roundFloat(to, roundedToOdd(magnitude, negative));
}

/// Bits of a float element of kind `k` as a canonical integer.
static int64_t floatBits(ElemKind k, double x) {
  switch (k) {
  case ElemKind::F16: return wrapToWidth(16, f16ToBits(x));
  case ElemKind::BF16: return wrapToWidth(16, bf16ToBits(x));
  case ElemKind::F8E4M3: return wrapToWidth(8, fp8FromDouble(Fp8Format::E4M3, x));
  case ElemKind::F8E5M2: return wrapToWidth(8, fp8FromDouble(Fp8Format::E5M2, x));
  case ElemKind::F32: {
    float f = float(x);
    int32_t u;
    std::memcpy(&u, &f, 4);
    return u;
  }
  default: {
    int64_t u;
    std::memcpy(&u, &x, 8);
    return u;
  }
  }
}

static double fromBits(ElemKind k, int64_t v) {
  switch (k) {
  case ElemKind::F16: return f16FromBits(uint16_t(v));
  case ElemKind::BF16: return bf16FromBits(uint16_t(v));
  case ElemKind::F8E4M3: return fp8ToDouble(Fp8Format::E4M3, uint8_t(v));
  case ElemKind::F8E5M2: return fp8ToDouble(Fp8Format::E5M2, uint8_t(v));
  case ElemKind::F32: {
    uint32_t u = uint32_t(v);
    float f;
    std::memcpy(&f, &u, 4);
    return f;
  }
  default: {
    double d;
    std::memcpy(&d, &v, 8);
    return d;
  }
  }
}

Block cast(CastOp op, const Block &a, ElemKind to) {
  Block r;
  r.kind = to;
  r.shape = a.shape;
  unsigned wFrom = bitWidth(a.kind), wTo = bitWidth(to);
  size_t n = a.size();
  if (isFloatKind(to))
    r.f.resize(n);
  else
    r.i.resize(n);
  for (size_t k = 0; k < n; ++k) {
    switch (op) {
    case CastOp::SIToFP: r.f[k] = intToFloat(to, a.i[k], false); break;
    case CastOp::UIToFP: r.f[k] = intToFloat(to, int64_t(unsignedView(wFrom, a.i[k])), true); break;
    case CastOp::FPToSI: r.i[k] = fpToSigned(a.f[k], wTo); break;
    case CastOp::FPToUI: r.i[k] = fpToUnsigned(a.f[k], wTo); break;
    case CastOp::ExtF:
    case CastOp::TruncF: r.f[k] = roundFloat(to, a.f[k]); break;
    case CastOp::ExtSI:
    case CastOp::TruncI:
    case CastOp::IndexCast: r.i[k] = wrapToWidth(wTo, a.i[k]); break;
    case CastOp::ExtUI: r.i[k] = wrapToWidth(wTo, int64_t(unsignedView(wFrom, a.i[k]))); break;
    case CastOp::Bitcast:
      if (a.isFloat() && !r.isFloat())
        r.i[k] = wrapToWidth(wTo, floatBits(a.kind, a.f[k]));
      else if (!a.isFloat() && r.isFloat())
        r.f[k] = fromBits(to, a.i[k]);
      else if (r.isFloat())
        r.f[k] = a.f[k];
      else
        r.i[k] = a.i[k];
      break;
    }
  }
  return r;
}

} // namespace blk::interp
