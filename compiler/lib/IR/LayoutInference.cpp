//===- LayoutInference.cpp - dispatch to the encoding's dialect -----------===//
#include "blk/IR/LayoutInference.h"

#include "mlir/IR/Dialect.h"

using namespace mlir;

namespace blk {

static const LayoutInferenceInterface *interfaceFor(Attribute encoding) {
  return dyn_cast<LayoutInferenceInterface>(&encoding.getDialect());
}

FailureOr<Attribute> inferExpandDimsEncoding(Attribute src, int axis) {
  if (!src)
    return Attribute();
  if (const LayoutInferenceInterface *iface = interfaceFor(src))
    return iface->inferExpandDimsEncoding(src, axis);
  return failure();
}

FailureOr<Attribute> inferTransEncoding(Attribute src, ArrayRef<int32_t> order) {
  if (!src)
    return Attribute();
  if (const LayoutInferenceInterface *iface = interfaceFor(src))
    return iface->inferTransEncoding(src, order);
  return failure();
}

FailureOr<Attribute> inferReduceEncoding(Attribute src, int axis) {
  if (!src)
    return Attribute();
  if (const LayoutInferenceInterface *iface = interfaceFor(src))
    return iface->inferReduceEncoding(src, axis);
  return failure();
}

} // namespace blk
