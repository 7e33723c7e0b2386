//===- Types.cpp - blk type spellings and 16-bit float conversions --------===//
#include "blk/runtime/Types.h"

#include "blk/Support/Fp8.h" // compiled into blkrt too: one fp8 rounding for all

#include <cmath>
#include <cstring>

namespace blk {

namespace {
struct KindInfo {
  const char *name;
  unsigned size;
};
constexpr KindInfo kKinds[] = {{"i1", 1},  {"i8", 1},  {"i16", 2},  {"i32", 4},
                               {"i64", 8}, {"u8", 1},  {"u16", 2},  {"u32", 4},
                               {"u64", 8}, {"f16", 2}, {"bf16", 2}, {"f32", 4},
                               {"f64", 8}, {"f8e4m3", 1}, {"f8e5m2", 1}};
} // namespace

const char *scalarKindName(ScalarKind kind) {
  return kKinds[static_cast<unsigned>(kind)].name;
}

unsigned scalarKindSize(ScalarKind kind) {
  return kKinds[static_cast<unsigned>(kind)].size;
}

bool isIntegerKind(ScalarKind kind) { return kind <= ScalarKind::U64; }

bool isSignedKind(ScalarKind kind) {
  return kind >= ScalarKind::I8 && kind <= ScalarKind::I64;
}

bool isFloatKind(ScalarKind kind) { return kind >= ScalarKind::F16; }

std::optional<ParamType> parseParamType(std::string_view spelling) {
  ParamType type;
  if (!spelling.empty() && spelling.front() == '*') {
    type.pointer = true;
    spelling.remove_prefix(1);
  }
  if (spelling == "bool") {
    type.elem = ScalarKind::I1;
    return type;
  }
  for (unsigned i = 0; i < sizeof(kKinds) / sizeof(kKinds[0]); ++i) {
    if (spelling == kKinds[i].name) {
      type.elem = static_cast<ScalarKind>(i);
      return type;
    }
  }
  return std::nullopt;
}

std::string formatParamType(ParamType type) {
  return (type.pointer ? "*" : "") + std::string(scalarKindName(type.elem));
}

static uint32_t bitsOf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  return x;
}

static float floatOf(uint32_t x) {
  float f;
  std::memcpy(&f, &x, 4);
  return f;
}

half toHalf(float value) {
  uint32_t x = bitsOf(value);
  uint32_t sign = (x >> 16) & 0x8000u;
  float a = std::fabs(value);
  if (std::isnan(value))
    return half{uint16_t(sign | 0x7E00u)};
  if (a >= 65520.0f) // rounds to beyond the largest half, 65504
    return half{uint16_t(sign | 0x7C00u)};
  if (a < 6.103515625e-05f) // subnormal: multiples of 2^-24, nearbyint rounds to even
    return half{uint16_t(sign | uint32_t(std::nearbyint(a * 16777216.0f)))};
  uint32_t mant = x & 0x7FFFFFu, exp = ((x >> 23) & 0xFFu) - 127 + 15;
  uint32_t h = (exp << 10) | (mant >> 13), rest = mant & 0x1FFFu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u)))
    ++h; // a carry into the exponent is the correctly rounded result
  return half{uint16_t(sign | h)};
}

float toFloat(half value) {
  uint32_t sign = uint32_t(value.bits & 0x8000u) << 16;
  uint32_t exp = (value.bits >> 10) & 0x1Fu, mant = value.bits & 0x3FFu;
  if (exp == 0)
    return (sign ? -1.0f : 1.0f) * float(mant) * (1.0f / 16777216.0f);
  if (exp == 31)
    return floatOf(sign | 0x7F800000u | (mant << 13));
  return floatOf(sign | ((exp - 15 + 127) << 23) | (mant << 13));
}

bfloat16 toBfloat16(float value) {
  uint32_t x = bitsOf(value);
  if (std::isnan(value))
    return bfloat16{uint16_t((x >> 16) | 0x40u)};
  x += 0x7FFFu + ((x >> 16) & 1u);
  return bfloat16{uint16_t(x >> 16)};
}

float toFloat(bfloat16 value) { return floatOf(uint32_t(value.bits) << 16); }

float8_e4m3 toFloat8E4M3(float value) {
  return float8_e4m3{fp8FromDouble(Fp8Format::E4M3, value)};
}

float8_e5m2 toFloat8E5M2(float value) {
  return float8_e5m2{fp8FromDouble(Fp8Format::E5M2, value)};
}

float toFloat(float8_e4m3 value) { return float(fp8ToDouble(Fp8Format::E4M3, value.bits)); }

float toFloat(float8_e5m2 value) { return float(fp8ToDouble(Fp8Format::E5M2, value.bits)); }

} // namespace blk
