//===- WgmmaRegisterA.cpp - --blkgpu-wgmma-register-a ----------------------===//
//
// Expects: blkgpu IR after blkgpu-propagate-mma-layouts. Guarantees: a
// wgmma whose A buffer is stored (local_alloc) from a 16-bit block that is
// already in the #blkgpu.mma layout of the same warps, with one warpgroup
// along N, reads A from those registers instead: wgmma's A fragment is
// mma.sync's, which is what each thread of such a layout holds, so nothing
// moves, and the buffer, its stores, the async-proxy fence and the barrier
// before the wgmma go. This is attention's P·V, P being the first dot's
// accumulator cast to f16 or bf16 (what FlashAttention and Triton's
// Hopper kernels do). Test: tests/lit/blkgpu/wgmma-register-a.mlir.
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/IR/Layout.h"
#include "blk/Dialect/BlkGpu/Transforms/Passes.h"

using namespace mlir;

namespace blk::gpu {

#define GEN_PASS_DEF_WGMMAREGISTERA
#include "blk/Dialect/BlkGpu/Transforms/Passes.h.inc"

/// The block `wgmma` can read A from instead of its buffer; null when none.
static Value registerOperand(WarpGroupDotOp wgmma) {
  auto alloc = wgmma.getA().getDefiningOp<LocalAllocOp>();
  if (!alloc || !alloc.getSrc() || !alloc->hasOneUse())
    return {};
  Value src = alloc.getSrc();
  auto type = cast<RankedTensorType>(src.getType());
  auto aMma = dyn_cast_or_null<MmaEncodingAttr>(type.getEncoding());
  auto accMma = cast<MmaEncodingAttr>(cast<RankedTensorType>(wgmma.getAcc().getType()).getEncoding());
  if (!aMma || aMma.getVersion() != 3 || !(type.getElementType().isF16() || type.getElementType().isBF16()))
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
    getOperation().walk([](WarpGroupDotOp wgmma) {
      Value src = registerOperand(wgmma);
      if (!src)
        return;
      Operation *alloc = wgmma.getA().getDefiningOp();
      wgmma.getAMutable().assign(src);
      alloc->erase();
    });
  }
};
} // namespace

} // namespace blk::gpu
