//===- TensorMapExpr.cpp - a tensor map's dims as launch expressions ------===//
//
// Test: tests/lit/codegen/tma.test (the manifest of a TMA kernel).
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/Transforms/TensorMapExpr.h"

#include "blk/IR/BlkTypes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace blk::gpu {

std::optional<std::string> launchExpression(Value v) {
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    auto func = dyn_cast<func::FuncOp>(arg.getOwner()->getParentOp());
    if (!func || arg.getOwner() != &func.getBody().front() || !arg.getType().isSignlessInteger())
      return std::nullopt;
    return "{\"param\": " + std::to_string(arg.getArgNumber()) + "}";
  }
  APInt constant;
  if (matchPattern(v, m_ConstantInt(&constant)))
    return "{\"int\": " + std::to_string(constant.getSExtValue()) + "}";
  Operation *def = v.getDefiningOp();
  if (isa_and_nonnull<arith::ExtSIOp>(def))
    return launchExpression(def->getOperand(0));
  const char *op = nullptr;
  if (isa_and_nonnull<arith::AddIOp>(def))
    op = "add";
  else if (isa_and_nonnull<arith::SubIOp>(def))
    op = "sub";
  else if (isa_and_nonnull<arith::MulIOp>(def))
    op = "mul";
  else if (isa_and_nonnull<arith::DivSIOp>(def))
    op = "div";
  else if (isa_and_nonnull<arith::RemSIOp>(def))
    op = "mod";
  else if (isa_and_nonnull<arith::MinSIOp>(def))
    op = "min";
  else if (isa_and_nonnull<arith::MaxSIOp>(def))
    op = "max";
  if (!op)
    return std::nullopt;
  std::optional<std::string> lhs = launchExpression(def->getOperand(0));
  std::optional<std::string> rhs = launchExpression(def->getOperand(1));
  if (!lhs || !rhs)
    return std::nullopt;
  return "{\"op\": \"" + std::string(op) + "\", \"args\": [" + *lhs + ", " + *rhs + "]}";
}

/// The element type's name in the kernel's `blk.param_types` (`*f16` ->
/// `f16`), or the MLIR type's own spelling.
static std::string elementName(func::FuncOp func, unsigned param, Type elem) {
  if (auto types = func->getAttrOfType<ArrayAttr>("blk.param_types"))
    if (param < types.size())
      if (auto name = dyn_cast<StringAttr>(types[param]))
        if (name.getValue().starts_with("*"))
          return name.getValue().drop_front().str();
  std::string text;
  llvm::raw_string_ostream os(text);
  elem.print(os);
  return text;
}

std::optional<target::TensorMapEntry> describeTensorMap(TensorMapOp map) {
  auto base = dyn_cast<BlockArgument>(map.getBase());
  auto func = dyn_cast<func::FuncOp>(map->getParentOp());
  if (!base || !func || base.getOwner() != &func.getBody().front())
    return std::nullopt;
  target::TensorMapEntry out;
  out.param = base.getArgNumber();
  out.elem = elementName(func, out.param, cast<PtrType>(base.getType()).getPointeeType());
  for (Value dim : llvm::reverse(map.getDims())) {
    std::optional<std::string> e = launchExpression(dim);
    if (!e)
      return std::nullopt;
    out.dims.push_back(*e);
  }
  for (Value stride : llvm::reverse(map.getStrides())) {
    std::optional<std::string> e = launchExpression(stride);
    if (!e)
      return std::nullopt;
    out.strides.push_back(*e);
  }
  out.box.assign(map.getBox().rbegin(), map.getBox().rend());
  out.swizzle = map.getSwizzle();
  return out;
}

} // namespace blk::gpu
