//===- BlkReduceOps.cpp - blk.reduce and blk.scan -------------------------===//
//
// Both take N blocks of one shape and a combiner region
// ^bb0(%a0…%aN-1, %b0…%bN-1) over their element types that yields N scalars.
//
//===----------------------------------------------------------------------===//
#include "blk/IR/BlkOps.h"
#include "blk/IR/LayoutInference.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace blk {

Type ReduceOp::getReducedType(Type srcType, int32_t axis) {
  auto tensor = cast<RankedTensorType>(srcType);
  if (tensor.getRank() == 1)
    return tensor.getElementType();
  SmallVector<int64_t> shape(tensor.getShape());
  shape.erase(shape.begin() + axis);
  // A layout the encoding's dialect cannot reduce gives an unencoded type,
  // which the verifier then reports as a mismatch.
  FailureOr<Attribute> enc = inferReduceEncoding(tensor.getEncoding(), axis);
  return RankedTensorType::get(shape, tensor.getElementType(),
                               succeeded(enc) ? *enc : Attribute());
}

/// Creates the combiner block with its 2N arguments; the caller fills it.
static void addCombinerBlock(OperationState &state, ValueRange srcs) {
  Region *region = state.addRegion();
  Block *block = new Block();
  region->push_back(block);
  for (int i = 0; i < 2; ++i)
    for (Value src : srcs)
      block->addArgument(getElementTypeOrSelf(src.getType()), state.location);
}

void ReduceOp::build(OpBuilder &b, OperationState &state, ValueRange srcs,
                     int32_t axis) {
  state.addOperands(srcs);
  state.addAttribute(getAxisAttrName(state.name), b.getI32IntegerAttr(axis));
  for (Value src : srcs)
    state.addTypes(getReducedType(src.getType(), axis));
  addCombinerBlock(state, srcs);
}

void ScanOp::build(OpBuilder &b, OperationState &state, ValueRange srcs,
                   int32_t axis, bool reverse) {
  state.addOperands(srcs);
  state.addAttribute(getAxisAttrName(state.name), b.getI32IntegerAttr(axis));
  state.addAttribute(getReverseAttrName(state.name), b.getBoolAttr(reverse));
  for (Value src : srcs)
    state.addTypes(src.getType());
  addCombinerBlock(state, srcs);
}

/// Operands non-empty, of one shape, axis in range.
static LogicalResult verifyOperands(Operation *op, ValueRange srcs,
                                    int32_t axis) {
  if (srcs.empty())
    return op->emitOpError("needs at least one operand");
  auto first = cast<RankedTensorType>(srcs.front().getType());
  for (Value src : srcs.drop_front())
    if (cast<RankedTensorType>(src.getType()).getShape() != first.getShape())
      return op->emitOpError("operands must have the same shape");
  if (axis < 0 || axis >= first.getRank())
    return op->emitOpError() << "axis " << axis << " out of range for rank "
                             << first.getRank();
  return success();
}

/// The combiner takes 2N element-typed scalars and yields N of them.
static LogicalResult verifyCombiner(Operation *op, Region &region,
                                    ValueRange srcs) {
  Block &block = region.front();
  if (block.empty() || !block.back().hasTrait<OpTrait::IsTerminator>())
    return op->emitOpError("combiner must end in a terminator");
  size_t n = srcs.size();
  if (block.getNumArguments() != 2 * n)
    return op->emitOpError() << "combiner must take " << 2 * n
                             << " arguments, takes "
                             << block.getNumArguments();
  for (size_t i = 0; i < 2 * n; ++i) {
    Type expected = getElementTypeOrSelf(srcs[i % n].getType());
    if (block.getArgument(i).getType() != expected)
      return op->emitOpError() << "combiner argument " << i << " must be "
                               << expected << ", got "
                               << block.getArgument(i).getType();
  }
  Operation *term = block.getTerminator();
  if (term->getNumOperands() != n)
    return op->emitOpError() << "combiner must yield " << n
                             << " value(s), yields " << term->getNumOperands();
  for (size_t i = 0; i < n; ++i) {
    Type expected = getElementTypeOrSelf(srcs[i].getType());
    if (term->getOperand(i).getType() != expected)
      return op->emitOpError() << "combiner result " << i << " must be "
                               << expected << ", got "
                               << term->getOperand(i).getType();
  }
  return success();
}

LogicalResult ReduceOp::verify() {
  if (failed(verifyOperands(*this, getSrcs(), getAxis())))
    return failure();
  if (getNumResults() != getSrcs().size())
    return emitOpError("needs one result per operand");
  for (auto [src, res] : llvm::zip(getSrcs(), getResult())) {
    Type expected = getReducedType(src.getType(), getAxis());
    if (res.getType() != expected)
      return emitOpError() << "result type must be " << expected << ", got "
                           << res.getType();
  }
  return success();
}

LogicalResult ReduceOp::verifyRegions() {
  if (failed(verifyCombiner(*this, getCombineOp(), getSrcs())))
    return failure();
  if (!isa<ReduceReturnOp>(getCombineBlock().getTerminator()))
    return emitOpError("combiner must end in blk.reduce.return");
  return success();
}

LogicalResult ScanOp::verify() {
  if (failed(verifyOperands(*this, getSrcs(), getAxis())))
    return failure();
  if (!llvm::equal(getResultTypes(), getSrcs().getTypes()))
    return emitOpError("result types must equal the operand types");
  return success();
}

LogicalResult ScanOp::verifyRegions() {
  if (failed(verifyCombiner(*this, getCombineOp(), getSrcs())))
    return failure();
  if (!isa<ScanReturnOp>(getCombineBlock().getTerminator()))
    return emitOpError("combiner must end in blk.scan.return");
  return success();
}

} // namespace blk
