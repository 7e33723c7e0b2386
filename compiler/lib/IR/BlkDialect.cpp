//===- BlkDialect.cpp - blk dialect registration --------------------------===//
#include "blk/IR/BlkDialect.h"
#include "blk/IR/BlkOps.h"
#include "blk/IR/BlkTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"

#include "llvm/ADT/TypeSwitch.h"

#include "blk/IR/BlkDialect.cpp.inc"

using namespace mlir;

namespace {
/// blk ops have no call-site dependence: any of them may be inlined.
struct BlkInlinerInterface : DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;
  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void blk::BlkDialect::initialize() {
  addInterfaces<BlkInlinerInterface>();
  registerTypes();
  addOperations<
#define GET_OP_LIST
#include "blk/IR/BlkOps.cpp.inc"
      >();
}

/// Folders produce typed attributes; arith.constant holds them.
Operation *blk::BlkDialect::materializeConstant(OpBuilder &builder,
                                                Attribute value, Type type,
                                                Location loc) {
  auto typed = dyn_cast<TypedAttr>(value);
  if (!typed || typed.getType() != type)
    return nullptr;
  if (!arith::ConstantOp::isBuildableWith(typed, type))
    return nullptr;
  return builder.create<arith::ConstantOp>(loc, type, typed);
}
