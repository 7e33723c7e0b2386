//===- EmitWarpSpecialize.cpp - the producer / consumer split -------------===//
//
// blkgpu.warp_specialize: threads from 32 * num_warps on (the producer
// warpgroup) give registers back (setmaxnreg.dec), run the producer region
// in their first thread only, and exit; the others take the registers
// (setmaxnreg.inc) and run the consumer region, whose barriers count the
// consumers alone (Emitter::barrier). With an empty producer region the
// extra warps exit at once and nobody changes its registers (an inc would
// wait for registers nobody gives back). setmaxnreg needs sm_90a and the
// kernel's .maxntid and .minnctapersm (EmitKernel.cpp); the counts are what
// the programs of an SM can hold together (blkgpu-pipeline-loops). Elsewhere,
// or with counts of 0, the split runs without it.
// Test: tests/lit/codegen/warp-specialize.test.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "blk/Dialect/BlkGpu/IR/BlkGpuDialect.h"

#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace mlir;

namespace blk::gpu {

/// Every op of `block`: the regions have no terminator, so
/// Emitter::emitBlock (which leaves out the last op) does not fit.
static llvm::Error emitAll(Emitter &e, Block &block) {
  for (Operation &op : block) {
    e.setLocation(op.getLoc());
    if (llvm::Error err = e.emitOp(&op))
      return err;
  }
  return llvm::Error::success();
}

llvm::Error Emitter::emitWarpSpecialize(Operation *op) {
  auto ws = cast<WarpSpecializeOp>(op);
  if (!producerWarps || unsigned(ws.getProducerWarps()) != producerWarps)
    return fail(op, "needs a kernel launched with its producer warps (blk.warp_specialize)");
  Block *producer = ws.getProducer().empty() ? nullptr : &ws.getProducer().front();
  bool hasProducer = producer && !producer->empty();
  bool splitRegisters =
      hasProducer && target.hasSetMaxNReg() && ws.getConsumerRegisters() != 0;
  unsigned firstProducer = numWarps * kWarpSize;

  auto *producerBB = llvm::BasicBlock::Create(ctx, "ws.producer", fn);
  auto *consumerBB = llvm::BasicBlock::Create(ctx, "ws.consumer", fn);
  b.CreateCondBr(b.CreateICmpUGE(tid, i32(firstProducer)), producerBB, consumerBB);

  b.SetInsertPoint(producerBB);
  if (splitRegisters)
    callIntrinsic(llvm::Intrinsic::nvvm_setmaxnreg_dec_sync_aligned_u32, {},
                  {i32(ws.getProducerRegisters())});
  if (hasProducer) {
    llvm::Error err = llvm::Error::success();
    issuerThread = firstProducer;
    emitGuarded(b.CreateICmpEQ(tid, i32(firstProducer)), [&] { err = emitAll(*this, *producer); });
    issuerThread = 0;
    if (err)
      return err;
  }
  b.CreateRetVoid();

  b.SetInsertPoint(consumerBB);
  if (splitRegisters)
    callIntrinsic(llvm::Intrinsic::nvvm_setmaxnreg_inc_sync_aligned_u32, {},
                  {i32(ws.getConsumerRegisters())});
  if (ws.getConsumer().empty())
    return llvm::Error::success();
  consumersOnly = true;
  llvm::Error err = emitAll(*this, ws.getConsumer().front());
  consumersOnly = false;
  return err;
}

} // namespace blk::gpu
