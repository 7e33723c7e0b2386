//===- Type.h - blk value types, broadcasting and promotion -----*- C++ -*-===//
//
// The type model of LANGUAGE.md §3, independent of the AST:
//   - scalars `i1 i8 i16 i32 i64 u8 u16 u32 u64 f16 bf16 f32 f64` (`bool` = i1)
//     and the 8-bit storage floats `f8e4m3 f8e5m2`,
//   - pointers `*T` to a scalar T (global memory, 64-bit),
//   - blocks: an element (scalar or pointer) and a shape of rank 1..4 whose
//     dimensions are compile-time powers of two, at most 2^20 elements.
// Plus NumPy broadcasting of shapes and Triton's implicit promotion.
// Tests: tests/unit/Sema/TypeTest.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_SEMA_TYPE_H
#define BLK_SEMA_TYPE_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blk::sema {

/// Element kinds of LANGUAGE.md §3.
enum class ScalarKind : uint8_t {
  I1, I8, I16, I32, I64, U8, U16, U32, U64, F16, BF16, F32, F64,
  F8E4M3, ///< fp8, 4 exponent bits, 3 mantissa bits, no infinities (OCP E4M3)
  F8E5M2  ///< fp8, 5 exponent bits, 2 mantissa bits (OCP E5M2)
};

/// True for f16, bf16, f32, f64 and the fp8 kinds.
bool isFloat(ScalarKind k);
/// True for f8e4m3 and f8e5m2: floats that are loaded, stored, converted
/// and multiplied by `dot`, but not computed with (docs/language.md §10.9).
bool isFp8(ScalarKind k);
/// True for every integer kind, i1 included.
bool isInteger(ScalarKind k);
/// True for u8..u64.
bool isUnsigned(ScalarKind k);
/// Bit width (i1 is 1, bf16 is 16).
unsigned bitWidth(ScalarKind k);
/// Size in bytes in memory (i1 takes one byte).
unsigned byteSize(ScalarKind k);
/// blk spelling: "i32", "bf16", ...
std::string_view spelling(ScalarKind k);
/// Parses a scalar spelling ("bool" gives I1); nullopt if not a scalar type.
std::optional<ScalarKind> parseScalarKind(std::string_view s);

/// A block shape; empty means scalar.
using Shape = std::vector<int64_t>;

/// Limits of version 0.
inline constexpr unsigned kMaxRank = 4;
inline constexpr int64_t kMaxElements = int64_t(1) << 20;
/// Elements of one block value per thread (block / (32 * num_warps)) above
/// which `check` warns, and above which it refuses: ptxas time grows about
/// 3.6x per doubling (measured, docs/language.md §10.3): 2^18 f32 on 4 warps
/// (2048 per thread) 24 s, 2^20 (8192 per thread) 405 s.
inline constexpr int64_t kWarnElementsPerThread = 1024;
inline constexpr int64_t kMaxElementsPerThread = 8192;

/// "[64, 32]" (empty shape prints "[]").
std::string formatShape(const Shape &shape);
/// True if v > 0 and v is a power of two.
bool isPowerOfTwo(int64_t v);
/// Product of the dimensions (1 for a scalar).
int64_t numElements(const Shape &shape);

/// NumPy broadcasting: shapes aligned from the right, a dimension of 1
/// stretches, a scalar stretches to any shape. nullopt if incompatible.
std::optional<Shape> broadcastShapes(const Shape &a, const Shape &b);
/// True if `from` broadcasts to exactly `to` (so `to` is the result shape).
bool broadcastsTo(const Shape &from, const Shape &to);

/// The type of a value or of a non-value expression (a string literal, a
/// dtype such as `f32` passed to `zeros`, a module name). `Error` is the
/// poison type: anything computed from it is `Error` and no diagnostic is
/// emitted for it, so one mistake does not cascade.
class Type {
public:
  enum class Kind : uint8_t {
    Error,   ///< poison: silences follow-on errors
    Void,    ///< result of store, print, ...
    Value,   ///< scalar, pointer, or block of either
    String,  ///< string literal (print/assert/cache:)
    DType,   ///< a scalar type used as a value (`zeros([8], f32)`)
    Shape,   ///< a list literal of compile-time integers (`[BM, BK]`)
    Module,  ///< an imported module name (`math` in `math.gelu`)
    Function ///< a `fn`/builtin name not called
  };

