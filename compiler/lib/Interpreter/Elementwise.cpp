//===- Elementwise.cpp - arithmetic and comparisons on whole blocks --------===//
//
// Float operations compute in double and round once to the element kind
// (exact for + - * / sqrt: double has more than 2p+2 bits for p <= 24;
// fma rounds its double sum to odd first, see fmaRounded);
// integer operations compute on the canonical int64 and wrap to the width.
// Division by zero does not trap: it gives all ones (PTX's div.u result),
// and rem by zero gives the dividend.
//
//===----------------------------------------------------------------------===//
#include "blk/Interpreter/BlockOps.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace blk::interp {

/// out[k] = fn(a[k], b[k]), a single-element operand stretching.
template <typename T, typename R, typename F>
static void zip(std::vector<R> &out, const std::vector<T> &a,
                const std::vector<T> &b, F fn) {
  size_t n = std::max(a.size(), b.size());
  out.resize(n);
  if (a.size() == b.size()) {
    for (size_t k = 0; k < n; ++k)
      out[k] = fn(a[k], b[k]);
  } else if (a.size() == 1) {
    T x = a[0];
    for (size_t k = 0; k < n; ++k)
      out[k] = fn(x, b[k]);
  } else {
    T y = b[0];
    for (size_t k = 0; k < n; ++k)
      out[k] = fn(a[k], y);
  }
}

/// Rounds every element of `v` to the float kind `k`.
static void roundAll(ElemKind k, std::vector<double> &v) {
  switch (k) {
  case ElemKind::F32:
    for (double &x : v)
      x = double(float(x));
    return;
  case ElemKind::F16:
    for (double &x : v)
      x = roundToF16(x);
    return;
  case ElemKind::BF16:
    for (double &x : v)
      x = roundToBF16(x);
    return;
  case ElemKind::F8E4M3: case ElemKind::F8E5M2:
    for (double &x : v)
      x = roundFloat(k, x);
    return;
  default:
    return;
  }
}

static void wrapAll(ElemKind k, std::vector<int64_t> &v) {
  unsigned w = bitWidth(k);
  if (w >= 64)
    return;
  for (int64_t &x : v)
    x = wrapToWidth(w, x);
}

/// Shape of an elementwise result: the operand with more elements.
static Block resultLike(const Block &a, const Block &b) {
  Block r;
  r.kind = a.kind;
  r.pointee = a.pointee;
  r.shape = a.size() >= b.size() ? a.shape : b.shape;
  return r;
}

static double fmaximum(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return NAN;
  if (a == b)
    return std::signbit(a) ? b : a;
  return a > b ? a : b;
}

static double fminimum(double a, double b) {
  if (std::isnan(a) || std::isnan(b))
    return NAN;
  if (a == b)
    return std::signbit(a) ? a : b;
  return a < b ? a : b;
}

static Block floatBinary(BinOp op, const Block &a, const Block &b) {
  Block r = resultLike(a, b);
  auto run = [&](auto fn) { zip(r.f, a.f, b.f, fn); };
  switch (op) {
  case BinOp::FAdd: run([](double x, double y) { return x + y; }); break;
  case BinOp::FSub: run([](double x, double y) { return x - y; }); break;
  case BinOp::FMul: run([](double x, double y) { return x * y; }); break;
  case BinOp::FDiv: run([](double x, double y) { return x / y; }); break;
  case BinOp::FRem: run([](double x, double y) { return std::fmod(x, y); }); break;
  case BinOp::FMaximum: run(fmaximum); break;
  case BinOp::FMinimum: run(fminimum); break;
  case BinOp::FMaxNum: run([](double x, double y) { return std::fmax(x, y); }); break;
  case BinOp::FMinNum: run([](double x, double y) { return std::fmin(x, y); }); break;
  case BinOp::FPow: run([](double x, double y) { return std::pow(x, y); }); break;
  case BinOp::FAtan2: run([](double x, double y) { return std::atan2(x, y); }); break;
  case BinOp::FCopySign: run([](double x, double y) { return std::copysign(x, y); }); break;
  default: break;
  }
  roundAll(r.kind, r.f);
  return r;
}

