//===- AxisInfoRules.h - transfer functions of the axis info ----*- C++ -*-===//
//
// Private to the axis info analysis (AxisInfo.cpp drives the data-flow
// solver; AxisInfoRules.cpp says what each op does to the facts).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LIB_TRANSFORMS_AXISINFORULES_H
#define BLK_LIB_TRANSFORMS_AXISINFORULES_H

#include "blk/Analysis/AxisInfo.h"

#include "llvm/ADT/ArrayRef.h"

namespace blk::axisinfo {

/// Facts about the results of `op` given facts about its operands (all
/// initialized). Returns one AxisInfo per result; an uninitialized entry
/// means "pessimistic".
llvm::SmallVector<AxisInfo> inferResults(mlir::Operation *op,
                                         llvm::ArrayRef<AxisInfo> operands);

/// Facts about a function argument from its `blk.aligned` /
/// `blk.multiple_of` attributes (pointers are at least element-aligned).
AxisInfo inferFunctionArgument(mlir::BlockArgument arg);

/// Facts about a loop induction variable `lb + i * step`.
AxisInfo inferInductionVariable(const AxisInfo &lb, const AxisInfo &step);

/// Facts about the result of a blk op (make_range, splat, broadcast,
/// expand_dims, reshape, trans, hints); uninitialized when not handled.
AxisInfo inferBlkOp(mlir::Operation *op, llvm::ArrayRef<AxisInfo> operands);

/// Facts of a value of `type` whose every element equals `c`.
AxisInfo constantInfo(mlir::Type type, int64_t c);

/// Divisibility of every single element along `d` (not just run starts).
int64_t elemDiv(const AxisInfo &x, unsigned d);

/// Divisibility every element of `x` shares (for new size-1 dimensions).
int64_t commonElemDiv(const AxisInfo &x);

/// Dimension sizes as the lattice sees them (scalars: one dim of 1).
AxisInfo::DimVector latticeShape(mlir::Type type);

/// Element size in bytes of a pointer (block) type.
int64_t bytesOf(mlir::Type ptrLike);

/// a * b, saturating at AxisInfo::kMaxDivisibility.
int64_t mulCapped(int64_t a, int64_t b);

/// Largest power of two dividing `v` (kMaxDivisibility for 0).
int64_t highestPowerOf2Divisor(int64_t v);

/// Number of dimensions the lattice uses for values of `type` (>= 1).
unsigned latticeRank(mlir::Type type);

} // namespace blk::axisinfo

#endif // BLK_LIB_TRANSFORMS_AXISINFORULES_H
