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
// turn_wait / turn_pass: consumer warpgroup w = tid / 128 meets named
// barrier 2 + w (bar.sync) or arrives at the next one's (bar.arrive), 256
// threads each: the waiting warpgroup and the one passing to it. Barrier 1
// is the consumers' blkgpu.barrier; 0 is the whole program's.
// Test: tests/lit/codegen/warp-specialize.test.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"
#include "PtxBuilder.h"

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

llvm::Error Emitter::emitTurn(Operation *op) {
  constexpr unsigned kFirstTurnBarrier = 2, kWarpGroupThreads = 128;
  auto wait = dyn_cast<TurnWaitOp>(op);
  auto pass = dyn_cast<TurnPassOp>(op);
  unsigned groups = unsigned(wait ? wait.getWarpgroups() : pass.getWarpgroups());
  std::optional<int32_t> skip = wait ? wait.getSkip() : pass.getSkip();
  if (!consumersOnly || numWarps * kWarpSize != groups * kWarpGroupThreads)
    return fail(op, "needs the consumer region of a kernel with " + std::to_string(groups * 4) +
                        " warps");
  llvm::Value *group = b.CreateUDiv(tid, i32(kWarpGroupThreads));
  llvm::Value *takesPart = skip ? b.CreateICmpNE(group, i32(*skip)) : nullptr;
  llvm::Value *threads = i32(2 * kWarpGroupThreads);
  emitGuarded(takesPart, [&] {
    if (wait) {
      callIntrinsic(llvm::Intrinsic::nvvm_barrier_sync_cnt, {},
                    {b.CreateAdd(group, i32(kFirstTurnBarrier)), threads});
      return;
    }
    llvm::Value *next = b.CreateURem(b.CreateAdd(group, i32(1)), i32(groups));
    PtxBuilder ptx(b);
    std::string id = ptx.input(b.CreateAdd(next, i32(kFirstTurnBarrier)));
    std::string count = ptx.input(threads);
    ptx.line("bar.arrive " + id + ", " + count + ";");
    ptx.clobberMemory();
    ptx.emit(/*hasSideEffects=*/true);
  });
  return llvm::Error::success();
}

} // namespace blk::gpu
