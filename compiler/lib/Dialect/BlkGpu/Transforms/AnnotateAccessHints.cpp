//===- AnnotateAccessHints.cpp - --blkgpu-annotate-access-hints ----------===//
//
// Expects: blk IR before layout assignment (the analysis knows blk ops,
// not blkgpu conversions). Guarantees: every load/store/atomic on a block of
// pointers carries the three per-dim arrays of AccessHints.
// Test: tests/lit/blkgpu/annotate-access-hints.mlir.
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/Transforms/Passes.h"
#include "blk/Dialect/BlkGpu/Transforms/Utility.h"

#include "blk/IR/BlkOps.h"
#include "blk/Analysis/AxisInfo.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace blk::gpu {

#define GEN_PASS_DEF_ANNOTATEACCESSHINTS
#include "blk/Dialect/BlkGpu/Transforms/Passes.h.inc"

static constexpr llvm::StringLiteral kContiguity = "blkgpu.contiguity";
static constexpr llvm::StringLiteral kAlign = "blkgpu.align";
static constexpr llvm::StringLiteral kMaskConstancy = "blkgpu.mask_constancy";

static Value maskOf(Operation *op) {
  if (auto load = dyn_cast<LoadOp>(op))
    return load.getMask();
  if (auto store = dyn_cast<StoreOp>(op))
    return store.getMask();
  if (auto rmw = dyn_cast<AtomicRMWOp>(op))
    return rmw.getMask();
  return {};
}

AccessHints computeAccessHints(const AxisInfoAnalysis &analysis, Operation *memOp) {
  auto type = cast<RankedTensorType>(memOp->getOperand(0).getType());
  unsigned rank = type.getRank();
  AxisInfo ptr = analysis.getAxisInfo(memOp->getOperand(0));
  AccessHints hints{SmallVector<int64_t>(rank, 1), SmallVector<int64_t>(rank, 1),
                    SmallVector<int64_t>(rank, 1)};
  if (ptr.getRank() == rank)
    for (unsigned d = 0; d < rank; ++d) {
      hints.contiguity[d] = ptr.getContiguity(d);
      hints.alignBytes[d] = ptr.getDivisibility(d);
    }
  if (Value mask = maskOf(memOp)) {
    AxisInfo m = analysis.getAxisInfo(mask);
    for (unsigned d = 0; d < rank; ++d)
      hints.maskConstancy[d] = m.getRank() == rank ? m.getConstancy(d) : 1;
  } else {
    for (unsigned d = 0; d < rank; ++d)
      hints.maskConstancy[d] = type.getShape()[d];
  }
  return hints;
}

bool isBlockMemoryOp(Operation *op) {
  return isa<LoadOp, StoreOp, AtomicRMWOp, AtomicCASOp>(op) &&
         isa<RankedTensorType>(op->getOperand(0).getType());
}

static void annotateAccessHints(func::FuncOp func) {
  AxisInfoAnalysis analysis(func);
  Builder b(func.getContext());
  func.walk([&](Operation *op) {
    if (!isBlockMemoryOp(op))
      return;
    AccessHints hints = computeAccessHints(analysis, op);
    op->setAttr(kContiguity, b.getDenseI64ArrayAttr(hints.contiguity));
    op->setAttr(kAlign, b.getDenseI64ArrayAttr(hints.alignBytes));
    op->setAttr(kMaskConstancy, b.getDenseI64ArrayAttr(hints.maskConstancy));
  });
}

namespace {
struct AnnotateAccessHintsPass
    : impl::AnnotateAccessHintsBase<AnnotateAccessHintsPass> {
  void runOnOperation() override {
    if (getOperation()->hasAttr(BlkGpuDialect::kNumWarpsAttr))
      return; // already blkgpu IR: its hints were recorded before layouts
    annotateAccessHints(getOperation());
  }
};
} // namespace

static SmallVector<int64_t> readHint(Operation *op, StringRef name, unsigned rank) {
  if (auto attr = op->getAttrOfType<DenseI64ArrayAttr>(name))
    if (attr.size() == rank)
      return SmallVector<int64_t>(attr.asArrayRef());
  return SmallVector<int64_t>(rank, 1);
}

AccessHints getAccessHints(Operation *memOp) {
  auto type = dyn_cast<RankedTensorType>(memOp->getOperand(0).getType());
  unsigned rank = type ? type.getRank() : 1;
  return {readHint(memOp, kContiguity, rank), readHint(memOp, kAlign, rank),
          readHint(memOp, kMaskConstancy, rank)};
}

} // namespace blk::gpu
