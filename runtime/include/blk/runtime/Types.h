//===- Types.h - blk parameter types and host argument traits ---*- C++ -*-===//
//
// The blk spellings of kernel parameter types (`i32`, `*f32`...), the host
// types that map onto them, and ArgValue, the type-erased form in which a
// checked launch receives its arguments. Public header: C++17, no CUDA.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace blk {

/// The scalar element types of blk.
enum class ScalarKind : uint8_t {
  I1,
  I8,
  I16,
  I32,
  I64,
  U8,
  U16,
  U32,
  U64,
  F16,
  BF16,
  F32,
  F64,
  F8E4M3, ///< fp8 (OCP E4M3): a buffer element type; blk::float8_e4m3
  F8E5M2  ///< fp8 (OCP E5M2): a buffer element type; blk::float8_e5m2
};

/// A runtime parameter's type: a scalar, or a pointer to one (`*f32`).
struct ParamType {
  ScalarKind elem = ScalarKind::I32;
  bool pointer = false;
  bool operator==(const ParamType &o) const {
    return elem == o.elem && pointer == o.pointer;
  }
  bool operator!=(const ParamType &o) const { return !(*this == o); }
};

/// "i32", "f16"...
const char *scalarKindName(ScalarKind kind);
/// Size in bytes as passed to a kernel (i1 is one byte).
unsigned scalarKindSize(ScalarKind kind);
bool isIntegerKind(ScalarKind kind); ///< i1..u64
bool isSignedKind(ScalarKind kind);  ///< i8..i64 (not i1)
bool isFloatKind(ScalarKind kind);   ///< f16, bf16, f32, f64, f8e4m3, f8e5m2
/// Parses a blk type spelling ("i32", "*f32", "bool"); nullopt if unknown.
std::optional<ParamType> parseParamType(std::string_view spelling);
/// The blk spelling of a type: "*f32".
std::string formatParamType(ParamType type);

/// IEEE half-precision value, passed bit-exact to `f16` parameters.
struct half {
  uint16_t bits = 0;
};
/// bfloat16 value, passed bit-exact to `bf16` parameters.
struct bfloat16 {
  uint16_t bits = 0;
};

/// fp8 values (the elements of `*f8e4m3` / `*f8e5m2` buffers), bit-exact.
struct float8_e4m3 {
  uint8_t bits = 0;
};
struct float8_e5m2 {
  uint8_t bits = 0;
};

/// Host conversions for filling and checking 16-bit buffers: round to
/// nearest even (subnormals included), overflow to infinity, NaN stays NaN.
half toHalf(float value);
float toFloat(half value);
bfloat16 toBfloat16(float value);
float toFloat(bfloat16 value);
/// Host conversions for fp8 buffers, as blk's `as f8e4m3` / `as f8e5m2`
/// convert: round to nearest even and saturate (infinity included) to the
/// largest finite value, 448 or 57344; NaN stays NaN (docs/language.md §10.9).
float8_e4m3 toFloat8E4M3(float value);
float8_e5m2 toFloat8E5M2(float value);
float toFloat(float8_e4m3 value);
float toFloat(float8_e5m2 value);

/// One host argument of a checked launch, type-erased: its bits (a pointer's
/// address or a scalar's value, little-endian in the low bytes), what it is,
/// and the host type's name for messages. The checker rewrites `bits` into the
/// parameter's own representation, so `&bits` can be handed to the driver.
struct ArgValue {
  uint64_t bits = 0;
  /// A pointer's extent in bytes when the host type knows it (a
  /// DeviceBuffer), else 0: what the autotuner snapshots of it.
  uint64_t extent = 0;
  ParamType type;
  bool anyPointee = false;          ///< a `void*`-like pointer: any `*T`
  const char *hostType = "unknown"; ///< e.g. "DeviceBuffer<float>"
};

/// Maps a host type to its blk scalar kind (only for supported types).
template <class T, class = void> struct ScalarKindOf;
#define BLK_SCALAR_KIND(T, K)                                                  \
  template <> struct ScalarKindOf<T> {                                         \
    static constexpr ScalarKind value = ScalarKind::K;                         \
    static constexpr const char *name = #T;                                    \
  };
