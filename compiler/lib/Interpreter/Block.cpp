//===- Block.cpp - block values and shape helpers -------------------------===//
#include "blk/Interpreter/Block.h"

namespace blk::interp {

int64_t numElements(const Shape &shape) {
  int64_t n = 1;
  for (int64_t d : shape)
    n *= d;
  return n;
}

std::string formatShape(const Shape &shape) {
  std::string s = "[";
  for (size_t k = 0; k < shape.size(); ++k)
    s += (k ? ", " : "") + std::to_string(shape[k]);
  return s + "]";
}

std::vector<int64_t> rowMajorStrides(const Shape &shape) {
  std::vector<int64_t> strides(shape.size(), 1);
  for (size_t k = shape.size(); k-- > 1;)
    strides[k - 1] = strides[k] * shape[k];
  return strides;
}

std::string formatIndex(const Shape &shape, int64_t flat) {
  std::vector<int64_t> strides = rowMajorStrides(shape);
  std::string s = "[";
  for (size_t k = 0; k < shape.size(); ++k) {
    s += (k ? ", " : "") + std::to_string(flat / strides[k]);
    flat %= strides[k];
  }
  return s + "]";
}

Block Block::zeros(ElemKind kind, Shape shape, ElemKind pointee) {
  Block b;
  b.kind = kind;
  b.pointee = pointee;
  size_t n = size_t(numElements(shape));
  b.shape = std::move(shape);
  if (isFloatKind(kind))
    b.f.assign(n, 0.0);
  else
    b.i.assign(n, 0);
  return b;
}

Block Block::scalarInt(ElemKind kind, int64_t v) {
  Block b = zeros(kind, {});
  if (b.isFloat())
    b.f[0] = roundFloat(kind, double(v));
  else
    b.i[0] = wrapToWidth(bitWidth(kind), v);
  return b;
}

Block Block::scalarFloat(ElemKind kind, double v) {
  Block b = zeros(kind, {});
  if (b.isFloat())
    b.f[0] = roundFloat(kind, v);
  else
    b.i[0] = wrapToWidth(bitWidth(kind), int64_t(v));
  return b;
}

} // namespace blk::interp
