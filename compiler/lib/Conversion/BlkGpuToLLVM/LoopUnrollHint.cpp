//===- LoopUnrollHint.cpp - llvm.loop.unroll.count from blkgpu.unroll -----===//
//
// blkgpu-loop-unroll-hints decides the count (see LoopUnrollHints.cpp for
// why); this turns it into loop metadata on the latch branch.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "blk/Dialect/BlkGpu/Transforms/Passes.h"

#include "llvm/IR/Metadata.h"

using namespace mlir;

namespace blk::gpu {

unsigned Emitter::loopUnrollCount(scf::ForOp loop) {
  auto count = loop->getAttrOfType<IntegerAttr>(kUnrollAttr);
  return count ? unsigned(std::max<int64_t>(1, count.getInt())) : 1;
}

void Emitter::setUnrollCount(llvm::Instruction *backedge, unsigned count) {
  if (count <= 1)
    return;
  // A loop id is a distinct node whose first operand is itself.
  llvm::Metadata *countMd[] = {
      llvm::MDString::get(ctx, "llvm.loop.unroll.count"),
      llvm::ConstantAsMetadata::get(b.getInt32(count))};
  llvm::MDNode *self = llvm::MDNode::getTemporary(ctx, {}).release();
  llvm::MDNode *loopId =
      llvm::MDNode::getDistinct(ctx, {self, llvm::MDNode::get(ctx, countMd)});
  loopId->replaceOperandWith(0, loopId);
  llvm::MDNode::deleteTemporary(self);
  backedge->setMetadata(llvm::LLVMContext::MD_loop, loopId);
}

} // namespace blk::gpu
