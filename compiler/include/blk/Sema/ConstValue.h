//===- ConstValue.h - compile-time values and their arithmetic --*- C++ -*-===//
//
// The constexpr evaluator's value domain and operators, independent of the
// AST: integers (64-bit, two's complement), booleans and floats (double).
// Sema folds expressions bottom-up with these functions; a failing operation
// returns a ConstError describing why (division by zero, overflow, ...).
// Integer `/` and `%` truncate toward zero (LANGUAGE.md §3).
// Tests: tests/unit/Sema/ConstValueTest.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_SEMA_CONSTVALUE_H
#define BLK_SEMA_CONSTVALUE_H

#include <cstdint>
#include <string>
#include <variant>

namespace blk::sema {

/// A compile-time value: an integer, a boolean or a float.
class ConstValue {
public:
  enum class Kind : uint8_t { Int, Bool, Float };

  ConstValue() = default;
  static ConstValue integer(int64_t v) { return ConstValue(Kind::Int, v, 0); }
  static ConstValue boolean(bool v) { return ConstValue(Kind::Bool, v, 0); }
  static ConstValue floating(double v) { return ConstValue(Kind::Float, 0, v); }

  Kind kind() const { return kind_; }
  bool isInt() const { return kind_ == Kind::Int; }
  bool isBool() const { return kind_ == Kind::Bool; }
  bool isFloat() const { return kind_ == Kind::Float; }
  /// Integer value (booleans read as 0/1, floats truncated).
  int64_t getInt() const;
  /// Float value (integers and booleans converted).
  double getFloat() const;
  /// Truth value (non-zero).
  bool getBool() const;

  /// Source-like spelling: `7`, `true`, `1.5`.
  std::string str() const;

  friend bool operator==(const ConstValue &a, const ConstValue &b) {
    return a.kind_ == b.kind_ && a.i_ == b.i_ && a.f_ == b.f_;
  }
  friend bool operator!=(const ConstValue &a, const ConstValue &b) {
    return !(a == b);
  }

private:
  ConstValue(Kind k, int64_t i, double f) : kind_(k), i_(i), f_(f) {}
  Kind kind_ = Kind::Int;
  int64_t i_ = 0;
  double f_ = 0;
};

/// Why a compile-time operation failed (the message is a diagnostic text:
/// lowercase, no final period).
struct ConstError {
  std::string message;
};

/// Result of a compile-time operation.
using ConstResult = std::variant<ConstValue, ConstError>;

inline bool isOk(const ConstResult &r) {
  return std::holds_alternative<ConstValue>(r);
}
inline const ConstValue &valueOf(const ConstResult &r) {
  return std::get<ConstValue>(r);
}
inline const std::string &errorOf(const ConstResult &r) {
  return std::get<ConstError>(r).message;
}

/// Operators the evaluator folds.
enum class ConstOp : uint8_t {
  Add, Sub, Mul, Div, Rem,          // arithmetic (/ % truncate for integers)
  Eq, Ne, Lt, Le, Gt, Ge,           // comparisons (give Bool)
  And, Or,                          // logical && || (Bool operands)
  BitAnd, BitOr, BitXor, Shl, Shr,  // integer bit operations (& | ^ on Bool too)
  Min, Max, Cdiv                    // builtins min/max/cdiv
};

/// Spelling of an operator for messages: "+", "cdiv", ...
const char *spelling(ConstOp op);

/// Folds `a op b`. Int with Float computes in Float; Bool in arithmetic
/// reads as 0/1. Errors: division or remainder by zero, integer overflow,
/// shift out of range, && / || on non-Bool, bit operations on floats.
ConstResult evalBinary(ConstOp op, const ConstValue &a, const ConstValue &b);

/// Unary operators.
enum class ConstUnaryOp : uint8_t { Neg, Not, BitNot };

/// Folds a unary operator (`!` needs a Bool, `~` an Int).
ConstResult evalUnary(ConstUnaryOp op, const ConstValue &v);

enum class ScalarKind : uint8_t;
/// `v` in the value domain of scalar kind `k`, as the run-time conversion
/// computes it: integers wrap to the width; floats become integers
/// truncated toward zero and saturated to the range, NaN 0 (docs/language.md).
ConstValue convertConst(const ConstValue &v, ScalarKind k);

} // namespace blk::sema

#endif // BLK_SEMA_CONSTVALUE_H
