//===- Block.h - the interpreter's value: a whole block of elements -*- C++ -*-===//
//
// Every IR value the interpreter holds is a Block: a shape (empty for a
// scalar), an element kind and contiguous row-major storage. Floats are kept
// in `f` as doubles already rounded to the kind; integers and pointers in `i`
// in canonical form (ElemType.h, Memory.h). Operations work on whole blocks
// (BlockOps.h), never element by element through the IR.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_INTERPRETER_BLOCK_H
#define BLK_INTERPRETER_BLOCK_H

#include "blk/Interpreter/ElemType.h"

#include <cstddef>
#include <vector>

namespace blk::interp {

/// A block shape; empty means scalar.
using Shape = std::vector<int64_t>;

/// Number of elements of `shape` (1 for a scalar).
int64_t numElements(const Shape &shape);
/// "[4, 8]" ("[]" for a scalar).
std::string formatShape(const Shape &shape);
/// Row-major strides of `shape`.
std::vector<int64_t> rowMajorStrides(const Shape &shape);
/// "[i, j]" index of flat element `flat` in `shape` ("[]" for a scalar).
std::string formatIndex(const Shape &shape, int64_t flat);

/// A scalar or block value.
struct Block {
  ElemKind kind = ElemKind::I32;
  /// Element kind pointed to, for kind == Ptr.
  ElemKind pointee = ElemKind::I32;
  Shape shape;
  std::vector<double> f;
  std::vector<int64_t> i;

  /// A zero-filled block.
  static Block zeros(ElemKind kind, Shape shape, ElemKind pointee = ElemKind::I32);
  /// A scalar integer of kind `kind` (wrapped to its width).
  static Block scalarInt(ElemKind kind, int64_t v);
  /// A scalar float of kind `kind` (rounded to it).
  static Block scalarFloat(ElemKind kind, double v);

  bool isFloat() const { return isFloatKind(kind); }
  bool isScalar() const { return shape.empty(); }
  /// Number of stored elements.
  size_t size() const { return isFloat() ? f.size() : i.size(); }
  /// Element `k` as a double (integers as signed values).
  double asDouble(size_t k) const { return isFloat() ? f[k] : double(i[k]); }
  /// Element `k` of an integer or pointer block.
  int64_t asInt(size_t k) const { return isFloat() ? int64_t(f[k]) : i[k]; }
  /// True if element `k` is non-zero (masks, conditions).
  bool truth(size_t k) const { return isFloat() ? f[k] != 0.0 : i[k] != 0; }
};

} // namespace blk::interp

#endif // BLK_INTERPRETER_BLOCK_H
