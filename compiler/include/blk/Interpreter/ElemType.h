//===- ElemType.h - interpreter element kinds and number rounding -*- C++ -*-===//
//
// The element kinds of the `blk` IR as the interpreter stores them, and the
// conversions that keep every stored value exactly representable in its kind:
// floats live in a `double` rounded to the element type after every operation
// (f16/bf16 with round-to-nearest-even implemented here), integers live in an
// `int64_t` sign-extended from their width (i1 true is -1, as APInt's sext).
// Tests: tests/unit/Interpreter/ElemTypeTest.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_INTERPRETER_ELEMTYPE_H
#define BLK_INTERPRETER_ELEMTYPE_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace blk::interp {

/// Element kinds of IR values. Unsigned blk types are the signless integers
/// of the same width; `Ptr` is a `!blk.ptr<T>` (see Memory.h for encoding).
enum class ElemKind : uint8_t { I1, I8, I16, I32, I64, F16, BF16, F32, F64, Ptr, F8E4M3, F8E5M2 };

/// True for f16, bf16, f32, f64 and the fp8 kinds. (Inline: called per
/// element in hot loops.)
inline bool isFloatKind(ElemKind k) {
  return k == ElemKind::F16 || k == ElemKind::BF16 || k == ElemKind::F32 || k == ElemKind::F64 ||
         k == ElemKind::F8E4M3 || k == ElemKind::F8E5M2;
}
/// Bit width (i1 is 1, Ptr is 64).
inline unsigned bitWidth(ElemKind k) {
  constexpr unsigned kWidths[] = {1, 8, 16, 32, 64, 16, 16, 32, 64, 64, 8, 8};
  return kWidths[unsigned(k)];
}
/// Bytes one element takes in a buffer (i1 takes one byte).
inline unsigned byteSize(ElemKind k) { return k == ElemKind::I1 ? 1 : bitWidth(k) / 8; }
/// "i32", "bf16", "ptr".
std::string_view kindName(ElemKind k);

/// A buffer or scalar argument type as the user spells it: the element kind
/// plus whether a blk unsigned type (`u8`..`u64`) was named.
struct DataType {
  ElemKind kind = ElemKind::I32;
  bool isUnsigned = false;
  bool operator==(const DataType &) const = default;
};
/// Parses "i1".."f64", "u8".."u64", "bool", "f8e4m3", "f8e5m2"; nullopt otherwise.
std::optional<DataType> parseDataType(std::string_view s);
/// The blk spelling of `t` ("u32", "f16").
std::string dataTypeName(DataType t);

/// Rounds `x` to the nearest f16 value (ties to even, overflow to inf).
double roundToF16(double x);
/// Rounds `x` to the nearest bf16 value (ties to even, overflow to inf).
double roundToBF16(double x);
/// Rounds `x` to the float kind `k` (f64: unchanged; fp8 saturates, blk/Support/Fp8.h).
double roundFloat(ElemKind k, double x);

/// IEEE binary16 bits of `x` after rounding it to f16.
uint16_t f16ToBits(double x);
/// The value of binary16 bits.
double f16FromBits(uint16_t bits);
/// bfloat16 bits of `x` after rounding it to bf16.
uint16_t bf16ToBits(double x);
/// The value of bfloat16 bits.
double bf16FromBits(uint16_t bits);

/// Wraps `v` to `width` bits and sign-extends (the canonical integer form).
inline int64_t wrapToWidth(unsigned width, int64_t v) {
  if (width >= 64)
    return v;
  unsigned sh = 64 - width;
  return int64_t(uint64_t(v) << sh) >> sh;
}
/// The unsigned view of a canonical integer of `width` bits.
inline uint64_t unsignedView(unsigned width, int64_t v) {
  if (width >= 64)
    return uint64_t(v);
  return uint64_t(v) & ((uint64_t(1) << width) - 1);
}

} // namespace blk::interp

#endif // BLK_INTERPRETER_ELEMTYPE_H
