//===- LayoutInference.h - result encodings of blk shape ops ----*- C++ -*-===//
//
// blk ops carry tensor types; after layout assignment those types carry an
// encoding attribute of another dialect (blkgpu). The ops whose result type
// is computed from the operand's (expand_dims, trans, reduce) ask that
// dialect for the result's encoding through this interface, as Triton's
// DialectInferLayoutInterface does, so a verified blkgpu module stays
// verifiable and round-trips. Layout-free IR never reaches the interface.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_IR_LAYOUTINFERENCE_H
#define BLK_IR_LAYOUTINFERENCE_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/DialectInterface.h"
#include "mlir/Support/LogicalResult.h"

#include "llvm/ADT/ArrayRef.h"

namespace blk {

/// Implemented by a dialect whose attributes are tensor encodings.
class LayoutInferenceInterface
    : public mlir::DialectInterface::Base<LayoutInferenceInterface> {
public:
  explicit LayoutInferenceInterface(mlir::Dialect *dialect) : Base(dialect) {}

  /// Encoding of expand_dims(src, axis); failure when `src` cannot be
  /// expanded without data movement (the operand must be converted first).
  virtual mlir::FailureOr<mlir::Attribute>
  inferExpandDimsEncoding(mlir::Attribute src, int axis) const = 0;
  /// Encoding of trans(src, order) (result dim i is source dim order[i]).
  virtual mlir::FailureOr<mlir::Attribute>
  inferTransEncoding(mlir::Attribute src, llvm::ArrayRef<int32_t> order) const = 0;
  /// Encoding of a reduction of a rank >= 2 block along `axis`.
  virtual mlir::FailureOr<mlir::Attribute>
  inferReduceEncoding(mlir::Attribute src, int axis) const = 0;
};

/// The helpers the blk ops call: a null encoding gives a null encoding; an
/// encoding whose dialect does not implement the interface, or rejects the
/// operand, gives failure.
mlir::FailureOr<mlir::Attribute> inferExpandDimsEncoding(mlir::Attribute src, int axis);
mlir::FailureOr<mlir::Attribute> inferTransEncoding(mlir::Attribute src,
                                                    llvm::ArrayRef<int32_t> order);
mlir::FailureOr<mlir::Attribute> inferReduceEncoding(mlir::Attribute src, int axis);

} // namespace blk

#endif // BLK_IR_LAYOUTINFERENCE_H
