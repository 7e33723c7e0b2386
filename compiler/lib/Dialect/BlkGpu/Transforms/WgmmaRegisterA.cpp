//===- WgmmaRegisterA.cpp - --blkgpu-wgmma-register-a ----------------------===//
//
// Expects: blkgpu IR after blkgpu-propagate-mma-layouts. Guarantees: a
// wgmma (or mma_sync) whose A buffer is stored (local_alloc) from a 16-bit
// block that is already in the #blkgpu.mma layout (of its version) of the
// same warps, with one warpgroup (warp) along N, reads A from those
// registers instead: wgmma's A fragment is mma.sync's, which is what each
// thread of such a layout holds, so nothing moves, and the buffer, its
// stores, the async-proxy fence and the barrier before the dot go. This is
// attention's P·V, P being the first dot's accumulator cast to f16 or bf16
// (what FlashAttention and Triton's kernels do).
// Test: tests/lit/blkgpu/wgmma-register-a.mlir.
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/IR/Layout.h"
#include "blk/Dialect/BlkGpu/Transforms/Passes.h"

using namespace mlir;

namespace blk::gpu {

#define GEN_PASS_DEF_WGMMAREGISTERA
#include "blk/Dialect/BlkGpu/Transforms/Passes.h.inc"

/// The block a tensor-core dot (operands `a`, accumulator `acc`, mma
/// layout `version`) can read A from instead of its buffer; null when none.
static Value registerOperand(Value a, Value acc, unsigned version) {
  auto alloc = a.getDefiningOp<LocalAllocOp>();
  if (!alloc || !alloc.getSrc() || !alloc->hasOneUse())
    return {};
  Value src = alloc.getSrc();
  auto type = cast<RankedTensorType>(src.getType());
  auto aMma = dyn_cast_or_null<MmaEncodingAttr>(type.getEncoding());
  auto accMma = cast<MmaEncodingAttr>(cast<RankedTensorType>(acc.getType()).getEncoding());
  if (!aMma || aMma.getVersion() != version ||
      !(type.getElementType().isF16() || type.getElementType().isBF16()))
    return {};
  if (aMma.getWarpsPerCTA() != accMma.getWarpsPerCTA() || accMma.getWarpsPerCTA()[1] != 1)
    return {};
  int64_t k = type.getShape()[1];
  if (k % 16 != 0 || k % aMma.getInstrN() != 0)
    return {};
  return src;
}

namespace {
struct WgmmaRegisterAPass : impl::WgmmaRegisterABase<WgmmaRegisterAPass> {
  void runOnOperation() override {
    getOperation().walk([](Operation *op) {
      unsigned version = isa<WarpGroupDotOp>(op) ? 3 : isa<MmaSyncOp>(op) ? 2 : 0;
      if (!version)
        return;
      // A, B, acc are the first three operands of both ops.
      Value src = registerOperand(op->getOperand(0), op->getOperand(2), version);
      if (!src)
        return;
      Operation *alloc = op->getOperand(0).getDefiningOp();
      op->setOperand(0, src);
      alloc->erase();
    });
  }
};
} // namespace

} // namespace blk::gpu
