//===- Coalesce.cpp - --blkgpu-coalesce -----------------------------------===//
//
// Expects: access hints on the block loads/stores/atomics.
// Guarantees: each carries `blkgpu.layout`, a blocked layout whose order starts at the most contiguous dim
// and whose sizePerThread there is the widest vector (<= 16 bytes) that
// contiguity, alignment and mask constancy allow, without leaving threads
// idle (Triton's coalesce rule, except that neither a mask nor unproven
// alignment narrows it: the emitter tests those at run time). Tests: tests/lit/blkgpu/coalesce.mlir,
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

namespace {
struct CoalescePass : impl::CoalesceBase<CoalescePass> {
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
  }
};
} // namespace

} // namespace blk::gpu
