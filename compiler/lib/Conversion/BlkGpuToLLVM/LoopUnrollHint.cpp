//===- LoopUnrollHint.cpp - loop metadata on an scf.for's latch -----------===//
//
// llvm.loop.unroll.count from blkgpu.unroll (blkgpu-loop-unroll-hints
// decides the count; see LoopUnrollHints.cpp for why), and
// llvm.licm.disable for a loop around a tensor-core loop
// (EmitControlFlow.cpp, containsTensorCoreLoop, says why).
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

void Emitter::setLoopHints(llvm::Instruction *backedge, unsigned count,
                             bool noLicm) {
  SmallVector<llvm::Metadata *> hints = {nullptr}; // the self reference
  if (count > 1) {
    llvm::Metadata *countMd[] = {
        llvm::MDString::get(ctx, "llvm.loop.unroll.count"),
        llvm::ConstantAsMetadata::get(b.getInt32(count))};
    hints.push_back(llvm::MDNode::get(ctx, countMd));
  }
  if (noLicm)
    hints.push_back(llvm::MDNode::get(ctx, llvm::MDString::get(ctx, "llvm.licm.disable")));
  if (hints.size() == 1)
    return;
  // A loop id is a distinct node whose first operand is itself.
  llvm::MDNode *self = llvm::MDNode::getTemporary(ctx, {}).release();
  hints[0] = self;
  llvm::MDNode *loopId = llvm::MDNode::getDistinct(ctx, hints);
  loopId->replaceOperandWith(0, loopId);
  llvm::MDNode::deleteTemporary(self);
  backedge->setMetadata(llvm::LLVMContext::MD_loop, loopId);
}

} // namespace blk::gpu
