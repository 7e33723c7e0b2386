//===- Layout.cpp - what a layout encoding means --------------------------===//
//
// See Layout.h. Pure functions over attributes; no IR is changed here. The
// answers about which thread holds which element come from LinearLayout.
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/IR/Layout.h"
#include "blk/Support/ConfigAttrs.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinAttributes.h"

#include <algorithm>

using namespace mlir;

namespace blk::gpu {

unsigned LayoutView::numThreads() const {
  return linear.getInSize(InDim::Lane) * linear.getInSize(InDim::Warp);
}

SmallVector<int64_t> LayoutView::elemOffset(unsigned i) const {
  SmallVector<int64_t> off(baseShape.size(), 0);
  for (auto [j, c] : llvm::enumerate(linear.apply(i, 0, 0)))
    off[kept[j]] = c;
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
  return linear.apply(i, lane, warp);
}

/// 2^(bits of `in` that move along base dim d); 1 for a sliced dim.
static unsigned distinctAlong(const LayoutView &v, InDim in, unsigned d) {
  const unsigned *own = llvm::find(v.kept, d);
  if (own == v.kept.end())
    return 1;
  return 1u << llvm::popcount(v.linear.getMaskAlong(in, own - v.kept.begin()));
}

unsigned LayoutView::distinctLanes(unsigned d) const {
  return distinctAlong(*this, InDim::Lane, d);
}

unsigned LayoutView::distinctWarps(unsigned d) const {
  return distinctAlong(*this, InDim::Warp, d);
}

bool LayoutView::hasReplicas() const {
  return linear.getFreeMask(InDim::Lane) != 0 ||
         linear.getFreeMask(InDim::Warp) != 0;
}

/// The blocked base of `encoding` with the bookkeeping of its slices;
/// `linear` is filled in by getLayoutView.
static std::optional<LayoutView> getBaseView(Attribute encoding,
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
      v.sizeEff.push_back(
          std::min<int64_t>(blocked.getSizePerThread()[d], shape[d]));
    }
    return v;
  }
  if (auto mma = dyn_cast_or_null<MmaEncodingAttr>(encoding)) {
    // No blocked base (`base` is null): every query reads the linear layout.
    // A thread's runs are the column pairs of its fragments.
    if (shape.size() != 2)
      return std::nullopt;
    LayoutView v;
    v.shape.assign(shape.begin(), shape.end());
    v.baseShape = v.shape;
    v.kept = {0, 1};
    v.sizeEff = {1, std::min<int64_t>(2, shape[1])};
    return v;
  }
  if (auto slice = dyn_cast_or_null<SliceEncodingAttr>(encoding)) {
    unsigned dim = slice.getDim();
    std::optional<SmallVector<int64_t>> parentShape = getSliceParentShape(dim, shape);
    if (!parentShape)
      return std::nullopt;
    std::optional<LayoutView> v = getBaseView(slice.getParent(), *parentShape);
    if (!v)
      return std::nullopt;
    v->sliced.push_back(v->kept[dim]);
    v->kept.erase(v->kept.begin() + dim);
    v->shape.assign(shape.begin(), shape.end());
    return v;
  }
  return std::nullopt;
}

std::optional<LayoutView> getLayoutView(Attribute encoding,
                                        ArrayRef<int64_t> shape) {
  std::optional<LayoutView> v = getBaseView(encoding, shape);
  std::optional<LinearLayout> linear = toLinearLayout(encoding, shape);
  if (!v || !linear)
    return std::nullopt;
  v->linear = std::move(*linear);
  // Register bits are row-major over the base dims, each along one dim.
  v->perDim.assign(v->baseShape.size(), 1);
  for (auto [j, d] : llvm::enumerate(v->kept))
    v->perDim[d] =
        1 << llvm::popcount(v->linear.getMaskAlong(InDim::Register, j));
  return v;
}

Attribute getEncoding(Type type) {
  if (auto tensor = dyn_cast<RankedTensorType>(type))
    return tensor.getEncoding();
  return {};
}

