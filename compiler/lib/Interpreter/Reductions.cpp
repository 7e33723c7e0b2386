//===- Reductions.cpp - reduce, scan and dot over whole blocks -------------===//
//
// Blocks are viewed as [outer, L, inner] around the reduced axis. Reductions
// combine halves level by level (a fixed pairwise tree, close to the GPU's
// shuffle tree); scans run sequentially along the axis. Each combiner call
// covers every lane of one step, so a region is interpreted log2(L) times for
// a reduce and L times for a scan, never once per element.
//
//===----------------------------------------------------------------------===//
#include "blk/Interpreter/BlockOps.h"

#include <cmath>

namespace blk::interp {

namespace {
struct AxisView {
  int64_t outer = 1, len = 1, inner = 1;
  AxisView(const Shape &shape, int64_t axis) {
    for (int64_t d = 0; d < int64_t(shape.size()); ++d) {
      if (d < axis)
        outer *= shape[d];
      else if (d == axis)
        len = shape[d];
      else
        inner *= shape[d];
    }
  }
};
} // namespace

/// Elements [o, j0..j0+count, i] of `b` (viewed with length `len` along the
/// axis) as a flat block of outer*count*inner lanes.
static Block sliceAxis(const Block &b, const AxisView &v, int64_t len, int64_t j0,
                       int64_t count) {
  Block r;
  r.kind = b.kind;
  r.pointee = b.pointee;
  r.shape = {v.outer * count * v.inner};
  auto copy = [&](auto &dst, const auto &src) {
    dst.resize(size_t(r.shape[0]));
    size_t out = 0;
    for (int64_t o = 0; o < v.outer; ++o) {
      size_t base = size_t((o * len + j0) * v.inner);
      for (size_t k = 0; k < size_t(count * v.inner); ++k)
        dst[out++] = src[base + k];
    }
  };
  if (b.isFloat())
    copy(r.f, b.f);
  else
    copy(r.i, b.i);
  return r;
}

/// Writes flat lanes `src` (outer*count*inner) into `dst` at axis positions
/// j0..j0+count of a view with length `len`.
static void storeAxis(Block &dst, const Block &src, const AxisView &v, int64_t len,
                      int64_t j0, int64_t count) {
  auto copy = [&](auto &d, const auto &s) {
    size_t in = 0;
    for (int64_t o = 0; o < v.outer; ++o) {
      size_t base = size_t((o * len + j0) * v.inner);
      for (size_t k = 0; k < size_t(count * v.inner); ++k)
        d[base + k] = s[in++];
    }
  };
  if (dst.isFloat())
    copy(dst.f, src.f);
  else
    copy(dst.i, src.i);
}

bool reduceAlong(const std::vector<Block> &inputs, int64_t axis,
                 const Combiner &combine, std::vector<Block> &results) {
  const Shape &shape = inputs.front().shape;
  AxisView v(shape, axis);
  std::vector<Block> cur = inputs;
  int64_t len = v.len;
  std::vector<Block> lhs(inputs.size()), rhs(inputs.size()), out;
  while (len > 1) {
    int64_t half = len / 2, newLen = len - half;
    for (size_t k = 0; k < cur.size(); ++k) {
      lhs[k] = sliceAxis(cur[k], v, len, 0, half);
      rhs[k] = sliceAxis(cur[k], v, len, newLen, half);
    }
    out.clear();
    if (!combine(lhs, rhs, out))
      return false;
    for (size_t k = 0; k < cur.size(); ++k) {
      Block next = Block::zeros(cur[k].kind, {v.outer * newLen * v.inner}, cur[k].pointee);
      storeAxis(next, out[k], v, newLen, 0, half);
      if (newLen > half) // odd length: the middle element carries over
        storeAxis(next, sliceAxis(cur[k], v, len, half, 1), v, newLen, half, 1);
      cur[k] = std::move(next);
    }
    len = newLen;
  }
  Shape resShape = shape;
  resShape.erase(resShape.begin() + axis);
  results.clear();
  for (Block &b : cur) {
    b.shape = resShape;
    results.push_back(std::move(b));
  }
  return true;
}

bool scanAlong(const std::vector<Block> &inputs, int64_t axis, bool reverse,
               const Combiner &combine, std::vector<Block> &results) {
  AxisView v(inputs.front().shape, axis);
  results = inputs;
  if (v.len <= 1)
    return true;
  int64_t first = reverse ? v.len - 1 : 0;
  std::vector<Block> acc(inputs.size()), x(inputs.size()), out;
  for (size_t k = 0; k < inputs.size(); ++k)
    acc[k] = sliceAxis(inputs[k], v, v.len, first, 1);
  for (int64_t t = 1; t < v.len; ++t) {
    int64_t j = reverse ? v.len - 1 - t : t;
    for (size_t k = 0; k < inputs.size(); ++k)
      x[k] = sliceAxis(inputs[k], v, v.len, j, 1);
    out.clear();
    if (!combine(acc, x, out))
      return false;
    for (size_t k = 0; k < inputs.size(); ++k)
      storeAxis(results[k], out[k], v, v.len, j, 1);
    acc.swap(out);
  }
  return true;
}

Block dot(const Block &a, const Block &b, const Block &acc) {
  int64_t m = a.shape[0], kDim = a.shape[1], n = b.shape[1];
  Block r = acc;
  if (!acc.isFloat()) {
    // i8 x i8 accumulating in i32 (wrapping).
    for (int64_t i = 0; i < m; ++i)
      for (int64_t k = 0; k < kDim; ++k) {
        int64_t av = a.i[i * kDim + k];
        for (int64_t j = 0; j < n; ++j)
          r.i[i * n + j] = wrapToWidth(32, r.i[i * n + j] + av * b.i[k * n + j]);
      }
    return r;
  }
  if (acc.kind == ElemKind::F64) {
    for (int64_t i = 0; i < m; ++i)
      for (int64_t k = 0; k < kDim; ++k)
        for (int64_t j = 0; j < n; ++j)
          r.f[i * n + j] = std::fma(a.f[i * kDim + k], b.f[k * n + j], r.f[i * n + j]);
    return r;
  }
  // f16/bf16/f32 inputs: one fused multiply-add in f32 per k, k ascending.
  std::vector<float> row(static_cast<size_t>(n));
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j)
      row[j] = float(r.f[i * n + j]);
    for (int64_t k = 0; k < kDim; ++k) {
      float av = float(a.f[i * kDim + k]);
      const double *brow = &b.f[k * n];
      for (int64_t j = 0; j < n; ++j)
        row[j] = std::fmaf(av, float(brow[j]), row[j]);
    }
    for (int64_t j = 0; j < n; ++j)
      r.f[i * n + j] = roundFloat(acc.kind, row[j]);
  }
  return r;
}

} // namespace blk::interp
