//===- ConstValue.cpp - compile-time values and their arithmetic ----------===//
#include "blk/Sema/ConstValue.h"
#include "blk/Sema/Type.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace blk::sema {

int64_t ConstValue::getInt() const {
  if (kind_ == Kind::Float) // saturating: a plain cast out of range is UB
    return std::isnan(f_) ? 0
           : f_ >= 0x1p63 ? INT64_MAX
           : f_ <= -0x1p63 ? INT64_MIN
                           : int64_t(f_);
  return i_;
}

double ConstValue::getFloat() const {
  return kind_ == Kind::Float ? f_ : double(i_);
}

bool ConstValue::getBool() const {
  return kind_ == Kind::Float ? f_ != 0 : i_ != 0;
}

std::string ConstValue::str() const {
  switch (kind_) {
  case Kind::Int: return std::to_string(i_);
  case Kind::Bool: return i_ ? "true" : "false";
  case Kind::Float: break;
  }
  // The shortest digits that read back as the same double (64.7, not
  // 64.700000000000003).
  char buf[64];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, f_);
    if (std::strtod(buf, nullptr) == f_ || std::isnan(f_))
      break;
  }
  std::string s = buf;
  // Keep a float looking like a float.
  if (s.find_first_of(".eEn") == std::string::npos)
    s += ".0";
  return s;
}

const char *spelling(ConstOp op) {
  switch (op) {
  case ConstOp::Add: return "+";
  case ConstOp::Sub: return "-";
  case ConstOp::Mul: return "*";
  case ConstOp::Div: return "/";
  case ConstOp::Rem: return "%";
  case ConstOp::Eq: return "==";
  case ConstOp::Ne: return "!=";
  case ConstOp::Lt: return "<";
  case ConstOp::Le: return "<=";
  case ConstOp::Gt: return ">";
  case ConstOp::Ge: return ">=";
  case ConstOp::And: return "&&";
  case ConstOp::Or: return "||";
  case ConstOp::BitAnd: return "&";
  case ConstOp::BitOr: return "|";
  case ConstOp::BitXor: return "^";
  case ConstOp::Shl: return "<<";
  case ConstOp::Shr: return ">>";
  case ConstOp::Min: return "min";
  case ConstOp::Max: return "max";
  case ConstOp::Cdiv: return "cdiv";
  }
  return "?";
}

static ConstError err(std::string msg) { return ConstError{std::move(msg)}; }

static ConstResult evalFloat(ConstOp op, double a, double b) {
  switch (op) {
  case ConstOp::Add: return ConstValue::floating(a + b);
  case ConstOp::Sub: return ConstValue::floating(a - b);
  case ConstOp::Mul: return ConstValue::floating(a * b);
  case ConstOp::Div: return ConstValue::floating(a / b);
  case ConstOp::Rem: return ConstValue::floating(std::fmod(a, b));
  case ConstOp::Eq: return ConstValue::boolean(a == b);
  case ConstOp::Ne: return ConstValue::boolean(a != b);
  case ConstOp::Lt: return ConstValue::boolean(a < b);
  case ConstOp::Le: return ConstValue::boolean(a <= b);
  case ConstOp::Gt: return ConstValue::boolean(a > b);
  case ConstOp::Ge: return ConstValue::boolean(a >= b);
  case ConstOp::Min: return ConstValue::floating(std::fmin(a, b));
  case ConstOp::Max: return ConstValue::floating(std::fmax(a, b));
  default: break;
  }
  return err(std::string("`") + spelling(op) + "` needs integer operands");
}

static ConstResult evalInt(ConstOp op, int64_t a, int64_t b) {
  int64_t r = 0;
  switch (op) {
  case ConstOp::Add:
    if (__builtin_add_overflow(a, b, &r))
      return err("integer overflow in constant expression");
    return ConstValue::integer(r);
  case ConstOp::Sub:
    if (__builtin_sub_overflow(a, b, &r))
      return err("integer overflow in constant expression");
    return ConstValue::integer(r);
  case ConstOp::Mul:
    if (__builtin_mul_overflow(a, b, &r))
      return err("integer overflow in constant expression");
    return ConstValue::integer(r);
  case ConstOp::Div:
  case ConstOp::Rem:
  case ConstOp::Cdiv:
    if (b == 0)
      return err(op == ConstOp::Rem ? "remainder by zero in constant expression"
                                    : "division by zero in constant expression");
    if (a == INT64_MIN && b == -1)
      return err("integer overflow in constant expression");
    if (op == ConstOp::Div)
      return ConstValue::integer(a / b); // C++ truncates toward zero
    if (op == ConstOp::Rem)
      return ConstValue::integer(a % b);
    // cdiv(a, b) = ceil(a / b) for the usual non-negative operands; for
    // negative ones it is the same formula Triton's cdiv uses: (a + b - 1) / b.
    if (__builtin_add_overflow(a, b - 1, &r))
      return err("integer overflow in constant expression");
    return ConstValue::integer(r / b);
  case ConstOp::Eq: return ConstValue::boolean(a == b);
  case ConstOp::Ne: return ConstValue::boolean(a != b);
  case ConstOp::Lt: return ConstValue::boolean(a < b);
  case ConstOp::Le: return ConstValue::boolean(a <= b);
  case ConstOp::Gt: return ConstValue::boolean(a > b);
  case ConstOp::Ge: return ConstValue::boolean(a >= b);
  case ConstOp::BitAnd: return ConstValue::integer(a & b);
  case ConstOp::BitOr: return ConstValue::integer(a | b);
  case ConstOp::BitXor: return ConstValue::integer(a ^ b);
  case ConstOp::Shl:
  case ConstOp::Shr:
    if (b < 0 || b >= 64)
      return err("shift amount " + std::to_string(b) + " is out of range");
    if (op == ConstOp::Shr)
      return ConstValue::integer(a >> b);
    return ConstValue::integer(int64_t(uint64_t(a) << b));
  case ConstOp::Min: return ConstValue::integer(a < b ? a : b);
  case ConstOp::Max: return ConstValue::integer(a > b ? a : b);
  case ConstOp::And:
  case ConstOp::Or: break;
  }
  return err("unsupported constant operation");
}

