//===- WarpSpecialize.cpp - blkgpu.warp_specialize: verifier --------------===//
//
// The producer region runs in one thread of the extra warpgroup, so it
// holds scalar code only: no block (its layout would span warps that are
// not there) and no barrier (the consumers would never meet it). The op
// splits the whole kernel, so it sits in the kernel's entry block.
// turn_wait and turn_pass number the consumer warpgroups by their threads,
// so they sit in a consumer region whose warps (blkgpu.num_warps) are
// those warpgroups, at least two of them. A register split must fit what
// the program holds at launch (registersAtLaunch): setmaxnreg.inc takes
// only what the program's own warps gave back.
// Test: tests/lit/blkgpu/warp-specialize.mlir (round trip, verifier).
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/IR/BlkGpuDialect.h"
#include "blk/Dialect/BlkGpu/IR/Layout.h"

#include "blk/Support/WarpSpecialize.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

using namespace mlir;

namespace blk::gpu {

/// setmaxnreg takes a multiple of 8 from 24 to 256.
static bool isRegisterCount(int32_t n) { return n >= 24 && n <= 256 && n % 8 == 0; }

LogicalResult WarpSpecializeOp::verify() {
  if (!isa_and_nonnull<func::FuncOp>((*this)->getParentOp()))
    return emitOpError() << "must be in the kernel's entry block";
  if (getProducerWarps() <= 0 || getProducerWarps() % 4 != 0)
    return emitOpError() << "producer_warps must be whole warpgroups (a positive multiple of 4), "
                            "got "
                         << getProducerWarps();
  bool noSplit = getProducerRegisters() == 0 && getConsumerRegisters() == 0;
  if (!noSplit &&
      (!isRegisterCount(getProducerRegisters()) || !isRegisterCount(getConsumerRegisters()) ||
       getProducerRegisters() > getConsumerRegisters()))
    return emitOpError() << "register counts must be multiples of 8 from 24 to 256, the "
                            "producer's at most the consumers' (or both 0), got "
                         << getProducerRegisters() << " and " << getConsumerRegisters();
  auto func = cast<func::FuncOp>((*this)->getParentOp());
  auto warps = func->getAttrOfType<IntegerAttr>(BlkGpuDialect::kNumWarpsAttr);
  if (!noSplit && warps) {
    int64_t consumerThreads = warps.getInt() * 32;
    int64_t producerThreads = int64_t(getProducerWarps()) * 32;
    int64_t threads = consumerThreads + producerThreads;
    int64_t atLaunch = blk::registersAtLaunch(threads, getProgramsPerSm(func));
    int64_t split =
        producerThreads * getProducerRegisters() + consumerThreads * getConsumerRegisters();
    if (split > atLaunch * threads)
      return emitOpError() << "register split " << getProducerRegisters() << " / "
                           << getConsumerRegisters() << " needs " << split
                           << " registers, more than the " << atLaunch * threads << " ("
                           << threads << " threads at " << atLaunch
                           << ") the program holds at launch: setmaxnreg.inc would wait forever";
  }
  WalkResult walk = getProducer().walk([&](Operation *op) {
    if (isa<BarrierOp>(op)) {
      op->emitOpError() << "cannot synchronise the producer warpgroup's one thread";
      return WalkResult::interrupt();
    }
    auto isBlock = [](Type t) { return isa<RankedTensorType>(t); };
    if (llvm::any_of(op->getOperandTypes(), isBlock) ||
        llvm::any_of(op->getResultTypes(), isBlock)) {
      op->emitOpError() << "is a block operation in a warp_specialize producer (scalar code only)";
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

/// The checks turn_wait and turn_pass share.
static LogicalResult verifyTurn(Operation *op, int32_t warpgroups, std::optional<int32_t> skip) {
  auto ws = op->getParentOfType<WarpSpecializeOp>();
  if (!ws || !ws.getConsumer().isAncestor(op->getParentRegion()))
    return op->emitOpError() << "must be in the consumer region of a blkgpu.warp_specialize";
  if (warpgroups < 2)
    return op->emitOpError() << "needs at least two warpgroups to take turns, got " << warpgroups;
  auto func = ws->getParentOfType<func::FuncOp>();
  auto warps = func ? func->getAttrOfType<IntegerAttr>(BlkGpuDialect::kNumWarpsAttr) : nullptr;
  if (warps && warps.getInt() != int64_t(warpgroups) * 4)
    return op->emitOpError() << "takes turns among " << warpgroups
                             << " warpgroups, but the consumers are " << warps.getInt()
                             << " warps";
  if (skip && (*skip < 0 || *skip >= warpgroups))
    return op->emitOpError() << "skips warpgroup " << *skip << ", not one of the " << warpgroups;
  return success();
}

LogicalResult TurnWaitOp::verify() { return verifyTurn(*this, getWarpgroups(), getSkip()); }

LogicalResult TurnPassOp::verify() { return verifyTurn(*this, getWarpgroups(), getSkip()); }

} // namespace blk::gpu
