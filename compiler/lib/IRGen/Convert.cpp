//===- Convert.cpp - types, constants, conversions, broadcasting ----------===//
//
// blk's types map onto MLIR as docs/ir.md says: unsigned kinds are signless
// integers of the same width (the unsigned arith ops carry the sign),
// pointers are !blk.ptr<T>, blocks ranked tensors. Implicit conversions and
// NumPy broadcasting, which Sema only records, are made explicit here.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "blk/IR/BlkOps.h"
#include "blk/Support/Fp8.h"
#include "blk/Support/InternalError.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace blk::irgen {

void ice(const std::string &message) { internalError("IRGen", message); }

void setInsertionPointToBodyEnd(OpBuilder &builder, Block *block) {
  if (!block->empty() && block->back().hasTrait<OpTrait::IsTerminator>())
    builder.setInsertionPoint(&block->back());
  else
    builder.setInsertionPointToEnd(block);
}

void yieldValues(OpBuilder &builder, Block *block, ValueRange values,
                 Location loc) {
  if (!block->empty() && block->back().hasTrait<OpTrait::IsTerminator>())
    return;
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(block);
  builder.create<scf::YieldOp>(loc, values);
}

Location Emitter::loc(const ast::Node *node) {
  if (!node || !node->getBegin().isValid())
    return b.getUnknownLoc();
  SourceLoc begin = node->getBegin();
  LineCol lc = sm.getLineCol(begin);
  return FileLineColLoc::get(b.getContext(), sm.getPath(begin.file), lc.line,
                             lc.col);
}

Type Emitter::scalarType(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::F16: return b.getF16Type();
  case ScalarKind::BF16: return b.getBF16Type();
  case ScalarKind::F32: return b.getF32Type();
  case ScalarKind::F64: return b.getF64Type();
  case ScalarKind::F8E4M3: return b.getFloat8E4M3FNType();
  case ScalarKind::F8E5M2: return b.getFloat8E5M2Type();
  default: return b.getIntegerType(sema::bitWidth(kind));
  }
}

Type Emitter::lowerType(const sema::Type &type) {
  if (!type.isValue())
    ice("no MLIR type for `" + type.str() + "`");
  Type elem = scalarType(type.elem());
  if (type.elemIsPointer())
    elem = PtrType::get(elem);
  if (type.shape().empty())
    return elem;
  return RankedTensorType::get(type.shape(), elem);
}

Value Emitter::intConstant(int64_t value, Type type, Location loc) {
  auto attr = IntegerAttr::get(
      type, APInt(type.getIntOrFloatBitWidth(), static_cast<uint64_t>(value)));
  return b.create<arith::ConstantOp>(loc, type, attr);
}

Value Emitter::constant(const sema::ConstValue &value, ScalarKind kind,
                        const Shape &shape, Location loc) {
  Type elem = scalarType(kind);
  TypedAttr attr;
  if (sema::isFp8(kind)) // rounded and saturated as the run-time conversion is
    attr = FloatAttr::get(elem, roundToFp8(kind == ScalarKind::F8E4M3 ? Fp8Format::E4M3
                                                                      : Fp8Format::E5M2,
                                           value.getFloat()));
  else if (sema::isFloat(kind))
    attr = FloatAttr::get(elem, value.getFloat());
  else if (kind == ScalarKind::I1)
    attr = IntegerAttr::get(elem, APInt(1, value.getBool() ? 1 : 0));
  else // a float constant saturates as the run-time conversion does
    attr = IntegerAttr::get(elem, APInt(elem.getIntOrFloatBitWidth(),
                                        static_cast<uint64_t>(
                                            sema::convertConst(value, kind).getInt())));
  if (shape.empty())
    return b.create<arith::ConstantOp>(loc, elem, attr);
  auto type = RankedTensorType::get(shape, elem);
  return b.create<arith::ConstantOp>(loc, type,
                                     DenseElementsAttr::get(type, attr));
}