BLK_SCALAR_KIND(bool, I1)
BLK_SCALAR_KIND(int8_t, I8)
BLK_SCALAR_KIND(int16_t, I16)
BLK_SCALAR_KIND(int32_t, I32)
BLK_SCALAR_KIND(int64_t, I64)
BLK_SCALAR_KIND(uint8_t, U8)
BLK_SCALAR_KIND(uint16_t, U16)
BLK_SCALAR_KIND(uint32_t, U32)
BLK_SCALAR_KIND(uint64_t, U64)
BLK_SCALAR_KIND(blk::half, F16)
BLK_SCALAR_KIND(blk::bfloat16, BF16)
BLK_SCALAR_KIND(float, F32)
BLK_SCALAR_KIND(double, F64)
BLK_SCALAR_KIND(blk::float8_e4m3, F8E4M3)
BLK_SCALAR_KIND(blk::float8_e5m2, F8E5M2)
#undef BLK_SCALAR_KIND
// `long long` / `unsigned long long` are distinct from int64_t on LP64 Linux.
template <class T>
struct ScalarKindOf<
    T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool> &&
                        sizeof(T) == 8 && !std::is_same_v<T, int64_t> &&
                        !std::is_same_v<T, uint64_t>>> {
  static constexpr ScalarKind value =
      std::is_signed_v<T> ? ScalarKind::I64 : ScalarKind::U64;
  static constexpr const char *name =
      std::is_signed_v<T> ? "long long" : "unsigned long long";
};
template <> struct ScalarKindOf<char> {
  static constexpr ScalarKind value =
      std::is_signed_v<char> ? ScalarKind::I8 : ScalarKind::U8;
  static constexpr const char *name = "char";
};

/// How a host argument type becomes an ArgValue. Specialised for scalars,
/// raw pointers, DevicePtr<T> and DeviceBuffer<T>.
template <class T, class = void> struct ArgTraits {
  static_assert(sizeof(T) == 0,
                "blk: unsupported kernel argument type (use a scalar, "
                "T*, blk::DevicePtr<T> or blk::DeviceBuffer<T>)");
};

template <class T>
struct ArgTraits<T, std::void_t<decltype(ScalarKindOf<T>::value)>> {
  static ArgValue make(const T &v) {
    ArgValue a;
    std::memcpy(&a.bits, &v, sizeof(T));
    a.type = ParamType{ScalarKindOf<T>::value, false};
    a.hostType = ScalarKindOf<T>::name;
    return a;
  }
};

namespace detail {
/// Fills an ArgValue for a device address whose pointee is E (maybe const).
template <class E>
ArgValue makePointerArg(uint64_t address, const char *hostType) {
  using Elem = std::remove_cv_t<E>;
  ArgValue a;
  a.bits = address;
  a.hostType = hostType;
  if constexpr (std::is_void_v<Elem>) {
    a.anyPointee = true;
    a.type = ParamType{ScalarKind::U8, true};
  } else {
    a.type = ParamType{ScalarKindOf<Elem>::value, true};
  }
  return a;
}
template <class E> constexpr const char *rawPointerName() {
  using Elem = std::remove_cv_t<E>;
  if constexpr (std::is_void_v<Elem>)
    return "void*";
  else if constexpr (std::is_same_v<Elem, float>)
    return "float*";
  else if constexpr (std::is_same_v<Elem, double>)
    return "double*";
  else if constexpr (std::is_same_v<Elem, int32_t>)
    return "int32_t*";
  else if constexpr (std::is_same_v<Elem, int64_t>)
    return "int64_t*";
  else
    return "T*";
}
} // namespace detail

/// A raw device pointer (e.g. from cuMemAlloc or another library).
template <class E> struct ArgTraits<E *, void> {
  static ArgValue make(E *p) {
    return detail::makePointerArg<E>(reinterpret_cast<uintptr_t>(p),
                                     detail::rawPointerName<E>());
  }
};

} // namespace blk
