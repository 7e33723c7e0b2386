//===- LayoutInference.cpp - dispatch to the encoding's dialect -----------===//
#include "blk/IR/LayoutInference.h"

#include "mlir/IR/Dialect.h"

using namespace mlir;

namespace blk {

static const LayoutInferenceInterface *interfaceFor(Attribute encoding) {
  return dyn_cast<LayoutInferenceInterface>(&encoding.getDialect());
}

/// A null encoding infers a null one; an encoding whose dialect does not
/// implement the interface, none.
template <typename Fn>
static FailureOr<Attribute> infer(Attribute src, Fn &&fn) {
  if (!src)
    return Attribute();
  if (const LayoutInferenceInterface *iface = interfaceFor(src))
    return fn(*iface);
  return failure();
}

FailureOr<Attribute> inferExpandDimsEncoding(Attribute src, int axis) {
  return infer(src, [&](const LayoutInferenceInterface &i) {
    return i.inferExpandDimsEncoding(src, axis);
  });
}

FailureOr<Attribute> inferTransEncoding(Attribute src, ArrayRef<int32_t> order) {
  return infer(src, [&](const LayoutInferenceInterface &i) {
    return i.inferTransEncoding(src, order);
  });
}

FailureOr<Attribute> inferReduceEncoding(Attribute src, int axis) {
  return infer(src, [&](const LayoutInferenceInterface &i) {
    return i.inferReduceEncoding(src, axis);
  });
}

} // namespace blk
