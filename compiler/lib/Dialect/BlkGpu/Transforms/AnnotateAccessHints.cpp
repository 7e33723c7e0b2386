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

static void annotateAccessHints(func::FuncOp func) {
  AxisInfoAnalysis analysis(func);
  Builder b(func.getContext());
  func.walk([&](Operation *op) {
    if (!isa<LoadOp, StoreOp, AtomicRMWOp, AtomicCASOp>(op))
      return;
    auto type = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    if (!type)
      return;
    unsigned rank = type.getRank();
    AxisInfo ptr = analysis.getAxisInfo(op->getOperand(0));
    SmallVector<int64_t> contiguity(rank, 1), align(rank, 1), constancy(rank, 1);
    if (ptr.getRank() == rank)
      for (unsigned d = 0; d < rank; ++d) {
        contiguity[d] = ptr.getContiguity(d);
        align[d] = ptr.getDivisibility(d);
      }
    if (Value mask = maskOf(op)) {
      AxisInfo m = analysis.getAxisInfo(mask);
      for (unsigned d = 0; d < rank; ++d)
        constancy[d] = m.getRank() == rank ? m.getConstancy(d) : 1;
    } else {
      for (unsigned d = 0; d < rank; ++d)
        constancy[d] = type.getShape()[d];
    }
    op->setAttr(kContiguity, b.getDenseI64ArrayAttr(contiguity));
    op->setAttr(kAlign, b.getDenseI64ArrayAttr(align));
    op->setAttr(kMaskConstancy, b.getDenseI64ArrayAttr(constancy));
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