ConstResult evalBinary(ConstOp op, const ConstValue &a, const ConstValue &b) {
  if (op == ConstOp::And || op == ConstOp::Or) {
    if (!a.isBool() || !b.isBool())
      return err(std::string("`") + spelling(op) + "` needs boolean operands");
    return ConstValue::boolean(op == ConstOp::And ? a.getBool() && b.getBool()
                                                  : a.getBool() || b.getBool());
  }
  if (a.isFloat() || b.isFloat())
    return evalFloat(op, a.getFloat(), b.getFloat());
  // Bool op Bool stays Bool for the bitwise and equality operators.
  if (a.isBool() && b.isBool()) {
    switch (op) {
    case ConstOp::BitAnd: return ConstValue::boolean(a.getBool() && b.getBool());
    case ConstOp::BitOr: return ConstValue::boolean(a.getBool() || b.getBool());
    case ConstOp::BitXor: return ConstValue::boolean(a.getBool() != b.getBool());
    default: break;
    }
  }
  return evalInt(op, a.getInt(), b.getInt());
}

ConstResult evalUnary(ConstUnaryOp op, const ConstValue &v) {
  switch (op) {
  case ConstUnaryOp::Neg:
    if (v.isFloat())
      return ConstValue::floating(-v.getFloat());
    if (v.getInt() == INT64_MIN)
      return err("integer overflow in constant expression");
    return ConstValue::integer(-v.getInt());
  case ConstUnaryOp::Not:
    if (!v.isBool())
      return err("`!` needs a boolean operand");
    return ConstValue::boolean(!v.getBool());
  case ConstUnaryOp::BitNot:
    if (v.isFloat())
      return err("`~` needs an integer operand");
    if (v.isBool())
      return ConstValue::boolean(!v.getBool());
    return ConstValue::integer(~v.getInt());
  }
  return err("unsupported constant operation");
}

/// A float constant converted to the integer kind `k` as the run-time cast
/// does (docs/language.md §10.2): truncated toward zero, saturated to the
/// type's range, NaN to 0. Unsigned 64-bit values are kept as their bits.
static ConstValue floatToIntConst(double f, ScalarKind k) {
  if (std::isnan(f))
    return ConstValue::integer(0);
  unsigned w = bitWidth(k);
  f = std::trunc(f);
  if (isUnsigned(k)) {
    double top = std::ldexp(1.0, int(w)); // 2^w: the first value past the range
    if (f <= 0)
      return ConstValue::integer(0);
    if (f >= top)
      return ConstValue::integer(w == 64 ? int64_t(-1) : int64_t((uint64_t(1) << w) - 1));
    return ConstValue::integer(int64_t(uint64_t(f)));
  }
  double half = std::ldexp(1.0, int(w) - 1); // 2^(w-1)
  if (f >= half)
    return ConstValue::integer(w == 64 ? INT64_MAX : int64_t((uint64_t(1) << (w - 1)) - 1));
  if (f <= -half)
    return ConstValue::integer(w == 64 ? INT64_MIN : -int64_t(uint64_t(1) << (w - 1)));
  return ConstValue::integer(int64_t(f));
}

ConstValue convertConst(const ConstValue &v, ScalarKind k) {
  if (k == ScalarKind::I1)
    return ConstValue::boolean(v.getBool());
  if (isFloat(k))
    return ConstValue::floating(v.getFloat());
  if (v.isFloat())
    return floatToIntConst(v.getFloat(), k);
  int64_t i = v.getInt();
  unsigned w = bitWidth(k);
  if (w < 64) {
    uint64_t mask = (uint64_t(1) << w) - 1;
    uint64_t u = uint64_t(i) & mask;
    if (!isUnsigned(k) && (u >> (w - 1)))
      u |= ~mask; // sign-extend
    i = int64_t(u);
  }
  return ConstValue::integer(i);
}

} // namespace blk::sema
