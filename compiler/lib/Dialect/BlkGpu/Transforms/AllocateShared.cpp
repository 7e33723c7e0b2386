//===- AllocateShared.cpp - --blkgpu-allocate-shared ----------------------===//
//
// Expects: blkgpu IR after blkgpu-choose-shared-layouts. Guarantees: every
// scratch user (SharedMemory.h) carries `blkgpu.scratch_offset` and the
// func `blkgpu.shared_bytes`, with offset + size <= shared_bytes for each.
// A scratch is live only while its op runs, so all users share one buffer
// of the largest size (twice that when it is at most 1 KiB); users are
// placed at alternate ends of it in program order, so consecutive users
// overlap only when their sizes add up to more than the buffer (then
// blkgpu-insert-barriers separates them).
// Test: tests/lit/blkgpu/allocate-shared.mlir.
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/Transforms/Passes.h"
#include "blk/Dialect/BlkGpu/Transforms/SharedMemory.h"

#include "mlir/IR/Builders.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace blk::gpu {

#define GEN_PASS_DEF_ALLOCATESHARED
#include "blk/Dialect/BlkGpu/Transforms/Passes.h.inc"

/// Scratch this small is doubled (see below).
constexpr uint64_t kSmallScratchBytes = 1024;

namespace {
struct AllocateSharedPass : impl::AllocateSharedBase<AllocateSharedPass> {
  void runOnOperation() override {
    func::FuncOp func = getOperation();
    SmallVector<std::pair<Operation *, uint64_t>> users;
    func.walk([&](Operation *op) {
      op->removeAttr(kScratchOffsetAttr);
      if (uint64_t bytes = getScratchBytes(op))
        users.push_back({op, llvm::alignTo(bytes, 16)});
    });
    uint64_t largest = 0;
    for (auto [op, bytes] : users)
      largest = std::max(largest, bytes);
    // A small buffer is doubled: then no two consecutive users overlap, at
    // no cost in occupancy (reductions need a few bytes per warp).
    uint64_t total = largest <= kSmallScratchBytes ? 2 * largest : largest;
    Builder b(&getContext());
    bool top = false;
    for (auto [op, bytes] : users) {
      op->setAttr(kScratchOffsetAttr, b.getI64IntegerAttr(top ? total - bytes : 0));
      top = !top;
    }
    func->removeAttr(kSharedBytesAttr);
    if (total)
      func->setAttr(kSharedBytesAttr, b.getI64IntegerAttr(total));
  }
};
} // namespace

} // namespace blk::gpu
