//===- LayoutReference.cpp - the layout model before linear layouts -------===//
//
// See LayoutReference.h: Layout.cpp at commit 6d2427d, verbatim but for the
// namespace and the layout-choice functions (unchanged, still in Layout.cpp).
//
//===----------------------------------------------------------------------===//
#include "LayoutReference.h"

#include "llvm/ADT/DenseMap.h"

#include <algorithm>

using namespace mlir;

namespace blk::gpu::reference {

constexpr unsigned kWarpSize = 32;

static int64_t product(ArrayRef<int64_t> v) {
  int64_t p = 1;
  for (int64_t x : v)
    p *= x;
  return p;
}

unsigned LayoutView::numElems() const { return product(perDim); }

unsigned LayoutView::numThreads() const {
  unsigned n = 1;
  for (unsigned x : base.getThreadsPerWarp())
    n *= x;
  for (unsigned x : base.getWarpsPerCTA())
    n *= x;
  return n;
}

SmallVector<int64_t> LayoutView::elemOffset(unsigned i) const {
  unsigned r = baseShape.size();
  SmallVector<int64_t> off(r, 0);
  for (int d = r - 1; d >= 0; --d) {
    int64_t l = i % perDim[d];
    i /= perDim[d];
    off[d] = (l / sizeEff[d]) * tile[d] + l % sizeEff[d];
  }
  return off;
}

static unsigned indexAlong(ArrayRef<unsigned> counts, ArrayRef<unsigned> order,
                           unsigned id, unsigned d) {
  unsigned stride = 1;
  for (unsigned o : order) {
    if (o == d)
      return (id / stride) % counts[d];
    stride *= counts[o];
  }
  return 0;
}

unsigned LayoutView::laneIndex(unsigned lane, unsigned d) const {
  return indexAlong(base.getThreadsPerWarp(), base.getOrder(), lane, d);
}

unsigned LayoutView::warpIndex(unsigned warp, unsigned d) const {
  return indexAlong(base.getWarpsPerCTA(), base.getOrder(), warp, d);
}

SmallVector<int64_t> LayoutView::coords(unsigned i, unsigned lane,
                                        unsigned warp) const {
  SmallVector<int64_t> off = elemOffset(i);
  SmallVector<int64_t> own;
  for (unsigned k : kept) {
    int64_t tb = (int64_t(warpIndex(warp, k)) * base.getThreadsPerWarp()[k] +
                  laneIndex(lane, k)) *
                 base.getSizePerThread()[k];
    own.push_back((tb + off[k]) % baseShape[k]);
  }
  return own;
}

static bool isSliced(const LayoutView &v, unsigned d) {
  return llvm::is_contained(v.sliced, d);
}

unsigned LayoutView::distinctLanes(unsigned d) const {
  if (isSliced(*this, d))
    return 1;
  int64_t n = baseShape[d] / base.getSizePerThread()[d];
  return std::clamp<int64_t>(n, 1, base.getThreadsPerWarp()[d]);
}

unsigned LayoutView::distinctWarps(unsigned d) const {
  if (isSliced(*this, d))
    return 1;
  int64_t n = baseShape[d] /
              (int64_t(base.getSizePerThread()[d]) * base.getThreadsPerWarp()[d]);
  return std::clamp<int64_t>(n, 1, base.getWarpsPerCTA()[d]);
}

bool LayoutView::hasReplicas() const {
  for (unsigned d = 0; d < baseShape.size(); ++d)
    if (distinctLanes(d) != base.getThreadsPerWarp()[d] ||
        distinctWarps(d) != base.getWarpsPerCTA()[d])
      return true;
  return false;
}

std::optional<LayoutView> getLayoutView(Attribute encoding,
                                        ArrayRef<int64_t> shape) {
  if (auto blocked = dyn_cast_or_null<BlockedEncodingAttr>(encoding)) {
    if (blocked.getSizePerThread().size() != shape.size())
      return std::nullopt;
    LayoutView v;
    v.base = blocked;
    v.shape.assign(shape.begin(), shape.end());
    v.baseShape = v.shape;
    for (unsigned d = 0; d < shape.size(); ++d) {
      v.kept.push_back(d);
      int64_t spt = blocked.getSizePerThread()[d];
      int64_t t = spt * blocked.getThreadsPerWarp()[d] * blocked.getWarpsPerCTA()[d];
      v.sizeEff.push_back(std::min<int64_t>(spt, shape[d]));
      v.tile.push_back(t);
      v.perDim.push_back(v.sizeEff.back() * std::max<int64_t>(1, shape[d] / t));
    }
    return v;
  }
  if (auto slice = dyn_cast_or_null<SliceEncodingAttr>(encoding)) {
    unsigned dim = slice.getDim();
    if (dim > shape.size())
      return std::nullopt;
    SmallVector<int64_t> parentShape(shape.begin(), shape.end());
    parentShape.insert(parentShape.begin() + dim, 1);
    std::optional<LayoutView> v = getLayoutView(slice.getParent(), parentShape);
    if (!v)
      return std::nullopt;
    v->sliced.push_back(v->kept[dim]);
    v->kept.erase(v->kept.begin() + dim);
    v->shape.assign(shape.begin(), shape.end());
    return v;
  }
  return std::nullopt;
}

static int64_t linearize(ArrayRef<int64_t> c, ArrayRef<int64_t> shape) {
  int64_t lin = 0;
  for (unsigned d = 0; d < shape.size(); ++d)
    lin = lin * shape[d] + c[d];
  return lin;
}

std::optional<SmallVector<unsigned>> getRegisterMapping(
    const LayoutView &src, const LayoutView &dst,
    const std::function<SmallVector<int64_t>(ArrayRef<int64_t>)> &dstToSrc) {
  unsigned threads = src.numThreads();
  if (dst.numThreads() != threads)
    return std::nullopt;
  SmallVector<unsigned> mapping;
  llvm::DenseMap<int64_t, unsigned> held;
  for (unsigned t = 0; t < threads; ++t) {
    unsigned lane = t % kWarpSize, warp = t / kWarpSize;
    held.clear();
    for (unsigned i = 0, e = src.numElems(); i < e; ++i)
      held.try_emplace(linearize(src.coords(i, lane, warp), src.shape), i);
    for (unsigned i = 0, e = dst.numElems(); i < e; ++i) {
      SmallVector<int64_t> sc = dstToSrc(dst.coords(i, lane, warp));
      auto it = held.find(linearize(sc, src.shape));
      if (it == held.end())
        return std::nullopt;
      if (t == 0)
        mapping.push_back(it->second);
      else if (mapping[i] != it->second)
        return std::nullopt;
    }
  }
  return mapping;
}

SmallVector<int64_t> identityCoords(ArrayRef<int64_t> c) {
  return SmallVector<int64_t>(c.begin(), c.end());
}

bool layoutsEquivalent(Attribute a, Attribute b, ArrayRef<int64_t> shape) {
  if (a == b)
    return true;
  std::optional<LayoutView> va = getLayoutView(a, shape);
  std::optional<LayoutView> vb = getLayoutView(b, shape);
  if (!va || !vb || va->numElems() != vb->numElems())
    return false;
  std::optional<SmallVector<unsigned>> m =
      getRegisterMapping(*va, *vb, identityCoords);
  if (!m)
    return false;
  for (unsigned i = 0; i < m->size(); ++i)
    if ((*m)[i] != i)
      return false;
  return true;
}

} // namespace blk::gpu::reference
