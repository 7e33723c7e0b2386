//===- ShapeOps.cpp - splat, broadcast, reshape, permute, ranges -----------===//
#include "blk/Interpreter/BlockOps.h"
#include "blk/Interpreter/Memory.h"

namespace blk::interp {

/// Copies `src` elements into a new block of `shape` where element k of the
/// result reads src[index(k)].
template <typename IndexFn>
static Block gather(const Block &src, const Shape &shape, IndexFn index) {
  Block r;
  r.kind = src.kind;
  r.pointee = src.pointee;
  r.shape = shape;
  size_t n = size_t(numElements(shape));
  if (src.isFloat()) {
    r.f.resize(n);
    for (size_t k = 0; k < n; ++k)
      r.f[k] = src.f[index(k)];
  } else {
    r.i.resize(n);
    for (size_t k = 0; k < n; ++k)
      r.i[k] = src.i[index(k)];
  }
  return r;
}

Block splat(const Block &scalar, const Shape &shape) {
  return gather(scalar, shape, [](size_t) { return size_t(0); });
}

Block broadcastTo(const Block &a, const Shape &shape) {
  if (a.shape == shape)
    return a;
  if (a.size() == 1)
    return splat(a, shape);
  // Source strides, 0 along stretched dimensions.
  std::vector<int64_t> srcStrides = rowMajorStrides(a.shape);
  std::vector<int64_t> dstStrides = rowMajorStrides(shape);
  size_t rank = shape.size();
  for (size_t d = 0; d < rank; ++d)
    if (a.shape[d] == 1 && shape[d] != 1)
      srcStrides[d] = 0;
  return gather(a, shape, [&](size_t k) {
    size_t src = 0, rem = k;
    for (size_t d = 0; d < rank; ++d) {
      src += (rem / dstStrides[d]) * srcStrides[d];
      rem %= dstStrides[d];
    }
    return src;
  });
}

Block reshape(Block a, const Shape &shape) {
  a.shape = shape;
  return a;
}

Block expandDims(Block a, int64_t axis) {
  a.shape.insert(a.shape.begin() + axis, 1);
  return a;
}

Block permute(const Block &a, const std::vector<int64_t> &order) {
  size_t rank = a.shape.size();
  Shape shape(rank);
  std::vector<int64_t> srcStrides = rowMajorStrides(a.shape), strides(rank);
  for (size_t d = 0; d < rank; ++d) {
    shape[d] = a.shape[order[d]];
    strides[d] = srcStrides[order[d]];
  }
  if (rank == 2) { // the common trans: two plain loops
    int64_t cols = shape[1];
    return gather(a, shape, [&](size_t k) {
      return size_t((int64_t(k) / cols) * strides[0] + (int64_t(k) % cols) * strides[1]);
    });
  }
  std::vector<int64_t> dstStrides = rowMajorStrides(shape);
  return gather(a, shape, [&](size_t k) {
    size_t src = 0, rem = k;
    for (size_t d = 0; d < rank; ++d) {
      src += (rem / dstStrides[d]) * strides[d];
      rem %= dstStrides[d];
    }
    return src;
  });
}

Block makeRange(int64_t start, int64_t end) {
  Block r = Block::zeros(ElemKind::I32, {end - start});
  for (int64_t k = 0; k < end - start; ++k)
    r.i[k] = wrapToWidth(32, start + k);
  return r;
}

Block addPtr(const Block &ptrs, const Block &offsets) {
  Block r;
  r.kind = ElemKind::Ptr;
  r.pointee = ptrs.pointee;
  r.shape = ptrs.size() >= offsets.size() ? ptrs.shape : offsets.shape;
  size_t n = std::max(ptrs.size(), offsets.size());
  r.i.resize(n);
  int64_t size = byteSize(ptrs.pointee); // pointers hold byte offsets
  const int64_t *p = ptrs.i.data(), *o = offsets.i.data();
  if (ptrs.size() == n && offsets.size() == n)
    for (size_t k = 0; k < n; ++k)
      r.i[k] = offsetPointer(p[k], o[k], size);
  else if (ptrs.size() == 1)
    for (size_t k = 0; k < n; ++k)
      r.i[k] = offsetPointer(p[0], o[k], size);
  else
    for (size_t k = 0; k < n; ++k)
      r.i[k] = offsetPointer(p[k], o[0], size);
  return r;
}

} // namespace blk::interp
