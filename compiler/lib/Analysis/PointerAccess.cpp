//===- PointerAccess.cpp - how a kernel uses each pointer argument -------===//
//
// Traces each memory op's pointer operand backwards to the func arguments
// it may derive from (PointerAccess.h). Tests:
// tests/lit/transforms/blk-test-print-pointer-access.mlir,
// tests/lit/target/manifest-access.test.
//
//===----------------------------------------------------------------------===//
#include "blk/Analysis/PointerAccess.h"

#include "blk/IR/BlkOps.h"
#include "blk/IR/BlkTypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallBitVector.h"

using namespace mlir;

namespace blk {

llvm::StringRef pointerAccessName(PointerAccess access) {
  if (uint8_t(access) & uint8_t(PointerAccess::Atomic))
    return "atomic";
  switch (access) {
  case PointerAccess::None: return "none";
  case PointerAccess::Read: return "read";
  case PointerAccess::Write: return "write";
  default: return "readwrite";
  }
}

namespace {

/// The func arguments a pointer value may come from.
struct Sources {
  llvm::SmallBitVector args;
  bool unknown = false; ///< some path leads to a value not derived from an argument
};

/// Walks the values a pointer derives from, once each.
class Tracer {
public:
  explicit Tracer(func::FuncOp func) : func(func) {}

  Sources trace(Value ptr) {
    Sources sources;
    sources.args.resize(func.getNumArguments());
    llvm::SmallVector<Value> worklist = {ptr};
    llvm::DenseSet<Value> seen;
    while (!worklist.empty()) {
      Value v = worklist.pop_back_val();
      if (!seen.insert(v).second)
        continue;
      if (!step(v, sources, worklist))
        sources.unknown = true;
    }
    return sources;
  }

private:
  /// Records `v` as an argument or pushes what it derives from; false when
  /// it derives from nothing this knows.
  bool step(Value v, Sources &sources, llvm::SmallVectorImpl<Value> &worklist) {
    if (auto arg = dyn_cast<BlockArgument>(v))
      return blockArgument(arg, sources, worklist);
    Operation *def = v.getDefiningOp();
    unsigned i = cast<OpResult>(v).getResultNumber();
    if (auto loop = dyn_cast<scf::ForOp>(def)) {
      // Zero trips give the init value, others the last yield.
      worklist.push_back(loop.getInitArgs()[i]);
      worklist.push_back(loop.getYieldedValues()[i]);
      return true;
    }
    if (auto branch = dyn_cast<scf::IfOp>(def)) {
      worklist.push_back(branch.thenYield().getOperand(i));
      if (!branch.getElseRegion().empty())
        worklist.push_back(branch.elseYield().getOperand(i));
      return true;
    }
    if (auto loop = dyn_cast<scf::WhileOp>(def)) {
      worklist.push_back(loop.getConditionOp().getArgs()[i]);
      return true;
    }
    // Any other op that makes a pointer makes it from its pointer operands
    // (addptr's base, splat, broadcast, reshape, select's two choices, …).
    bool any = false;
    for (Value operand : def->getOperands())
      if (isPtrLike(operand.getType())) {
        worklist.push_back(operand);
        any = true;
      }
    return any;
  }

  bool blockArgument(BlockArgument arg, Sources &sources,
                     llvm::SmallVectorImpl<Value> &worklist) {
    Block *block = arg.getOwner();
    Operation *parent = block->getParentOp();
    unsigned i = arg.getArgNumber();
    if (parent == func.getOperation() && block->isEntryBlock()) {
      sources.args.set(i);
      return true;
    }
    if (auto loop = dyn_cast<scf::ForOp>(parent)) {
      if (i == 0)
        return false; // the induction variable is no pointer
      worklist.push_back(loop.getInitArgs()[i - 1]);
      worklist.push_back(loop.getYieldedValues()[i - 1]);
      return true;
    }
    if (auto loop = dyn_cast<scf::WhileOp>(parent)) {
      if (block == loop.getBeforeBody()) {
        worklist.push_back(loop.getInits()[i]);
        worklist.push_back(loop.getYieldOp().getOperand(i));
      } else {
        worklist.push_back(loop.getConditionOp().getArgs()[i]);
      }
      return true;
    }
    return false;
  }

  func::FuncOp func;
};

} // namespace

std::vector<PointerAccess> analyzePointerAccess(func::FuncOp func) {
  std::vector<PointerAccess> result(func.getNumArguments(), PointerAccess::None);
  Tracer tracer(func);
  auto use = [&](Value ptr, PointerAccess access) {
    Sources sources = tracer.trace(ptr);
    for (unsigned i = 0; i < result.size(); ++i) {
      bool pointer = isPtrLike(func.getArgument(i).getType());
      if (sources.args.test(i))
        result[i] = result[i] | access;
      else if (sources.unknown && pointer)
        // Not traced: every pointer may be the one, and a store there may
        // leave the rest of the buffer as it was.
        result[i] = result[i] | (access == PointerAccess::Write ? PointerAccess::ReadWrite
                                                               : access);
    }
  };
  func.walk([&](Operation *op) {
    if (auto load = dyn_cast<LoadOp>(op))
      use(load.getPtr(), PointerAccess::Read);
    else if (auto store = dyn_cast<StoreOp>(op))
      use(store.getPtr(), PointerAccess::Write);
    else if (auto rmw = dyn_cast<AtomicRMWOp>(op))
      use(rmw.getPtr(), PointerAccess::Atomic);
    else if (auto cas = dyn_cast<AtomicCASOp>(op))
      use(cas.getPtr(), PointerAccess::Atomic);
  });
  return result;
}

} // namespace blk
