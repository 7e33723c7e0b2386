//===- EmitTma.cpp - TMA copies and mbarriers ------------------------------===//
//
// tensor_map: no code; its value is the hidden kernel parameter the
// emitter appended for it (Emitter::emit: a 128-byte byval CUtensorMap,
// `grid_constant`, whose generic address LLVM takes with cvta.param).
// tma_load: thread 0, when `pred` holds, issues one
// cp.async.bulk.tensor.2d per box of the slot (coordinates innermost
// first; box j fills column block j of the NVMMA layout), completing its
// bytes on the mbarrier. mbarrier_init: thread 0 initialises each barrier
// of the ring, fences the initialisation, and every thread meets at
// bar.sync. mbarrier_expect: thread 0's arrive.expect_tx. mbarrier_wait:
// every thread loops on try_wait.parity (which suspends in hardware for a
// while before it answers false). mbarrier_arrive: lane 0 of each warp
// arrives (a barrier counting warps).
// Test: tests/lit/codegen/tma.test.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"
#include "PtxBuilder.h"
#include "SharedLayout.h"

#include "blk/Dialect/BlkGpu/Transforms/SharedMemory.h"

using namespace mlir;

namespace blk::gpu {

/// Emits what `body` writes only in the issuing thread (thread 0, or the
/// producer's in a warp_specialize producer region) and only when `pred`
/// (may be null) holds.
static void inIssuer(Emitter &e, llvm::Value *pred, llvm::function_ref<void()> body) {
  llvm::Value *first = e.b.CreateICmpEQ(e.tid, e.i32(e.issuerThread));
  e.emitGuarded(pred ? e.b.CreateAnd(first, pred) : first, body);
}

llvm::Error Emitter::emitTmaOp(Operation *op) {
  if (auto map = dyn_cast<TensorMapOp>(op)) {
    llvm::Value *param = tensorMapParams.lookup(map.getOperation());
    if (!param)
      return fail(op, "has no kernel parameter (not in the entry block?)");
    set(map.getResult(), {param});
    return llvm::Error::success();
  }
  if (auto init = dyn_cast<MbarrierInitOp>(op)) {
    MemDescType type = init.getBarriers().getType();
    llvm::Value *base = get(init.getBarriers())[0];
    inIssuer(*this, nullptr, [&] {
      for (int64_t i = 0; i < type.getShape()[0]; ++i) {
        PtxBuilder ptx(b);
        std::string bar = ptx.input(b.CreateConstGEP1_32(b.getInt8Ty(), base, unsigned(8 * i)));
        ptx.line("mbarrier.init.shared::cta.b64 [" + bar + "], " +
                 std::to_string(init.getCount()) + ";");
        ptx.clobberMemory();
        ptx.emit(/*hasSideEffects=*/true);
      }
      PtxBuilder::statement(b, "fence.mbarrier_init.release.cluster;");
    });
    barrier();
    return llvm::Error::success();
  }
  if (auto expect = dyn_cast<MbarrierExpectOp>(op)) {
    llvm::Value *bar = get(expect.getBarrier())[0];
    llvm::Value *pred = expect.getPred() ? get(expect.getPred())[0] : nullptr;
    inIssuer(*this, pred, [&] {
      PtxBuilder ptx(b);
      std::string addr = ptx.input(bar);
      ptx.line("mbarrier.arrive.expect_tx.shared::cta.b64 _, [" + addr + "], " +
               std::to_string(expect.getBytes()) + ";");
      ptx.clobberMemory();
      ptx.emit(/*hasSideEffects=*/true);
    });
    return llvm::Error::success();
  }
  if (auto arrive = dyn_cast<MbarrierArriveOp>(op)) {
    // One arrival per warp: lane 0, once the warp has converged here.
    llvm::Value *bar = get(arrive.getBarrier())[0];
    llvm::Value *first = b.CreateICmpEQ(lane, i32(0));
    llvm::Value *pred = arrive.getPred() ? b.CreateAnd(first, get(arrive.getPred())[0]) : first;
    emitGuarded(pred, [&] {
      PtxBuilder ptx(b);
      std::string addr = ptx.input(bar);
      ptx.line("mbarrier.arrive.shared::cta.b64 _, [" + addr + "];");
      ptx.clobberMemory();
      ptx.emit(/*hasSideEffects=*/true);
    });
    return llvm::Error::success();
  }
  if (auto wait = dyn_cast<MbarrierWaitOp>(op)) {
    llvm::Value *bar = get(wait.getBarrier())[0];
    llvm::Value *phase = get(wait.getPhase())[0];
    auto *loop = llvm::BasicBlock::Create(ctx, "mbarrier.wait", fn);
    auto *done = llvm::BasicBlock::Create(ctx, "mbarrier.done", fn);
    b.CreateBr(loop);
    b.SetInsertPoint(loop);
    PtxBuilder ptx(b);
    std::string ready = ptx.output(b.getInt32Ty());
    std::string addr = ptx.input(bar);
    std::string parity = ptx.input(phase);
    ptx.line("{ .reg .pred p; mbarrier.try_wait.parity.shared::cta.b64 p, [" + addr + "], " +
             parity + "; selp.u32 " + ready + ", 1, 0, p; }");
    ptx.clobberMemory();
    llvm::Value *landed = ptx.emit(/*hasSideEffects=*/true);
    b.CreateCondBr(b.CreateICmpNE(landed, i32(0)), done, loop);
    b.SetInsertPoint(done);
    return llvm::Error::success();
  }
  auto load = cast<TmaLoadOp>(op);
  auto map = load.getMap().getDefiningOp<TensorMapOp>();
  ArrayRef<int64_t> box = map.getBox();
  MemDescType dst = load.getDst().getType();
  unsigned elemBytes = tensorMapElementBytes(map);
  llvm::Value *tensorMap = get(load.getMap())[0];
  llvm::Value *slot = get(load.getDst())[0];
  llvm::Value *bar = get(load.getBarrier())[0];
  llvm::Value *row = get(load.getCoords()[0])[0];
  llvm::Value *col = get(load.getCoords()[1])[0];
  llvm::Value *pred = load.getPred() ? get(load.getPred())[0] : nullptr;
  // Column block j of the slot: [rows x box[1]] elements at j * its bytes.
  int64_t blocks = dst.getShape()[1] / box[1];
  uint64_t blockBytes = uint64_t(dst.getShape()[0]) * box[1] * elemBytes;
  inIssuer(*this, pred, [&] {
    for (int64_t j = 0; j < blocks; ++j) {
      PtxBuilder ptx(b);
      std::string d = ptx.input(b.CreateConstGEP1_64(b.getInt8Ty(), slot, j * blockBytes));
      std::string m = ptx.input(tensorMap);
      std::string c0 = ptx.input(j ? b.CreateAdd(col, i32(j * box[1])) : col);
      std::string c1 = ptx.input(row);
      std::string mb = ptx.input(bar);
      ptx.line("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [" +
               d + "], [" + m + ", {" + c0 + ", " + c1 + "}], [" + mb + "];");
      ptx.clobberMemory();
      ptx.emit(/*hasSideEffects=*/true);
    }
  });
  return llvm::Error::success();
}

} // namespace blk::gpu
