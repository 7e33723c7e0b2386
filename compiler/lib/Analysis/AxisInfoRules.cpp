//===- AxisInfoRules.cpp - what each op does to axis info -----------------===//
//
// Transfer functions for arith integer ops, blk shape/pointer ops, hints and
// constants. Anything not listed here gets the pessimistic state. Every rule
// errs low: a smaller power of two is always a correct claim.
// Tests: tests/lit/transforms/blk-test-print-axis-info.mlir.
//
//===----------------------------------------------------------------------===//
#include "AxisInfoRules.h"

#include "blk/IR/BlkOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Matchers.h"

#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>

using namespace mlir;

namespace blk::axisinfo {

using DimVector = AxisInfo::DimVector;
static constexpr int64_t kMax = AxisInfo::kMaxDivisibility;

int64_t highestPowerOf2Divisor(int64_t v) {
  if (v == 0)
    return kMax;
  uint64_t u = static_cast<uint64_t>(v);
  return std::min<int64_t>(static_cast<int64_t>(u & (~u + 1)), kMax);
}

unsigned latticeRank(Type type) {
  return std::max<size_t>(1, getShapeOrEmpty(type).size());
}

/// Dimension sizes as the lattice sees them (scalars: one dim of 1).
AxisInfo::DimVector latticeShape(Type type) {
  ArrayRef<int64_t> shape = getShapeOrEmpty(type);
  if (shape.empty())
    return {1};
  return DimVector(shape.begin(), shape.end());
}

int64_t mulCapped(int64_t a, int64_t b) {
  if (a >= kMax || b >= kMax || a * b >= kMax)
    return kMax;
  return a * b;
}

/// Divisibility of every single element along `d` (not just run starts).
int64_t elemDiv(const AxisInfo &x, unsigned d) {
  return x.getContiguity(d) > 1 ? 1 : x.getDivisibility(d);
}

int64_t bytesOf(Type ptrLike) {
  Type pointee = getElementTypeOrSelf(getPointeeType(ptrLike));
  return std::max<int64_t>(1, pointee.getIntOrFloatBitWidth() / 8);
}

/// Facts of a value whose every element equals `c`.
AxisInfo constantInfo(Type type, int64_t c) {
  DimVector shape = latticeShape(type);
  DimVector ones(shape.size(), 1);
  DimVector div(shape.size(), highestPowerOf2Divisor(c));
  return AxisInfo(ones, div, shape, c);
}

static std::optional<int64_t> constantOf(Attribute attr) {
  if (auto dense = dyn_cast_or_null<SplatElementsAttr>(attr))
    attr = dense.getSplatValue<Attribute>();
  if (auto integer = dyn_cast_or_null<IntegerAttr>(attr)) {
    if (integer.getType().isInteger(1))
      return integer.getValue().getBoolValue() ? 1 : 0;
    return integer.getValue().getSExtValue();
  }
  return std::nullopt;
}

/// Divisibility of a new size-1 dimension: what every element shares.
int64_t commonElemDiv(const AxisInfo &x) {
  if (x.getConstantValue())
    return highestPowerOf2Divisor(*x.getConstantValue());
  int64_t div = kMax;
  for (unsigned d = 0; d < x.getRank(); ++d)
    div = std::min(div, elemDiv(x, d));
  return div;
}

/// Elementwise rule over `rank` dims: build each dim with `dim(d)` returning
/// {contiguity, divisibility, constancy}; `fold` gives the constant.
template <typename DimFn>
static AxisInfo elementwise(unsigned rank, DimFn dim,
                            std::optional<int64_t> constant) {
  DimVector contiguity, divisibility, constancy;
  for (unsigned d = 0; d < rank; ++d) {
    auto [c, v, k] = dim(d);
    contiguity.push_back(c);
    divisibility.push_back(v);
    constancy.push_back(k);
  }
  return AxisInfo(contiguity, divisibility, constancy, constant);
}

static std::optional<int64_t> foldBinary(const AxisInfo &lhs,
                                         const AxisInfo &rhs,
                                         int64_t (*fn)(int64_t, int64_t)) {
  if (lhs.getConstantValue() && rhs.getConstantValue())
    return fn(*lhs.getConstantValue(), *rhs.getConstantValue());
  return std::nullopt;
}

/// x + y, and ptr + offset where `scale` is the element size in bytes
/// (offsets count elements, pointer divisibility counts bytes).
static AxisInfo addRule(const AxisInfo &lhs, const AxisInfo &rhs,
                        int64_t scale, bool foldConstant) {
  auto dim = [&](unsigned d) -> std::tuple<int64_t, int64_t, int64_t> {
    int64_t viaLhs = std::gcd(lhs.getContiguity(d), rhs.getConstancy(d));
    int64_t viaRhs = std::gcd(lhs.getConstancy(d), rhs.getContiguity(d));
    int64_t contiguity = std::max(viaLhs, viaRhs);
    int64_t lhsDiv, rhsDiv, subRun;
    if (contiguity > 1 && viaLhs >= viaRhs) {
      // Runs of lhs shifted by a value constant over each run.
      lhsDiv = lhs.getDivisibility(d);
      rhsDiv = mulCapped(elemDiv(rhs, d), scale);
      subRun = contiguity < lhs.getContiguity(d) ? contiguity : kMax;
    } else if (contiguity > 1) {
      lhsDiv = elemDiv(lhs, d);
      rhsDiv = mulCapped(rhs.getDivisibility(d), scale);
      subRun = contiguity < rhs.getContiguity(d) ? contiguity : kMax;
    } else {
      lhsDiv = elemDiv(lhs, d);
      rhsDiv = mulCapped(elemDiv(rhs, d), scale);
      subRun = kMax;
    }
    // A run cut from the middle of a longer one starts at a multiple of its
    // own length only (in elements, so times `scale` bytes for pointers).
    int64_t div = std::min({lhsDiv, rhsDiv, mulCapped(subRun, scale)});
    return {contiguity, div, std::gcd(lhs.getConstancy(d), rhs.getConstancy(d))};
  };
  std::optional<int64_t> constant;
  if (foldConstant)
    constant = foldBinary(lhs, rhs, [](int64_t a, int64_t b) { return a + b; });
  return elementwise(lhs.getRank(), dim, constant);
}

static AxisInfo subRule(const AxisInfo &lhs, const AxisInfo &rhs) {
  auto dim = [&](unsigned d) -> std::tuple<int64_t, int64_t, int64_t> {
    int64_t contiguity = std::gcd(lhs.getContiguity(d), rhs.getConstancy(d));
    int64_t div;
    if (contiguity > 1) {
      int64_t subRun = contiguity < lhs.getContiguity(d) ? contiguity : kMax;
      div = std::min({lhs.getDivisibility(d), elemDiv(rhs, d), subRun});
    } else {
      div = std::min(elemDiv(lhs, d), elemDiv(rhs, d));
    }
    return {contiguity, div, std::gcd(lhs.getConstancy(d), rhs.getConstancy(d))};
  };
  return elementwise(lhs.getRank(), dim, foldBinary(lhs, rhs, [](int64_t a, int64_t b) {
                       return a - b;
                     }));
}

static AxisInfo mulRule(const AxisInfo &lhs, const AxisInfo &rhs,
                        std::optional<int64_t> constant) {
  auto dim = [&](unsigned d) -> std::tuple<int64_t, int64_t, int64_t> {
    int64_t constancy = std::gcd(lhs.getConstancy(d), rhs.getConstancy(d));
    if (rhs.getConstantValue() == 1)
      return {lhs.getContiguity(d), lhs.getDivisibility(d), lhs.getConstancy(d)};
    if (lhs.getConstantValue() == 1)
      return {rhs.getContiguity(d), rhs.getDivisibility(d), rhs.getConstancy(d)};
    return {1, mulCapped(elemDiv(lhs, d), elemDiv(rhs, d)), constancy};
  };
  return elementwise(lhs.getRank(), dim, constant);
}

/// x / c and x >> log2(c) for a power-of-two constant c (values assumed
/// non-negative, as offsets are).
static AxisInfo divRule(const AxisInfo &lhs, const AxisInfo &rhs,
                        std::optional<int64_t> constant) {
  std::optional<int64_t> c = rhs.getConstantValue();
  auto dim = [&](unsigned d) -> std::tuple<int64_t, int64_t, int64_t> {
    int64_t constancy = std::gcd(lhs.getConstancy(d), rhs.getConstancy(d));
    if (c == 1)
      return {lhs.getContiguity(d), lhs.getDivisibility(d), lhs.getConstancy(d)};
    if (!c || *c <= 0 || !llvm::isPowerOf2_64(*c))
      return {1, 1, constancy};
    // Aligned runs of lhs split into blocks of c equal quotients.
    int64_t block = std::min(*c, lhs.getContiguity(d));
    if (lhs.getContiguity(d) > 1 && lhs.getDivisibility(d) >= block)
      constancy = std::max(constancy, block);
    int64_t div = elemDiv(lhs, d) > *c ? elemDiv(lhs, d) / *c : 1;
    return {1, div, constancy};
  };
  return elementwise(lhs.getRank(), dim, constant);
}

/// x % c and x & (c - 1) for a power-of-two constant c; and x % n for an n
/// uniform over x's runs and known to be a multiple of a power of two p
/// (`N: i32 @multiple_of(16)`, Triton's `offs % N`): x wraps only at
/// multiples of p, so runs of x aligned to p stay contiguous.
static AxisInfo remRule(const AxisInfo &lhs, std::optional<int64_t> c,
                        const AxisInfo &rhs, std::optional<int64_t> constant) {
  auto dim = [&](unsigned d) -> std::tuple<int64_t, int64_t, int64_t> {
    int64_t constancy = std::gcd(lhs.getConstancy(d), rhs.getConstancy(d));
    std::optional<int64_t> period = c;
    if (!c && rhs.getConstancy(d) >= lhs.getContiguity(d) && elemDiv(rhs, d) > 1)
      period = elemDiv(rhs, d);
    if (!period || *period <= 0 || !llvm::isPowerOf2_64(*period))
      return {1, 1, constancy};
    if (c)
      constancy = std::max(constancy, lhs.getConstancy(d));
    int64_t block = std::min(*period, lhs.getContiguity(d));
    if (lhs.getContiguity(d) > 1 && lhs.getDivisibility(d) >= block)
      return {block, std::min(lhs.getDivisibility(d), *period), constancy};
    return {1, std::min(elemDiv(lhs, d), *period), constancy};
  };
  return elementwise(lhs.getRank(), dim, constant);
}

/// Comparisons: the mask `x < n` is constant over aligned runs of x when n
/// is a multiple of the run alignment (the key fact for vectorised masks).
static AxisInfo cmpRule(arith::CmpIPredicate pred, const AxisInfo &lhs,
                        const AxisInfo &rhs, std::optional<int64_t> constant) {
  using P = arith::CmpIPredicate;
  bool lhsRuns = pred == P::slt || pred == P::ult || pred == P::sge ||
                 pred == P::uge;
  bool rhsRuns = pred == P::sgt || pred == P::ugt || pred == P::sle ||
                 pred == P::ule;
  auto dim = [&](unsigned d) -> std::tuple<int64_t, int64_t, int64_t> {
    int64_t constancy = std::gcd(lhs.getConstancy(d), rhs.getConstancy(d));
    const AxisInfo *runs = lhsRuns ? &lhs : rhsRuns ? &rhs : nullptr;
    const AxisInfo *bound = lhsRuns ? &rhs : &lhs;
    if (runs && runs->getContiguity(d) > 1) {
      int64_t block = std::min({runs->getContiguity(d),
                                runs->getDivisibility(d), elemDiv(*bound, d),
                                bound->getConstancy(d)});
      constancy = std::max(constancy, block);
    }
    return {1, 1, constancy};
  };
  return elementwise(lhs.getRank(), dim, constant);
}

static std::optional<int64_t> evalCmp(arith::CmpIPredicate pred,
                                      const AxisInfo &lhs, const AxisInfo &rhs) {
  if (!lhs.getConstantValue() || !rhs.getConstantValue())
    return std::nullopt;
  int64_t a = *lhs.getConstantValue(), b = *rhs.getConstantValue();
  uint64_t ua = a, ub = b;
  using P = arith::CmpIPredicate;
  switch (pred) {
  case P::eq: return a == b;
  case P::ne: return a != b;
  case P::slt: return a < b;
  case P::sle: return a <= b;
  case P::sgt: return a > b;
  case P::sge: return a >= b;
  case P::ult: return ua < ub;
  case P::ule: return ua <= ub;
  case P::ugt: return ua > ub;
  case P::uge: return ua >= ub;
  }
  return std::nullopt;
}

static AxisInfo selectRule(const AxisInfo &cond, const AxisInfo &t,
                           const AxisInfo &f) {
  if (cond.getConstantValue())
    return *cond.getConstantValue() ? t : f;
  auto dim = [&](unsigned d) -> std::tuple<int64_t, int64_t, int64_t> {
    // A scalar condition picks one whole block.
    int64_t condConst = cond.getRank() == t.getRank() ? cond.getConstancy(d)
                                                      : kMax;
    int64_t contiguity = std::min({condConst, t.getContiguity(d),
                                   f.getContiguity(d)});
    // Runs cut shorter than the picked operand's start at multiples of
    // their own length only.
    bool cut = contiguity < t.getContiguity(d) || contiguity < f.getContiguity(d);
    int64_t div = contiguity > 1
                      ? std::min({t.getDivisibility(d), f.getDivisibility(d),
                                  cut ? contiguity : kMax})
                      : std::min(elemDiv(t, d), elemDiv(f, d));
    int64_t constancy = std::min({condConst, t.getConstancy(d),
                                  f.getConstancy(d)});
    return {contiguity, div, constancy};
  };
  std::optional<int64_t> constant;
  if (t.getConstantValue() == f.getConstantValue())
    constant = t.getConstantValue();
  return elementwise(t.getRank(), dim, constant);
}

/// x & y: a mask c = 2^k - 1 acts as x % 2^k; otherwise every element has
/// at least the trailing zeros of either side.
static AxisInfo andRule(const AxisInfo &lhs, const AxisInfo &rhs) {
  std::optional<int64_t> constant =
      foldBinary(lhs, rhs, [](int64_t a, int64_t b) { return a & b; });
  for (auto [x, m] : {std::pair(&lhs, &rhs), std::pair(&rhs, &lhs)}) {
    std::optional<int64_t> c = m->getConstantValue();
    if (c && *c >= 0 && llvm::isPowerOf2_64(*c + 1))
      return remRule(*x, *c + 1, *m, constant);
  }
  auto dim = [&](unsigned d) -> std::tuple<int64_t, int64_t, int64_t> {
    return {1, std::max(elemDiv(lhs, d), elemDiv(rhs, d)),
            std::gcd(lhs.getConstancy(d), rhs.getConstancy(d))};
  };
  return elementwise(lhs.getRank(), dim, constant);
}

/// x | y and x ^ y: only the trailing zeros both sides share survive.
static AxisInfo bitwiseRule(const AxisInfo &lhs, const AxisInfo &rhs,
                            bool isOr) {
  std::optional<int64_t> constant =
      isOr ? foldBinary(lhs, rhs, [](int64_t a, int64_t b) { return a | b; })
           : foldBinary(lhs, rhs, [](int64_t a, int64_t b) { return a ^ b; });
  auto dim = [&](unsigned d) -> std::tuple<int64_t, int64_t, int64_t> {
    return {1, std::min(elemDiv(lhs, d), elemDiv(rhs, d)),
            std::gcd(lhs.getConstancy(d), rhs.getConstancy(d))};
  };
  return elementwise(lhs.getRank(), dim, constant);
}

static bool isTracked(Type type) {
  Type elem = getElementTypeOrSelf(type);
  return elem.isSignlessInteger() || isa<PtrType>(elem) || elem.isIndex();
}

SmallVector<AxisInfo> inferResults(Operation *op, ArrayRef<AxisInfo> operands) {
  SmallVector<AxisInfo> results(op->getNumResults());
  if (op->getNumResults() != 1 || !isTracked(op->getResult(0).getType()))
    return results;
  Type type = op->getResult(0).getType();
  auto lhs = [&] { return operands[0]; };
  auto rhs = [&] { return operands[1]; };
  auto fold = [&](int64_t (*fn)(int64_t, int64_t)) {
    return foldBinary(operands[0], operands[1], fn);
  };
  AxisInfo info =
      llvm::TypeSwitch<Operation *, AxisInfo>(op)
          .Case([&](arith::ConstantOp c) {
            if (auto value = constantOf(c.getValue()))
              return constantInfo(type, *value);
            return AxisInfo();
          })
          .Case([&](arith::AddIOp) { return addRule(lhs(), rhs(), 1, true); })
          .Case([&](AddPtrOp addptr) {
            return addRule(lhs(), rhs(), bytesOf(addptr.getType()), false);
          })
          .Case([&](arith::SubIOp) { return subRule(lhs(), rhs()); })
          .Case([&](arith::MulIOp) {
            return mulRule(lhs(), rhs(), fold([](int64_t a, int64_t b) {
                             return a * b;
                           }));
          })
          .Case<arith::DivSIOp, arith::DivUIOp>([&](Operation *) {
            std::optional<int64_t> c;
            if (rhs().getConstantValue() != 0)
              c = fold([](int64_t a, int64_t b) { return a / b; });
            return divRule(lhs(), rhs(), c);
          })
          .Case<arith::RemSIOp, arith::RemUIOp>([&](Operation *) {
            std::optional<int64_t> c;
            if (rhs().getConstantValue() != 0)
              c = fold([](int64_t a, int64_t b) { return a % b; });
            return remRule(lhs(), rhs().getConstantValue(), rhs(), c);
          })
          .Case([&](arith::ShLIOp) {
            std::optional<int64_t> s = rhs().getConstantValue();
            if (!s || *s < 0 || *s > 30)
              return AxisInfo();
            AxisInfo factor = constantInfo(type, int64_t(1) << *s);
            std::optional<int64_t> c;
            if (lhs().getConstantValue())
              c = *lhs().getConstantValue() << *s;
            return mulRule(lhs(), factor, c);
          })
          .Case<arith::ShRUIOp, arith::ShRSIOp>([&](Operation *) {
            std::optional<int64_t> s = rhs().getConstantValue();
            if (!s || *s < 0 || *s > 30)
              return AxisInfo();
            AxisInfo factor = constantInfo(type, int64_t(1) << *s);
            std::optional<int64_t> c;
            if (lhs().getConstantValue())
              c = *lhs().getConstantValue() >> *s;
            return divRule(lhs(), factor, c);
          })
          .Case([&](arith::AndIOp) { return andRule(lhs(), rhs()); })
          .Case<arith::OrIOp, arith::XOrIOp>([&](Operation *o) {
            return bitwiseRule(lhs(), rhs(), isa<arith::OrIOp>(o));
          })
          .Case([&](arith::CmpIOp cmp) {
            return cmpRule(cmp.getPredicate(), lhs(), rhs(),
                           evalCmp(cmp.getPredicate(), lhs(), rhs()));
          })
          .Case([&](arith::SelectOp) {
            return selectRule(operands[0], operands[1], operands[2]);
          })
          .Case<arith::ExtSIOp, arith::ExtUIOp, arith::TruncIOp,
                arith::IndexCastOp>([&](Operation *) { return lhs(); })
          .Default([&](Operation *o) { return inferBlkOp(o, operands); });
  results[0] = info;
  return results;
}

} // namespace blk::axisinfo
