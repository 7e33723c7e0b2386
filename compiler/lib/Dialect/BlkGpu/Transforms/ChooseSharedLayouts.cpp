//===- ChooseSharedLayouts.cpp - --blkgpu-choose-shared-layouts -----------===//
//
// Expects: blkgpu IR. Guarantees: every move that goes through shared
// memory carries `blkgpu.scratch_layout`, the bank-conflict-cheapest layout
// of SharedMemory.h's model; moves that stay in registers carry none.
// Test: tests/lit/blkgpu/choose-shared-layouts.mlir.
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/Transforms/Passes.h"
#include "blk/Dialect/BlkGpu/Transforms/SharedMemory.h"

using namespace mlir;

namespace blk::gpu {

#define GEN_PASS_DEF_CHOOSESHAREDLAYOUTS
#include "blk/Dialect/BlkGpu/Transforms/Passes.h.inc"

namespace {
struct ChooseSharedLayoutsPass : impl::ChooseSharedLayoutsBase<ChooseSharedLayoutsPass> {
  void runOnOperation() override {
    getOperation().walk([&](Operation *op) {
      std::optional<Move> move = getMove(op);
      if (!move)
        return;
      op->removeAttr(kScratchLayoutAttr);
      if (needsSharedMemory(*move))
        op->setAttr(kScratchLayoutAttr,
                    getSharedEncoding(op->getContext(), chooseSmemLayout(*move)));
    });
  }
};
} // namespace

} // namespace blk::gpu