static Block intBinary(BinOp op, const Block &a, const Block &b) {
  Block r = resultLike(a, b);
  unsigned w = bitWidth(a.kind);
  auto run = [&](auto fn) { zip(r.i, a.i, b.i, fn); };
  auto u = [w](int64_t x) { return unsignedView(w, x); };
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
  switch (op) {
  case BinOp::Add: run([](int64_t x, int64_t y) { return int64_t(uint64_t(x) + uint64_t(y)); }); break;
  case BinOp::Sub: run([](int64_t x, int64_t y) { return int64_t(uint64_t(x) - uint64_t(y)); }); break;
  case BinOp::Mul: run([](int64_t x, int64_t y) { return int64_t(uint64_t(x) * uint64_t(y)); }); break;
  case BinOp::DivS:
    run([](int64_t x, int64_t y) { return y == 0 ? -1 : (x == kMin && y == -1) ? kMin : x / y; });
    break;
  case BinOp::DivU:
    run([&](int64_t x, int64_t y) { return u(y) == 0 ? int64_t(-1) : int64_t(u(x) / u(y)); });
    break;
  case BinOp::RemS:
    run([](int64_t x, int64_t y) { return y == 0 ? x : (y == -1) ? 0 : x % y; });
    break;
  case BinOp::RemU:
    run([&](int64_t x, int64_t y) { return u(y) == 0 ? x : int64_t(u(x) % u(y)); });
    break;
  case BinOp::CeilDivS:
    run([](int64_t x, int64_t y) {
      if (y == 0) return int64_t(-1);
      if (x == kMin && y == -1) return kMin;
      int64_t q = x / y;
      return (x % y != 0 && ((x < 0) == (y < 0))) ? q + 1 : q;
    });
    break;
  case BinOp::FloorDivS:
    run([](int64_t x, int64_t y) {
      if (y == 0) return int64_t(-1);
      if (x == kMin && y == -1) return kMin;
      int64_t q = x / y;
      return (x % y != 0 && ((x < 0) != (y < 0))) ? q - 1 : q;
    });
    break;
  case BinOp::And: run([](int64_t x, int64_t y) { return x & y; }); break;
  case BinOp::Or: run([](int64_t x, int64_t y) { return x | y; }); break;
  case BinOp::Xor: run([](int64_t x, int64_t y) { return x ^ y; }); break;
  case BinOp::Shl:
    run([&](int64_t x, int64_t y) { return u(y) >= w ? 0 : int64_t(uint64_t(x) << u(y)); });
    break;
  case BinOp::ShrS:
    run([&](int64_t x, int64_t y) { return u(y) >= w ? (x < 0 ? -1 : 0) : x >> u(y); });
    break;
  case BinOp::ShrU:
    run([&](int64_t x, int64_t y) { return u(y) >= w ? 0 : int64_t(u(x) >> u(y)); });
    break;
  case BinOp::MaxS: run([](int64_t x, int64_t y) { return std::max(x, y); }); break;
  case BinOp::MinS: run([](int64_t x, int64_t y) { return std::min(x, y); }); break;
  case BinOp::MaxU: run([&](int64_t x, int64_t y) { return u(x) >= u(y) ? x : y; }); break;
  case BinOp::MinU: run([&](int64_t x, int64_t y) { return u(x) <= u(y) ? x : y; }); break;
  default: break;
  }
  wrapAll(r.kind, r.i);
  return r;
}

Block binary(BinOp op, const Block &a, const Block &b) {
  return op >= BinOp::FAdd ? floatBinary(op, a, b) : intBinary(op, a, b);
}

static double applyUnary(UnOp op, double x) {
  switch (op) {
  case UnOp::FNeg: return -x;
  case UnOp::Exp: return std::exp(x);
  case UnOp::Exp2: return std::exp2(x);
  case UnOp::Log: return std::log(x);
  case UnOp::Log2: return std::log2(x);
  case UnOp::Log1p: return std::log1p(x);
  case UnOp::Expm1: return std::expm1(x);
  case UnOp::Sqrt: return std::sqrt(x);
  case UnOp::Rsqrt: return 1.0 / std::sqrt(x);
  case UnOp::FAbs: return std::fabs(x);
  case UnOp::Floor: return std::floor(x);
  case UnOp::Ceil: return std::ceil(x);
  case UnOp::Round: return std::round(x);
  case UnOp::RoundEven: return std::nearbyint(x);
  case UnOp::Trunc: return std::trunc(x);
  case UnOp::Sin: return std::sin(x);
  case UnOp::Cos: return std::cos(x);
  case UnOp::Tan: return std::tan(x);
  case UnOp::Tanh: return std::tanh(x);
  case UnOp::Erf: return std::erf(x);
  case UnOp::Atan: return std::atan(x);
  case UnOp::IAbs: return x;
  }
  return x;
}

Block unary(UnOp op, const Block &a) {
  Block r;
  r.kind = a.kind;
  r.shape = a.shape;
  if (op == UnOp::IAbs) {
    r.i.resize(a.i.size());
    for (size_t k = 0; k < a.i.size(); ++k)
      r.i[k] = a.i[k] < 0 ? int64_t(0 - uint64_t(a.i[k])) : a.i[k];
    wrapAll(r.kind, r.i);
    return r;
  }
  r.f.resize(a.f.size());
  for (size_t k = 0; k < a.f.size(); ++k)
    r.f[k] = applyUnary(op, a.f[k]);
  roundAll(r.kind, r.f);
  return r;
}

