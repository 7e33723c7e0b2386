//===- BlkTypes.h - blk dialect types ---------------------------*- C++ -*-===//
#ifndef BLK_IR_BLKTYPES_H
#define BLK_IR_BLKTYPES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#define GET_TYPEDEF_CLASSES
#include "blk/IR/BlkTypes.h.inc"

namespace blk {

/// The element type of a scalar or block type (the type itself for scalars).
mlir::Type getElementTypeOrSelf(mlir::Type type);

/// ptr<T> -> T and tensor<S x ptr<T>> -> tensor<S x T>; null otherwise.
mlir::Type getPointeeType(mlir::Type ptrLike);

/// getPointeeType, or `type` itself when it is not pointer-like (used by the
/// ODS type inference so that bad input reaches the verifier, not a crash).
mlir::Type getPointeeOrSelf(mlir::Type type);

/// i1 for scalars, tensor<S x i1> for tensor<S x …>.
mlir::Type getI1SameShape(mlir::Type type);

/// `type` with its element type replaced by `elem` (keeps the shape).
mlir::Type getSameShape(mlir::Type type, mlir::Type elem);

/// True for !blk.ptr<T> and blocks of them.
bool isPtrLike(mlir::Type type);

/// Shape of a block, empty for scalars.
llvm::ArrayRef<int64_t> getShapeOrEmpty(mlir::Type type);

/// f8E4M3FN or f8E5M2: blk's `f8e4m3` / `f8e5m2` (docs/language.md §10.9).
inline bool isFp8Type(mlir::Type t) { return t.isFloat8E4M3FN() || t.isFloat8E5M2(); }

} // namespace blk

#endif // BLK_IR_BLKTYPES_H
