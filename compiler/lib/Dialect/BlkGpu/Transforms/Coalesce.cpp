//===- Coalesce.cpp - --blkgpu-coalesce -----------------------------------===//
//
// Expects: access hints on the block loads/stores/atomics.
// Guarantees: each carries `blkgpu.layout`, a blocked layout whose order starts at the most contiguous dim
// and whose sizePerThread there is the widest vector (<= 16 bytes) that
// contiguity, alignment and mask constancy allow, without leaving threads
// idle (Triton's coalesce rule, except that neither a mask nor unproven
// alignment narrows it: the emitter tests those at run time); on a wgmma
// target, tf32 dot operands get the layout tf32OperandLayout describes.
// Tests: tests/lit/blkgpu/coalesce.mlir,
// tests/lit/codegen/layouts-coalesce.mlir.
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/Transforms/Coalesce.h"

#include "blk/Dialect/BlkGpu/IR/Layout.h"
#include "blk/Dialect/BlkGpu/Transforms/Passes.h"
#include "blk/IR/BlkOps.h"

#include <algorithm>
#include <numeric>

using namespace mlir;

namespace blk::gpu {

#define GEN_PASS_DEF_COALESCE
#include "blk/Dialect/BlkGpu/Transforms/Passes.h.inc"

unsigned getMemoryElemBits(Operation *memOp) {
  Type elem = blk::getElementTypeOrSelf(memOp->getOperand(0).getType());
  Type pointee = cast<PtrType>(elem).getPointeeType();
  unsigned bits = pointee.getIntOrFloatBitWidth();
  return std::max(bits, 8u);
}

unsigned getVectorWidth(const AccessHints &hints, unsigned dim,
                        unsigned elemBits, bool masked) {
  int64_t elemBytes = elemBits / 8;
  int64_t vec = std::max<int64_t>(1, 128 / elemBits);
  vec = std::min(vec, std::max<int64_t>(1, hints.contiguity[dim]));
  vec = std::min(vec, std::max<int64_t>(1, hints.alignBytes[dim] / elemBytes));
  if (masked)
    vec = std::min(vec, std::max<int64_t>(1, hints.maskConstancy[dim]));
  // Powers of two only: PTX vectors are v2/v4.
  int64_t p = 1;
  while (p * 2 <= vec)
    p *= 2;
  return p;
}

BlockedEncodingAttr getCoalescedLayout(Operation *memOp, unsigned numWarps) {
  auto type = cast<RankedTensorType>(memOp->getOperand(0).getType());
  ArrayRef<int64_t> shape = type.getShape();
  unsigned rank = shape.size();
  AccessHints hints = getAccessHints(memOp);
  // Most contiguous dim first; ties keep the row-major preference.
  SmallVector<unsigned> order;
  for (int d = rank - 1; d >= 0; --d)
    order.push_back(d);
  std::stable_sort(order.begin(), order.end(), [&](unsigned a, unsigned b) {
    return hints.contiguity[a] > hints.contiguity[b];
  });
  unsigned vec = 1;
  // Atomics stay scalar: PTX has no general vector atomics. The mask does
  // not limit the layout: where it varies inside a vector the emitter moves
  // full groups as vectors and the rest element by element.
  // Nor does unproven alignment: the emitter tests it at run time.
  if (isa<LoadOp, StoreOp>(memOp)) {
    AccessHints trusting = hints;
    trusting.alignBytes.assign(trusting.alignBytes.size(), 16);
    vec = getVectorWidth(trusting, order[0], getMemoryElemBits(memOp), /*masked=*/false);
  }
  int64_t numel = type.getNumElements();
  int64_t threads = int64_t(kWarpSize) * numWarps;
  vec = std::min<int64_t>(vec, std::max<int64_t>(1, numel / threads));
  return getBlockedLayout(memOp->getContext(), shape, numWarps, order, vec);
}

/// The layout of a load feeding operand `kDim`-K of a tf32 dot when its
/// coalesced layout runs along the other dim: wgmma reads 32-bit operands
/// only K-major, so the copy into the buffer writes one element per thread
/// at (k, mn) to row mn, column k of 128-byte swizzled rows. With 4 threads
/// along K (one 16-byte group) and 8 along MN (8 rows: 8 different XOR
/// phases) a warp's 32 writes hit 32 banks, and its global reads are 4
/// full 32-byte sectors. Null when the tile is too small for that.
static BlockedEncodingAttr tf32OperandLayout(BlockedEncodingAttr coalesced,
                                             ArrayRef<int64_t> shape, unsigned kDim,
                                             unsigned numWarps) {
  unsigned mnDim = 1 - kDim;
  if (coalesced.getOrder()[0] != mnDim || shape[kDim] < 4 || shape[mnDim] < 8)
    return {};
  SmallVector<unsigned> spt(2, 1), tpw(2, 1), wpc(2, 1);
  tpw[kDim] = 4;
  tpw[mnDim] = 8;
  unsigned warpsMn = unsigned(std::min<int64_t>(numWarps, shape[mnDim] / 8));
  wpc[mnDim] = warpsMn;
  wpc[kDim] = numWarps / warpsMn;
  return BlockedEncodingAttr::get(coalesced.getContext(), spt, tpw, wpc, coalesced.getOrder());
}

/// Applies tf32OperandLayout to the loads that feed a tf32 dot directly.
static void layoutTf32Operands(func::FuncOp func, unsigned numWarps) {
  func.walk([&](DotOp dot) {
    if (!dot.allowsTf32())
      return;
    for (unsigned kDim : {1u, 0u}) { // A [M, K], then B [K, N]
      auto load = (kDim == 1 ? dot.getA() : dot.getB()).getDefiningOp<LoadOp>();
      if (!load || !load->hasOneUse())
        continue;
      auto coalesced = load->getAttrOfType<BlockedEncodingAttr>(kMemoryLayoutAttr);
      auto type = cast<RankedTensorType>(load.getType());
      if (BlockedEncodingAttr layout =
              coalesced ? tf32OperandLayout(coalesced, type.getShape(), kDim, numWarps)
                        : BlockedEncodingAttr())
        load->setAttr(kMemoryLayoutAttr, layout);
    }
  });
}

namespace {
struct CoalescePass : impl::CoalesceBase<CoalescePass> {
  using CoalesceBase::CoalesceBase;

  void runOnOperation() override {
    func::FuncOp func = getOperation();
    if (func->hasAttr(BlkGpuDialect::kNumWarpsAttr))
      return; // already blkgpu IR: layouts are chosen
    unsigned numWarps = getNumWarps(func);
    func.walk([&](Operation *op) {
      if (isa<LoadOp, StoreOp, AtomicRMWOp, AtomicCASOp>(op) &&
          isa<RankedTensorType>(op->getOperand(0).getType()))
        op->setAttr(kMemoryLayoutAttr, getCoalescedLayout(op, numWarps));
    });
    if (!arch.empty() && GpuTarget::fromArch(arch, 80).hasWgmma())
      layoutTf32Operands(func, numWarps);
  }
};
} // namespace

} // namespace blk::gpu
