//===- BlkTypes.cpp - !blk.ptr and type helpers ---------------------------===//
#include "blk/IR/BlkTypes.h"
#include "blk/IR/BlkDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"

#include "llvm/ADT/TypeSwitch.h"

#define GET_TYPEDEF_CLASSES
#include "blk/IR/BlkTypes.cpp.inc"

using namespace mlir;

void blk::BlkDialect::registerTypes() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "blk/IR/BlkTypes.cpp.inc"
      >();
}

LogicalResult blk::PtrType::verify(function_ref<InFlightDiagnostic()> emitError,
                                   Type pointeeType) {
  if (!pointeeType.isSignlessInteger() && !mlir::isa<FloatType>(pointeeType))
    return emitError() << "pointee of !blk.ptr must be a signless integer or "
                          "float type, got "
                       << pointeeType;
  return success();
}

Type blk::getElementTypeOrSelf(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getElementType();
  return type;
}

Type blk::getSameShape(Type type, Type elem) {
  // The layout encoding (blkgpu IR) is kept: a load's result, a mask and a
  // pointer block share their layout.
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return RankedTensorType::get(tensor.getShape(), elem, tensor.getEncoding());
  return elem;
}

Type blk::getPointeeType(Type ptrLike) {
  auto ptr = dyn_cast<PtrType>(getElementTypeOrSelf(ptrLike));
  if (!ptr)
    return {};
  return getSameShape(ptrLike, ptr.getPointeeType());
}

Type blk::getPointeeOrSelf(Type type) {
  if (Type pointee = getPointeeType(type))
    return pointee;
  return type;
}

Type blk::getI1SameShape(Type type) {
  return getSameShape(type, IntegerType::get(type.getContext(), 1));
}

bool blk::isPtrLike(Type type) {
  return isa<PtrType>(getElementTypeOrSelf(type));
}

llvm::ArrayRef<int64_t> blk::getShapeOrEmpty(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getShape();
  return {};
}
