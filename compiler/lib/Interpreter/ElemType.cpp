//===- ElemType.cpp - element kinds and f16/bf16 rounding ------------------===//
#include "blk/Interpreter/ElemType.h"

#include "blk/Support/Fp8.h"

#include <cmath>
#include <cstring>

namespace blk::interp {

std::string_view kindName(ElemKind k) {
  static constexpr std::string_view kNames[] = {"i1",  "i8",  "i16", "i32", "i64",
                                                "f16", "bf16", "f32", "f64", "ptr",
                                                "f8e4m3", "f8e5m2"};
  return kNames[unsigned(k)];
}

std::optional<DataType> parseDataType(std::string_view s) {
  struct Entry { std::string_view name; DataType type; };
  static constexpr Entry kTable[] = {
      {"i1", {ElemKind::I1, false}},    {"bool", {ElemKind::I1, false}},
      {"i8", {ElemKind::I8, false}},    {"i16", {ElemKind::I16, false}},
      {"i32", {ElemKind::I32, false}},  {"i64", {ElemKind::I64, false}},
      {"u8", {ElemKind::I8, true}},     {"u16", {ElemKind::I16, true}},
      {"u32", {ElemKind::I32, true}},   {"u64", {ElemKind::I64, true}},
      {"f16", {ElemKind::F16, false}},  {"bf16", {ElemKind::BF16, false}},
      {"f32", {ElemKind::F32, false}},  {"f64", {ElemKind::F64, false}},
      {"f8e4m3", {ElemKind::F8E4M3, false}}, {"f8e5m2", {ElemKind::F8E5M2, false}}};
  for (const Entry &e : kTable)
    if (e.name == s)
      return e.type;
  return std::nullopt;
}

std::string dataTypeName(DataType t) {
  std::string name(kindName(t.kind));
  if (t.isUnsigned && t.kind != ElemKind::I1)
    name[0] = 'u';
  return name;
}

/// Rounds to a binary format with `mantBits` fraction bits, minimum normal
/// exponent `minExp` and largest finite value `maxFinite`. Scaling by powers
/// of two is exact in double, and rint() rounds ties to even in the default
/// rounding mode, so this is one correct rounding from the double.
static double roundToFormat(double x, int mantBits, int minExp, double maxFinite) {
  if (x == 0.0 || !std::isfinite(x))
    return x;
  int e;
  std::frexp(x, &e); // |x| = m * 2^e, m in [0.5, 1): leading bit is 2^(e-1)
  int exp = std::max(e - 1, minExp);
  double quantum = std::ldexp(1.0, exp - mantBits);
  double r = std::rint(x / quantum) * quantum;
  if (std::fabs(r) > maxFinite)
    return std::copysign(INFINITY, x);
  return r;
}

double roundToF16(double x) { return roundToFormat(x, 10, -14, 65504.0); }

double roundToBF16(double x) {
  return roundToFormat(x, 7, -126, std::ldexp(255.0, 120)); // (2-2^-7)*2^127
}

double roundFloat(ElemKind k, double x) {
  switch (k) {
  case ElemKind::F32: return double(float(x));
  case ElemKind::F16: return roundToF16(x);
  case ElemKind::BF16: return roundToBF16(x);
  case ElemKind::F8E4M3: return roundToFp8(Fp8Format::E4M3, x);
  case ElemKind::F8E5M2: return roundToFp8(Fp8Format::E5M2, x);
  default: return x;
  }
}

uint16_t f16ToBits(double x) {
  double v = roundToF16(x);
  uint16_t sign = std::signbit(v) ? 0x8000 : 0;
  if (std::isnan(v))
    return 0x7e00;
  v = std::fabs(v);
  if (std::isinf(v))
    return sign | 0x7c00;
  if (v == 0.0)
    return sign;
  int e;
  std::frexp(v, &e);
  int exp = e - 1;
  if (exp < -14) // subnormal: multiples of 2^-24
    return sign | uint16_t(std::ldexp(v, 24));
  uint16_t frac = uint16_t(std::ldexp(v, 10 - exp) - 1024.0);
  return sign | uint16_t((exp + 15) << 10) | frac;
}

double f16FromBits(uint16_t bits) {
  double sign = (bits & 0x8000) ? -1.0 : 1.0;
  int exp = (bits >> 10) & 0x1f;
  int frac = bits & 0x3ff;
  if (exp == 0x1f)
    return frac ? NAN : sign * INFINITY;
  if (exp == 0)
    return sign * std::ldexp(double(frac), -24);
  return sign * std::ldexp(double(frac + 1024), exp - 25);
}

uint16_t bf16ToBits(double x) {
  double v = roundToBF16(x);
  if (std::isnan(v))
    return 0x7fc0;
  float f = float(v); // exact: bf16 values are floats
  uint32_t u;
  std::memcpy(&u, &f, 4);
  return uint16_t(u >> 16);
}

double bf16FromBits(uint16_t bits) {
  uint32_t u = uint32_t(bits) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

} // namespace blk::interp
