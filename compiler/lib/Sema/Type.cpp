//===- Type.cpp - blk value types, broadcasting and promotion -------------===//
#include "blk/Sema/Type.h"

#include <algorithm>

namespace blk::sema {

bool isFloat(ScalarKind k) {
  return k == ScalarKind::F16 || k == ScalarKind::BF16 ||
         k == ScalarKind::F32 || k == ScalarKind::F64 || isFp8(k);
}

bool isFp8(ScalarKind k) { return k == ScalarKind::F8E4M3 || k == ScalarKind::F8E5M2; }

bool isInteger(ScalarKind k) { return !isFloat(k); }

bool isUnsigned(ScalarKind k) {
  return k == ScalarKind::U8 || k == ScalarKind::U16 || k == ScalarKind::U32 ||
         k == ScalarKind::U64;
}

unsigned bitWidth(ScalarKind k) {
  switch (k) {
  case ScalarKind::I1: return 1;
  case ScalarKind::I8: case ScalarKind::U8: case ScalarKind::F8E4M3:
  case ScalarKind::F8E5M2: return 8;
  case ScalarKind::I16: case ScalarKind::U16: case ScalarKind::F16:
  case ScalarKind::BF16: return 16;
  case ScalarKind::I32: case ScalarKind::U32: case ScalarKind::F32: return 32;
  case ScalarKind::I64: case ScalarKind::U64: case ScalarKind::F64: return 64;
  }
  return 32;
}

unsigned byteSize(ScalarKind k) { return std::max(1u, bitWidth(k) / 8); }

static constexpr std::string_view kSpellings[] = {
    "i1", "i8", "i16", "i32", "i64", "u8", "u16",
    "u32", "u64", "f16", "bf16", "f32", "f64", "f8e4m3", "f8e5m2"};

std::string_view spelling(ScalarKind k) { return kSpellings[unsigned(k)]; }

std::optional<ScalarKind> parseScalarKind(std::string_view s) {
  if (s == "bool")
    return ScalarKind::I1;
  for (unsigned i = 0; i < std::size(kSpellings); ++i)
    if (kSpellings[i] == s)
      return ScalarKind(i);
  return std::nullopt;
}

std::string formatShape(const Shape &shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i)
      out += ", ";
    out += std::to_string(shape[i]);
  }
  return out + "]";
}

bool isPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

int64_t numElements(const Shape &shape) {
  int64_t n = 1;
  for (int64_t d : shape) {
    // Saturate instead of overflowing: callers only compare with the limit.
    if (d > 0 && n > (int64_t(1) << 62) / d)
      return int64_t(1) << 62;
    n *= d;
  }
  return n;
}

std::optional<Shape> broadcastShapes(const Shape &a, const Shape &b) {
  size_t rank = std::max(a.size(), b.size());
  Shape out(rank);
  for (size_t i = 0; i < rank; ++i) {
    // Align from the right: missing leading dimensions count as 1.
    int64_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    int64_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      return std::nullopt;
    out[i] = da == 1 ? db : da;
  }
  return out;
}

bool broadcastsTo(const Shape &from, const Shape &to) {
  std::optional<Shape> r = broadcastShapes(from, to);
  return r && *r == to;
}

std::string Type::str() const {
  switch (kind_) {
  case Kind::Error: return "<error>";
  case Kind::Void: return "void";
  case Kind::String: return "string";
  case Kind::DType: return "dtype " + std::string(spelling(elem_));
  case Kind::Shape: return "shape";
  case Kind::Module: return "module";
  case Kind::Function: return "function";
  case Kind::Value: break;
  }
  std::string out = isPointer_ ? "*" : "";
  out += spelling(elem_);
  if (!shape_.empty())
    out += formatShape(shape_);
  return out;
}

ScalarKind promote(ScalarKind a, ScalarKind b) {
  if (a == b)
    return a;
  bool fa = isFloat(a), fb = isFloat(b);
  if (fa != fb)
    return fa ? a : b;
  if (fa) {
    // f16 and bf16 have no common 16-bit type: Triton goes to f32.
    if (bitWidth(a) == bitWidth(b))
      return ScalarKind::F32;
    return bitWidth(a) > bitWidth(b) ? a : b;
  }
  if (a == ScalarKind::I1)
    return b;
  if (b == ScalarKind::I1)
    return a;
  if (bitWidth(a) != bitWidth(b))
    return bitWidth(a) > bitWidth(b) ? a : b;
  // Same width, one signed and one unsigned: unsigned wins.
  return isUnsigned(a) ? a : b;
}

ScalarKind promoteWithLiterals(ScalarKind a, bool aIsLiteral, ScalarKind b,
                               bool bIsLiteral) {
  if (aIsLiteral == bIsLiteral)
    return promote(a, b);
  ScalarKind lit = aIsLiteral ? a : b;
  ScalarKind other = aIsLiteral ? b : a;
  // A float literal against an integer operand makes the result f32 (Triton
  // treats a Python float as fp32 in that case); otherwise the literal adopts
  // the typed operand's element kind.
  if (isFloat(lit) && !isFloat(other))
    return ScalarKind::F32;
  // Arithmetic on booleans counts in i32 (`mask * 2`), as in Triton.
  if (other == ScalarKind::I1 && lit != ScalarKind::I1)
    return ScalarKind::I32;
  return other;
}

bool isNarrowing(ScalarKind from, ScalarKind to) {
  if (from == to)
    return false;
  if (isFloat(from) && !isFloat(to))
    return true;
  if (!isFloat(from) && isFloat(to))
    return false;
  if (isFloat(from))
    return bitWidth(to) < bitWidth(from) ||
           (bitWidth(to) == bitWidth(from)); // f16 <-> bf16 loses either way
  return bitWidth(to) < bitWidth(from);
}

} // namespace blk::sema