Value Emitter::convert(Value v, ScalarKind from, ScalarKind to, Location loc) {
  Type fromElem = scalarType(from), toElem = scalarType(to);
  if (fromElem == toElem)
    return v;
  Type resultType = getSameShape(v.getType(), toElem);
  // Integers and fp8 meet through f32, which holds every fp8 value and every
  // integer that does not saturate fp8 anyway (|x| < 2^24).
  if ((sema::isFp8(from) && !sema::isFloat(to)) || (sema::isFp8(to) && !sema::isFloat(from)))
    return convert(convert(v, from, ScalarKind::F32, loc), ScalarKind::F32, to, loc);
  if (to == ScalarKind::I1)
    return toCondition(v, from, loc);
  unsigned fromBits = sema::bitWidth(from), toBits = sema::bitWidth(to);
  bool fromUnsigned = from == ScalarKind::I1 || sema::isUnsigned(from);
  if (sema::isFloat(from) && sema::isFloat(to)) {
    if (fromBits == toBits) { // f16 <-> bf16 goes through f32
      Value wide = convert(v, from, ScalarKind::F32, loc);
      return convert(wide, ScalarKind::F32, to, loc);
    }
    if (fromBits < toBits)
      return b.create<arith::ExtFOp>(loc, resultType, v);
    return b.create<arith::TruncFOp>(loc, resultType, v);
  }
  if (!sema::isFloat(from) && sema::isFloat(to)) {
    if (fromUnsigned)
      return b.create<arith::UIToFPOp>(loc, resultType, v);
    return b.create<arith::SIToFPOp>(loc, resultType, v);
  }
  if (sema::isFloat(from)) {
    if (sema::isUnsigned(to))
      return b.create<arith::FPToUIOp>(loc, resultType, v);
    return b.create<arith::FPToSIOp>(loc, resultType, v);
  }
  if (fromBits < toBits) {
    if (fromUnsigned)
      return b.create<arith::ExtUIOp>(loc, resultType, v);
    return b.create<arith::ExtSIOp>(loc, resultType, v);
  }
  return b.create<arith::TruncIOp>(loc, resultType, v);
}

Value Emitter::pointerOffset(Value off, ScalarKind kind, bool subtract, Location loc) {
  if ((kind == ScalarKind::I1 || sema::isUnsigned(kind)) && sema::bitWidth(kind) < 64) {
    off = convert(off, kind, ScalarKind::U64, loc);
    kind = ScalarKind::I64;
  }
  if (!subtract)
    return off;
  Value zero = constant(sema::ConstValue::integer(0), kind,
                        getShapeOrEmpty(off.getType()).vec(), loc);
  return b.create<arith::SubIOp>(loc, zero, off);
}

Value Emitter::toCondition(Value v, ScalarKind kind, Location loc) {
  if (kind == ScalarKind::I1)
    return v;
  Value zero = constant(sema::ConstValue::integer(0), kind,
                        getShapeOrEmpty(v.getType()).vec(), loc);
  if (sema::isFloat(kind))
    return b.create<arith::CmpFOp>(loc, arith::CmpFPredicate::UNE, v, zero);
  return b.create<arith::CmpIOp>(loc, arith::CmpIPredicate::ne, v, zero);
}

Value Emitter::broadcastTo(Value v, const Shape &shape, Location loc) {
  ArrayRef<int64_t> current = getShapeOrEmpty(v.getType());
  if (current == ArrayRef<int64_t>(shape))
    return v;
  Type elem = getElementTypeOrSelf(v.getType());
  if (shape.empty())
    ice("cannot broadcast a block to a scalar");
  if (current.empty())
    return b.create<SplatOp>(loc, RankedTensorType::get(shape, elem), v);
  if (current.size() > shape.size())
    ice("cannot broadcast to a lower rank");
  // Align from the right: new leading dimensions of 1.
  while (getShapeOrEmpty(v.getType()).size() < shape.size())
    v = b.create<ExpandDimsOp>(loc, v, 0);
  if (getShapeOrEmpty(v.getType()) == ArrayRef<int64_t>(shape))
    return v;
  for (auto [have, want] : llvm::zip(getShapeOrEmpty(v.getType()), shape))
    if (have != want && have != 1)
      ice("shapes do not broadcast");
  return b.create<BroadcastOp>(loc, RankedTensorType::get(shape, elem), v);
}

} // namespace blk::irgen
