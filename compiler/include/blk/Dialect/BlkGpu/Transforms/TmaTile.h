//===- TmaTile.h - is a pipelined load a box TMA can copy? -----*- C++ -*-===//
//
// blkgpu-pipeline-loops asks this about each load its ring prefetches on a
// target with TMA: a load written the way Triton's matmul tutorial writes
// it (a pointer argument plus `offs[:, None] * stride + offs[None, :]`,
// advanced each iteration by a multiple of one stride, K masked with
// `offs_k < K - k * BK`, rows wrapped with `% M`), or the way attention
// writes it (a scalar offset of the induction variable added to the
// pointer, a constant row stride, unmasked rows) reads the box of a 2-D
// row-major tensor whose first element is at affine coordinates of the
// induction variable. The answer says which tensor (base, extents, row
// stride: launch-expressible, so libblkrt can encode it), where the box is
// in each iteration, and what must hold at run time for the box to read
// exactly what the load reads (a wrapped dim: the box stays inside it;
// the pipeliner versions the loop on it).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_DIALECT_BLKGPU_TRANSFORMS_TMATILE_H
#define BLK_DIALECT_BLKGPU_TRANSFORMS_TMATILE_H

#include "blk/IR/BlkOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

#include <optional>

namespace blk::gpu {

/// An i32 scalar as `constant + sum(coef * atom)`; atoms are SSA values
/// the decomposition does not look through.
struct Affine {
  llvm::SmallVector<std::pair<mlir::Value, int64_t>, 2> terms;
  int64_t constant = 0;

  static Affine of(int64_t c) { return Affine{{}, c}; }
  /// `v` decomposed through constants, addi, subi and muli by a constant.
  static Affine of(mlir::Value v);
  Affine operator+(const Affine &o) const;
  Affine operator-(const Affine &o) const { return *this + o.scaled(-1); }
  Affine scaled(int64_t k) const;
  /// The product, when one side is a constant.
  std::optional<Affine> times(const Affine &o) const;
  std::optional<int64_t> asConstant() const;
  /// The coefficient of `atom` (0 when absent).
  int64_t coefficient(mlir::Value atom) const;
  /// The value, built with arith ops at `b`'s insertion point.
  mlir::Value build(mlir::OpBuilder &b, mlir::Location loc) const;
};

/// One dim of a TMA box: where it starts in an iteration and how far the
/// tensor extends.
struct TmaDim {
  Affine start;  ///< coordinate of the box's first element (atoms: invariants, the iv)
  Affine extent; ///< elements of the tensor along this dim (atoms: kernel arguments)
  int64_t size = 0; ///< the box's elements along this dim
  /// Set for a `% m` dim: the box reads what the load reads only when
  /// 0 <= start and start + size <= m (m is `extent`).
  bool wrapped = false;
};

/// Extent of a dim nothing bounds (an unmasked load's rows): the load reads
/// whatever it addresses, so the box may too.
constexpr int64_t kUnboundedExtent = (int64_t(1) << 31) - 1;

/// A load TMA can do: the 2-D tensor at `base` ([dims[0]] rows of
/// `rowStride` elements, dims[1] contiguous), one box per iteration.
struct TmaTile {
  mlir::Value base;      ///< a pointer argument, 16-byte aligned
  Affine rowStride; ///< elements (an argument or a constant); a multiple of 16 bytes
  TmaDim dims[2];        ///< (rows, columns) of the tensor
  /// The box is the transpose of the slot the load fills (the slot's rows
  /// are the tensor's columns): TMA writes the slot's transposed view.
  bool transposed = false;
};

/// What `load` (in `loop`'s body, filling a slot of type `slot`, through
/// a `trans` when `throughTrans`) reads, as a TMA box; nullopt when it is
/// not one (the pipeliner then uses cp.async).
std::optional<TmaTile> analyzeTmaTile(LoadOp load, mlir::scf::ForOp loop, bool throughTrans);

} // namespace blk::gpu

#endif // BLK_DIALECT_BLKGPU_TRANSFORMS_TMATILE_H