  Type() = default;
  static Type error() { return Type(Kind::Error); }
  static Type voidType() { return Type(Kind::Void); }
  static Type string() { return Type(Kind::String); }
  static Type module() { return Type(Kind::Module); }
  static Type function() { return Type(Kind::Function); }
  static Type shapeList() { return Type(Kind::Shape); }
  static Type dtype(ScalarKind k) {
    Type t(Kind::DType);
    t.elem_ = k;
    return t;
  }
  /// A scalar of kind k.
  static Type scalar(ScalarKind k) { return block(k, {}); }
  /// A pointer `*k`.
  static Type pointer(ScalarKind k) { return pointerBlock(k, {}); }
  /// A block `k[shape]` (shape may be empty: a scalar).
  static Type block(ScalarKind k, Shape shape) {
    Type t(Kind::Value);
    t.elem_ = k;
    t.shape_ = std::move(shape);
    return t;
  }
  /// A block of pointers `*k[shape]` (shape may be empty: a pointer).
  static Type pointerBlock(ScalarKind k, Shape shape) {
    Type t = block(k, std::move(shape));
    t.isPointer_ = true;
    return t;
  }

  Kind kind() const { return kind_; }
  bool isError() const { return kind_ == Kind::Error; }
  bool isVoid() const { return kind_ == Kind::Void; }
  bool isValue() const { return kind_ == Kind::Value; }
  bool isDType() const { return kind_ == Kind::DType; }
  /// A value whose element is a pointer (pointer or pointer block).
  bool isPointerLike() const { return isValue() && isPointer_; }
  /// A scalar or pointer value (rank 0).
  bool isScalarLike() const { return isValue() && shape_.empty(); }
  /// A non-pointer scalar.
  bool isScalar() const { return isScalarLike() && !isPointer_; }
  /// A block (rank >= 1) of scalars or pointers.
  bool isBlock() const { return isValue() && !shape_.empty(); }
  bool isFloatLike() const { return isValue() && !isPointer_ && isFloat(elem_); }
  bool isIntLike() const { return isValue() && !isPointer_ && isInteger(elem_); }
  bool isBoolLike() const { return isIntLike() && elem_ == ScalarKind::I1; }

  /// Scalar element kind (for a pointer: the pointee), Value/DType only.
  ScalarKind elem() const { return elem_; }
  /// Element pointer flag: true for `*f32` and `*f32[N]`.
  bool elemIsPointer() const { return isPointer_; }
  const Shape &shape() const { return shape_; }
  unsigned rank() const { return unsigned(shape_.size()); }

  /// Same element, new shape (a scalar when empty).
  Type withShape(Shape shape) const {
    Type t = *this;
    t.shape_ = std::move(shape);
    return t;
  }
  /// Same shape, new non-pointer element kind.
  Type withElem(ScalarKind k) const {
    Type t = *this;
    t.elem_ = k;
    t.isPointer_ = false;
    return t;
  }
  /// Element type alone (the scalar or pointer of a block).
  Type elementType() const { return withShape({}); }

  /// blk spelling: `f32`, `*f16`, `i32[64, 32]`, `*f32[128]`, `<error>`.
  std::string str() const;

  friend bool operator==(const Type &a, const Type &b) {
    return a.kind_ == b.kind_ && a.elem_ == b.elem_ &&
           a.isPointer_ == b.isPointer_ && a.shape_ == b.shape_;
  }
  friend bool operator!=(const Type &a, const Type &b) { return !(a == b); }

private:
  explicit Type(Kind k) : kind_(k) {}
  Kind kind_ = Kind::Error;
  ScalarKind elem_ = ScalarKind::I32;
  bool isPointer_ = false;
  Shape shape_;
};

/// Triton promotion of two element kinds (LANGUAGE.md §3): int with float
/// gives the float; two floats the wider (f16 with bf16 gives f32); two
/// integers the wider, and at equal width unsigned wins. i1 with anything
/// gives the other.
ScalarKind promote(ScalarKind a, ScalarKind b);

/// Literal-aware promotion. An untyped literal operand (`2.0`, `1`) adopts
/// the other operand's element type, except a float literal against an
/// integer gives f32 (as in Triton). Two literals promote normally.
ScalarKind promoteWithLiterals(ScalarKind a, bool aIsLiteral, ScalarKind b,
                               bool bIsLiteral);

/// True if converting `from` to `to` may lose information (narrowing):
/// float to int, wider to narrower, f32 to f16/bf16, signed to unsigned of
/// the same width is not counted (bit-preserving).
bool isNarrowing(ScalarKind from, ScalarKind to);

} // namespace blk::sema

#endif // BLK_SEMA_TYPE_H