/// a * b + c rounded once to `kind`. For f32, f16 and bf16 operands the
/// product is exact in a double; the sum is rounded to odd (an inexact sum
/// gets an odd last bit), so that rounding it again to at most 24 bits is the
/// one correct rounding. Rounding the double fma to nearest first could land
/// on a tie of the narrow type and then go the wrong way
/// (tests/lit/interp/fma-rounding.blk).
static double fmaRounded(ElemKind kind, double a, double b, double c) {
  if (kind == ElemKind::F64)
    return std::fma(a, b, c);
  double p = a * b;
  double s = p + c;
  if (!std::isfinite(s))
    return s;
  double bv = s - p; // two-sum: err is exactly (p + c) - s
  double err = (p - (s - bv)) + (c - bv);
  uint64_t bits;
  std::memcpy(&bits, &s, sizeof bits);
  if (err != 0 && (bits & 1) == 0)
    s = std::nextafter(s, err > 0 ? INFINITY : -INFINITY);
  return s;
}

Block fusedMulAdd(const Block &a, const Block &b, const Block &c) {
  Block r = resultLike(a, b.size() > c.size() ? b : c);
  size_t n = std::max({a.f.size(), b.f.size(), c.f.size()});
  r.f.resize(n);
  auto at = [](const Block &x, size_t k) { return x.f[x.f.size() == 1 ? 0 : k]; };
  for (size_t k = 0; k < n; ++k)
    r.f[k] = fmaRounded(r.kind, at(a, k), at(b, k), at(c, k));
  roundAll(r.kind, r.f);
  return r;
}

static bool floatCmp(CmpPred p, double x, double y) {
  bool unord = std::isnan(x) || std::isnan(y);
  switch (p) {
  case CmpPred::FFalse: return false;
  case CmpPred::FTrue: return true;
  case CmpPred::FOrd: return !unord;
  case CmpPred::FUno: return unord;
  case CmpPred::FOeq: return !unord && x == y;
  case CmpPred::FOgt: return !unord && x > y;
  case CmpPred::FOge: return !unord && x >= y;
  case CmpPred::FOlt: return !unord && x < y;
  case CmpPred::FOle: return !unord && x <= y;
  case CmpPred::FOne: return !unord && x != y;
  case CmpPred::FUeq: return unord || x == y;
  case CmpPred::FUgt: return unord || x > y;
  case CmpPred::FUge: return unord || x >= y;
  case CmpPred::FUlt: return unord || x < y;
  case CmpPred::FUle: return unord || x <= y;
  case CmpPred::FUne: return unord || x != y;
  default: return false;
  }
}

Block compare(CmpPred p, const Block &a, const Block &b) {
  Block r = resultLike(a, b);
  r.kind = ElemKind::I1;
  if (p >= CmpPred::FFalse) {
    zip(r.i, a.f, b.f, [p](double x, double y) { return floatCmp(p, x, y) ? int64_t(-1) : 0; });
    return r;
  }
  unsigned w = bitWidth(a.kind);
  zip(r.i, a.i, b.i, [p, w](int64_t x, int64_t y) -> int64_t {
    uint64_t ux = unsignedView(w, x), uy = unsignedView(w, y);
    bool v = false;
    switch (p) {
    case CmpPred::Eq: v = x == y; break;
    case CmpPred::Ne: v = x != y; break;
    case CmpPred::Slt: v = x < y; break;
    case CmpPred::Sle: v = x <= y; break;
    case CmpPred::Sgt: v = x > y; break;
    case CmpPred::Sge: v = x >= y; break;
    case CmpPred::Ult: v = ux < uy; break;
    case CmpPred::Ule: v = ux <= uy; break;
    case CmpPred::Ugt: v = ux > uy; break;
    case CmpPred::Uge: v = ux >= uy; break;
    default: break;
    }
    return v ? -1 : 0;
  });
  return r;
}

Block select(const Block &cond, const Block &a, const Block &b) {
  Block r = resultLike(a.size() >= b.size() ? a : b, cond);
  r.kind = a.kind;
  r.pointee = a.pointee;
  size_t n = std::max({cond.size(), a.size(), b.size()});
  auto idx = [](const Block &x, size_t k) { return x.size() == 1 ? 0 : k; };
  if (a.isFloat()) {
    r.f.resize(n);
    for (size_t k = 0; k < n; ++k)
      r.f[k] = cond.i[idx(cond, k)] ? a.f[idx(a, k)] : b.f[idx(b, k)];
  } else {
    r.i.resize(n);
    for (size_t k = 0; k < n; ++k)
      r.i[k] = cond.i[idx(cond, k)] ? a.i[idx(a, k)] : b.i[idx(b, k)];
  }
  return r;
}

} // namespace blk::interp