RankedTensorType withEncoding(Type type, Attribute encoding) {
  auto tensor = cast<RankedTensorType>(type);
  return RankedTensorType::get(tensor.getShape(), tensor.getElementType(),
                               encoding);
}

unsigned getNumWarps(Operation *op) {
  auto func = dyn_cast<func::FuncOp>(op);
  if (!func)
    func = op->getParentOfType<func::FuncOp>();
  if (func)
    if (auto attr = func->getAttrOfType<IntegerAttr>("blk.num_warps"))
      return std::max<int64_t>(1, attr.getInt());
  return 4;
}

unsigned getProgramsPerSm(Operation *op) {
  auto func = dyn_cast<func::FuncOp>(op);
  if (!func)
    func = op->getParentOfType<func::FuncOp>();
  if (func)
    if (auto attr = func->getAttrOfType<IntegerAttr>(blk::kProgramsPerSmAttr))
      return std::max<int64_t>(1, attr.getInt());
  return 1;
}

BlockedEncodingAttr getBlockedLayout(MLIRContext *ctx, ArrayRef<int64_t> shape,
                                     unsigned numWarps, ArrayRef<unsigned> order,
                                     unsigned vec) {
  unsigned rank = shape.size();
  SmallVector<unsigned> spt(rank, 1), tpw(rank, 1), wpc(rank, 1);
  spt[order[0]] = std::max<int64_t>(1, std::min<int64_t>(vec, shape[order[0]]));
  unsigned lanes = kWarpSize;
  for (unsigned d : order) {
    int64_t want = std::max<int64_t>(1, shape[d] / spt[d]);
    tpw[d] = std::min<int64_t>(want, lanes);
    lanes /= tpw[d];
  }
  tpw[order.back()] *= lanes;
  unsigned warps = numWarps;
  for (unsigned d : order) {
    int64_t want = std::max<int64_t>(1, shape[d] / (int64_t(spt[d]) * tpw[d]));
    wpc[d] = std::min<int64_t>(want, warps);
    warps /= wpc[d];
  }
  wpc[order.back()] *= warps;
  return BlockedEncodingAttr::get(ctx, spt, tpw, wpc, order);
}

BlockedEncodingAttr getTransposedLayout(BlockedEncodingAttr src, ArrayRef<int32_t> perm) {
  SmallVector<unsigned> spt, tpw, wpc, order;
  for (int32_t p : perm) {
    spt.push_back(src.getSizePerThread()[p]);
    tpw.push_back(src.getThreadsPerWarp()[p]);
    wpc.push_back(src.getWarpsPerCTA()[p]);
  }
  for (unsigned o : src.getOrder())
    order.push_back(std::find(perm.begin(), perm.end(), int32_t(o)) - perm.begin());
  return BlockedEncodingAttr::get(src.getContext(), spt, tpw, wpc, order);
}

BlockedEncodingAttr getDefaultLayout(MLIRContext *ctx, ArrayRef<int64_t> shape,
                                     unsigned numWarps) {
  SmallVector<unsigned> order;
  for (int d = shape.size() - 1; d >= 0; --d)
    order.push_back(d);
  return getBlockedLayout(ctx, shape, numWarps, order, 1);
}

std::optional<SmallVector<unsigned>> getRegisterMapping(
    const LayoutView &src, const LayoutView &dst,
    const std::function<SmallVector<int64_t>(ArrayRef<int64_t>)> &dstToSrc) {
  return getRegisterMapping(src.linear,
                            dst.linear.mapOutputs(dstToSrc, src.shape));
}

SmallVector<int64_t> identityCoords(ArrayRef<int64_t> c) {
  return SmallVector<int64_t>(c.begin(), c.end());
}

bool layoutsEquivalent(Attribute a, Attribute b, ArrayRef<int64_t> shape) {
  if (a == b)
    return true;
  std::optional<LinearLayout> la = toLinearLayout(a, shape);
  std::optional<LinearLayout> lb = toLinearLayout(b, shape);
  return la && lb && *la == *lb;
}

} // namespace blk::gpu
