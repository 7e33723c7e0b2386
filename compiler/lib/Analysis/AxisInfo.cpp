//===- AxisInfo.cpp - axis info lattice and data-flow driver --------------===//
//
// The lattice (gcd join) and its propagation over the IR with MLIR's sparse
// data-flow framework, which handles scf.for / scf.if / scf.while by joining
// the values that reach region arguments and results until a fixpoint.
// The op rules are in AxisInfoRules.cpp.
//
//===----------------------------------------------------------------------===//
#include "blk/Analysis/AxisInfo.h"
#include "AxisInfoRules.h"

#include "blk/IR/BlkTypes.h"

#include "mlir/Analysis/DataFlow/ConstantPropagationAnalysis.h"
#include "mlir/Analysis/DataFlow/DeadCodeAnalysis.h"
#include "mlir/Analysis/DataFlow/SparseAnalysis.h"
#include "mlir/Analysis/DataFlowFramework.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

#include <numeric>

using namespace mlir;

namespace blk {

//===----------------------------------------------------------------------===//
// AxisInfo
//===----------------------------------------------------------------------===//

AxisInfo AxisInfo::getPessimistic(unsigned rank) {
  unsigned dims = rank == 0 ? 1 : rank;
  DimVector ones(dims, 1);
  return AxisInfo(ones, ones, ones);
}

AxisInfo AxisInfo::getPessimistic(Value value) {
  return getPessimistic(getShapeOrEmpty(value.getType()).size());
}

AxisInfo AxisInfo::join(const AxisInfo &lhs, const AxisInfo &rhs) {
  if (!lhs.isInitialized())
    return rhs;
  if (!rhs.isInitialized())
    return lhs;
  if (lhs.getRank() != rhs.getRank())
    return getPessimistic(lhs.getRank());
  DimVector contiguity, divisibility, constancy;
  for (unsigned d = 0; d < lhs.getRank(); ++d) {
    contiguity.push_back(std::gcd(lhs.contiguity[d], rhs.contiguity[d]));
    divisibility.push_back(std::gcd(lhs.divisibility[d], rhs.divisibility[d]));
    constancy.push_back(std::gcd(lhs.constancy[d], rhs.constancy[d]));
  }
  std::optional<int64_t> constant;
  if (lhs.constantValue == rhs.constantValue)
    constant = lhs.constantValue;
  return AxisInfo(contiguity, divisibility, constancy, constant);
}

static void printDims(llvm::raw_ostream &os, const AxisInfo::DimVector &dims) {
  os << "[";
  llvm::interleaveComma(dims, os);
  os << "]";
}

void AxisInfo::print(llvm::raw_ostream &os) const {
  if (!isInitialized()) {
    os << "<uninitialized>";
    return;
  }
  os << "contiguity = ";
  printDims(os, contiguity);
  os << ", divisibility = ";
  printDims(os, divisibility);
  os << ", constancy = ";
  printDims(os, constancy);
  if (constantValue)
    os << ", constant = " << *constantValue;
}

//===----------------------------------------------------------------------===//
// Data-flow analysis
//===----------------------------------------------------------------------===//

namespace {

class AxisInfoLattice : public dataflow::Lattice<AxisInfo> {
public:
  using Lattice::Lattice;
};

class AxisInfoDataFlow
    : public dataflow::SparseForwardDataFlowAnalysis<AxisInfoLattice> {
public:
  using SparseForwardDataFlowAnalysis::SparseForwardDataFlowAnalysis;

  void visitOperation(Operation *op,
                      ArrayRef<const AxisInfoLattice *> operands,
                      ArrayRef<AxisInfoLattice *> results) override {
    SmallVector<AxisInfo> operandInfos;
    for (const AxisInfoLattice *operand : operands) {
      // Wait until every operand is known (loop-carried values arrive later).
      if (!operand->getValue().isInitialized())
        return;
      operandInfos.push_back(operand->getValue());
    }
    SmallVector<AxisInfo> infos = axisinfo::inferResults(op, operandInfos);
    for (auto [lattice, info] : llvm::zip(results, infos)) {
      Value value = lattice->getPoint();
      AxisInfo result =
          info.isInitialized() ? info : AxisInfo::getPessimistic(value);
      propagateIfChanged(lattice, lattice->join(result));
    }
  }

  void setToEntryState(AxisInfoLattice *lattice) override {
    Value value = lattice->getPoint();
    AxisInfo info = AxisInfo::getPessimistic(value);
    if (auto arg = dyn_cast<BlockArgument>(value))
      info = axisinfo::inferFunctionArgument(arg);
    propagateIfChanged(lattice, lattice->join(info));
  }

  /// scf.for's induction variable is `lb + k * step`.
  void visitNonControlFlowArguments(Operation *op,
                                    const RegionSuccessor &successor,
                                    ArrayRef<AxisInfoLattice *> argLattices,
                                    unsigned firstIndex) override {
    auto forOp = dyn_cast<scf::ForOp>(op);
    if (!forOp || firstIndex != 1 || argLattices.empty()) {
      SparseForwardDataFlowAnalysis::visitNonControlFlowArguments(
          op, successor, argLattices, firstIndex);
      return;
    }
    const AxisInfoLattice *lb =
        getLatticeElementFor(op, forOp.getLowerBound());
    const AxisInfoLattice *step = getLatticeElementFor(op, forOp.getStep());
    AxisInfo iv = AxisInfo::getPessimistic(0u);
    if (lb->getValue().isInitialized() && step->getValue().isInitialized())
      iv = axisinfo::inferInductionVariable(lb->getValue(), step->getValue());
    propagateIfChanged(argLattices[0], argLattices[0]->join(iv));
    setAllToEntryStates(argLattices.drop_front(
        firstIndex + successor.getSuccessorInputs().size()));
  }
};

} // namespace

//===----------------------------------------------------------------------===//
// AxisInfoAnalysis
//===----------------------------------------------------------------------===//

struct AxisInfoAnalysis::Impl {
  DataFlowSolver solver;
};

AxisInfoAnalysis::AxisInfoAnalysis(Operation *root)
    : impl(std::make_unique<Impl>()) {
  // Dead-code analysis decides which blocks run; constant propagation
  // feeds it branch conditions. Both are required by the sparse framework.
  impl->solver.load<dataflow::DeadCodeAnalysis>();
  impl->solver.load<dataflow::SparseConstantPropagation>();
  impl->solver.load<AxisInfoDataFlow>();
  // Failure only means the IR was not fully analysable; queries stay
  // conservative.
  (void)impl->solver.initializeAndRun(root);
}

AxisInfoAnalysis::~AxisInfoAnalysis() = default;

AxisInfo AxisInfoAnalysis::getAxisInfo(Value value) const {
  const auto *lattice = impl->solver.lookupState<AxisInfoLattice>(value);
  if (!lattice || !lattice->getValue().isInitialized())
    return AxisInfo::getPessimistic(value);
  return lattice->getValue();
}

int64_t AxisInfoAnalysis::getPtrContiguity(Value ptr) const {
  AxisInfo info = getAxisInfo(ptr);
  return info.getContiguity(info.getRank() - 1);
}

int64_t AxisInfoAnalysis::getPtrAlignment(Value ptr) const {
  AxisInfo info = getAxisInfo(ptr);
  unsigned last = info.getRank() - 1;
  auto ptrType = cast<PtrType>(getElementTypeOrSelf(ptr.getType()));
  int64_t elemBytes =
      std::max<int64_t>(1, ptrType.getPointeeType().getIntOrFloatBitWidth() / 8);
  int64_t divElems = std::max<int64_t>(1, info.getDivisibility(last) / elemBytes);
  return std::min(info.getContiguity(last), divElems);
}

int64_t AxisInfoAnalysis::getMaskAlignment(Value mask) const {
  AxisInfo info = getAxisInfo(mask);
  return info.getConstancy(info.getRank() - 1);
}

} // namespace blk
