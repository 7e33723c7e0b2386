//===- AxisInfoBlkRules.cpp - axis info of blk ops and arguments ----------===//
//
// make_range, splat, broadcast, expand_dims, reshape, trans, the hint ops,
// kernel arguments and loop induction variables. See AxisInfoRules.cpp for
// arith ops.
//
//===----------------------------------------------------------------------===//
#include "AxisInfoRules.h"

#include "blk/IR/BlkOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;

namespace blk::axisinfo {

using DimVector = AxisInfo::DimVector;

static AxisInfo makeRange(MakeRangeOp op) {
  int64_t length = op.getEnd() - op.getStart();
  return AxisInfo({length}, {highestPowerOf2Divisor(op.getStart())}, {1});
}

/// Every element is the scalar: constant over the whole block.
static AxisInfo splat(SplatOp op, const AxisInfo &src) {
  if (src.getConstantValue())
    return constantInfo(op.getType(), *src.getConstantValue());
  DimVector shape = latticeShape(op.getType());
  DimVector ones(shape.size(), 1);
  DimVector div(shape.size(), src.getDivisibility(0));
  return AxisInfo(ones, div, shape);
}

/// Stretched dims repeat one element: constant along them.
static AxisInfo broadcast(BroadcastOp op, const AxisInfo &src) {
  ArrayRef<int64_t> from = getShapeOrEmpty(op.getSrc().getType());
  ArrayRef<int64_t> to = getShapeOrEmpty(op.getType());
  DimVector contiguity, divisibility, constancy;
  for (unsigned d = 0; d < to.size(); ++d) {
    bool stretched = from[d] == 1 && to[d] != 1;
    contiguity.push_back(stretched ? 1 : src.getContiguity(d));
    divisibility.push_back(src.getDivisibility(d));
    constancy.push_back(stretched ? to[d] : src.getConstancy(d));
  }
  return AxisInfo(contiguity, divisibility, constancy, src.getConstantValue());
}

/// Insert a size-1 dimension at `axis`.
static AxisInfo insertUnitDim(const AxisInfo &src, unsigned axis) {
  DimVector contiguity = src.getContiguity();
  DimVector divisibility = src.getDivisibility();
  DimVector constancy = src.getConstancy();
  contiguity.insert(contiguity.begin() + axis, 1);
  divisibility.insert(divisibility.begin() + axis, commonElemDiv(src));
  constancy.insert(constancy.begin() + axis, 1);
  return AxisInfo(contiguity, divisibility, constancy, src.getConstantValue());
}

/// Keeps the facts of dims that survive a reshape that only adds or drops
/// size-1 dims; anything else is conservative.
static AxisInfo reshape(ReshapeOp op, const AxisInfo &src) {
  if (src.getConstantValue())
    return constantInfo(op.getType(), *src.getConstantValue());
  ArrayRef<int64_t> from = getShapeOrEmpty(op.getSrc().getType());
  ArrayRef<int64_t> to = getShapeOrEmpty(op.getType());
  SmallVector<unsigned> fromDims, toDims;
  for (unsigned d = 0; d < from.size(); ++d)
    if (from[d] != 1)
      fromDims.push_back(d);
  for (unsigned d = 0; d < to.size(); ++d)
    if (to[d] != 1)
      toDims.push_back(d);
  bool squeezeOnly = fromDims.size() == toDims.size();
  for (unsigned i = 0; squeezeOnly && i < fromDims.size(); ++i)
    squeezeOnly = from[fromDims[i]] == to[toDims[i]];
  int64_t common = commonElemDiv(src);
  DimVector ones(to.size(), 1);
  AxisInfo result(ones, DimVector(to.size(), common), ones);
  if (!squeezeOnly)
    return result;
  DimVector contiguity = ones, divisibility(to.size(), common), constancy = ones;
  for (unsigned i = 0; i < fromDims.size(); ++i) {
    contiguity[toDims[i]] = src.getContiguity(fromDims[i]);
    divisibility[toDims[i]] = src.getDivisibility(fromDims[i]);
    constancy[toDims[i]] = src.getConstancy(fromDims[i]);
  }
  return AxisInfo(contiguity, divisibility, constancy);
}

static AxisInfo trans(TransOp op, const AxisInfo &src) {
  DimVector contiguity, divisibility, constancy;
  for (int32_t d : op.getOrder()) {
    contiguity.push_back(src.getContiguity(d));
    divisibility.push_back(src.getDivisibility(d));
    constancy.push_back(src.getConstancy(d));
  }
  return AxisInfo(contiguity, divisibility, constancy, src.getConstantValue());
}

/// The hints raise a fact to at least the promised value.
static AxisInfo hint(const AxisInfo &src, ArrayRef<int32_t> values,
                     bool isContiguity) {
  DimVector contiguity = src.getContiguity();
  DimVector divisibility = src.getDivisibility();
  DimVector &target = isContiguity ? contiguity : divisibility;
  for (unsigned d = 0; d < target.size() && d < values.size(); ++d)
    target[d] = std::max<int64_t>(target[d], values[d]);
  return AxisInfo(contiguity, divisibility, src.getConstancy(),
                  src.getConstantValue());
}

AxisInfo inferBlkOp(Operation *op, ArrayRef<AxisInfo> operands) {
  return llvm::TypeSwitch<Operation *, AxisInfo>(op)
      .Case([&](MakeRangeOp o) { return makeRange(o); })
      .Case([&](SplatOp o) { return splat(o, operands[0]); })
      .Case([&](BroadcastOp o) { return broadcast(o, operands[0]); })
      .Case([&](ExpandDimsOp o) {
        return insertUnitDim(operands[0], o.getAxis());
      })
      .Case([&](ReshapeOp o) { return reshape(o, operands[0]); })
      .Case([&](TransOp o) { return trans(o, operands[0]); })
      .Case([&](MultipleOfOp o) {
        return hint(operands[0], o.getValues(), /*isContiguity=*/false);
      })
      .Case([&](MaxContiguousOp o) {
        return hint(operands[0], o.getValues(), /*isContiguity=*/true);
      })
      .Default([](Operation *) { return AxisInfo(); });
}

AxisInfo inferFunctionArgument(BlockArgument arg) {
  Type type = arg.getType();
  AxisInfo pessimistic = AxisInfo::getPessimistic(getShapeOrEmpty(type).size());
  auto func = dyn_cast_or_null<func::FuncOp>(arg.getOwner()->getParentOp());
  if (!func || arg.getOwner() != &func.getBody().front() ||
      !isa<IntegerType, PtrType>(type))
    return pessimistic;
  int64_t div = isa<PtrType>(type) ? bytesOf(type) : 1;
  unsigned index = arg.getArgNumber();
  for (StringRef name : {"blk.aligned", "blk.multiple_of"})
    if (auto attr = func.getArgAttrOfType<IntegerAttr>(index, name))
      div = std::max(div, highestPowerOf2Divisor(attr.getInt()));
  return AxisInfo({1}, {div}, {1});
}

AxisInfo inferInductionVariable(const AxisInfo &lb, const AxisInfo &step) {
  return AxisInfo({1}, {std::min(elemDiv(lb, 0), elemDiv(step, 0))}, {1});
}

} // namespace blk::axisinfo
