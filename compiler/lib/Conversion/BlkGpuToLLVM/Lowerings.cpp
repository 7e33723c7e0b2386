//===- Lowerings.cpp - which lowering family emits each op ----------------===//
//
// One table, filled once (thread-safe static: kernels are emitted on
// several threads): op -> the Emit*.cpp family that lowers it. An op with
// no entry is an elementwise arith/math op (one result, no regions) or
// unsupported. A new op family registers its ops here.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "blk/IR/BlkOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Support/TypeID.h"

#include "llvm/ADT/DenseMap.h"

using namespace mlir;

namespace blk::gpu {
namespace {

using Lowering = llvm::Error (Emitter::*)(Operation *);

class LoweringRegistry {
public:
  template <typename... Ops>
  LoweringRegistry &add(Lowering lowering) {
    (table.try_emplace(TypeID::get<Ops>(), lowering), ...);
    return *this;
  }
  Lowering lookup(Operation *op) const {
    std::optional<RegisteredOperationName> name = op->getRegisteredInfo();
    if (!name)
      return nullptr;
    return table.lookup(name->getTypeID());
  }

private:
  llvm::DenseMap<TypeID, Lowering> table;
};

const LoweringRegistry &lowerings() {
  static const LoweringRegistry registry = [] {
    LoweringRegistry r;
    r.add<scf::ForOp, scf::IfOp, scf::WhileOp>(&Emitter::emitControlFlow)
        .add<ProgramIdOp, NumProgramsOp, BarrierOp>(&Emitter::emitProgramOp)
        .add<LoadOp, StoreOp, AtomicRMWOp, AtomicCASOp>(&Emitter::emitMemoryOp)
        .add<ReduceOp>(&Emitter::emitReduce)
        .add<ScanOp>(&Emitter::emitScan)
        .add<DotOp>(&Emitter::emitDot)
        .add<WarpGroupDotOp>(&Emitter::emitWarpGroupDot)
        .add<WarpGroupDotWaitOp>(&Emitter::emitWarpGroupDotWait)
        .add<MmaSyncOp>(&Emitter::emitMmaSync)
        .add<AsyncCopyOp, AsyncCommitOp, AsyncWaitOp>(&Emitter::emitAsyncCopyOp)
        .add<TensorMapOp, TmaLoadOp, MbarrierInitOp, MbarrierExpectOp, MbarrierWaitOp,
             MbarrierArriveOp>(&Emitter::emitTmaOp)
        .add<WarpSpecializeOp>(&Emitter::emitWarpSpecialize)
        .add<TurnWaitOp, TurnPassOp>(&Emitter::emitTurn)
        .add<PrintOp, AssertOp>(&Emitter::emitDebugOp)
        .add<LocalAllocOp, LocalStoreOp, LocalLoadOp, MemDescIndexOp, MemDescTransOp>(
            &Emitter::emitLocalMemoryOp)
        .add<MakeRangeOp, SplatOp, BroadcastOp, ExpandDimsOp, ReshapeOp, TransOp, ConvertLayoutOp,
             arith::ConstantOp>(&Emitter::emitShapeOp);
    return r;
  }();
  return registry;
}

} // namespace

llvm::Error Emitter::emitOp(Operation *op) {
  if (Lowering lowering = lowerings().lookup(op))
    return (this->*lowering)(op);
  if (op->getNumRegions() == 0 && op->getNumResults() == 1)
    return emitElementwise(op);
  return fail(op, "is not supported by the GPU backend");
}

} // namespace blk::gpu
