//===- ValueVariants.h - entries per class of @specialize'd arguments --*- C++ -*-===//
#ifndef BLK_LIB_IRGEN_VALUEVARIANTS_H
#define BLK_LIB_IRGEN_VALUEVARIANTS_H

#include "blk/Sema/Sema.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

namespace blk::irgen {

/// Every class combination of `kernel`'s `@specialize`d parameters that gets
/// its own entry: all but the all-`Any` one (the generic entry), minus the
/// classes a `@multiple_of` hint rules out. Empty without `@specialize`.
llvm::SmallVector<llvm::SmallVector<sema::ValueClass>>
valueVariants(const sema::KernelInfo &kernel);

/// `__v` + one letter per specialised parameter (`1`, `d`: a multiple of
/// 16, `x`: any); "" for the generic entry.
std::string variantSuffix(llvm::ArrayRef<sema::ValueClass> variant);

/// Specialises the emitted `func` for `variant`: a parameter of class `One`
/// is replaced by the constant 1, one of class `MultipleOf16` gets
/// `blk.multiple_of = 16`; marks the func as a variant of `genericEntry`
/// (`blk.variant_of`, `blk.variant_when`) for the manifest.
void applyVariant(mlir::OpBuilder &b, mlir::func::FuncOp func,
                  const sema::KernelInfo &kernel, llvm::StringRef genericEntry,
                  llvm::ArrayRef<sema::ValueClass> variant);

} // namespace blk::irgen

#endif
