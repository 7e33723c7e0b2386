//===- TestPrintAxisInfo.cpp - --blk-test-print-axis-info -----------------===//
//
// Prints the axis info lattice as remarks, one per integer or pointer
// result (and one per such kernel argument, on the function), so that
// tests/lit/transforms/blk-test-print-axis-info.mlir can check it.
//
//===----------------------------------------------------------------------===//
#include "blk/Analysis/AxisInfo.h"
#include "blk/Transforms/Passes.h"

#include "blk/IR/BlkTypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace blk {
#define GEN_PASS_DEF_TESTPRINTAXISINFO
#include "blk/Transforms/Passes.h.inc"
} // namespace blk

using namespace mlir;

namespace {

bool isTracked(Type type) {
  Type elem = blk::getElementTypeOrSelf(type);
  return elem.isSignlessInteger() || isa<blk::PtrType>(elem);
}

std::string describe(const blk::AxisInfo &info) {
  std::string text;
  llvm::raw_string_ostream os(text);
  info.print(os);
  return text;
}

struct TestPrintAxisInfo
    : blk::impl::TestPrintAxisInfoBase<TestPrintAxisInfo> {
  void runOnOperation() override {
    blk::AxisInfoAnalysis analysis(getOperation());
    getOperation().walk([&](Operation *op) {
      if (auto func = dyn_cast<func::FuncOp>(op)) {
        for (BlockArgument arg : func.getArguments())
          if (isTracked(arg.getType()))
            func.emitRemark() << "arg " << arg.getArgNumber() << ": "
                              << describe(analysis.getAxisInfo(arg));
        return;
      }
      for (OpResult result : op->getResults()) {
        if (!isTracked(result.getType()))
          continue;
        InFlightDiagnostic remark = op->emitRemark();
        if (op->getNumResults() > 1)
          remark << "result " << result.getResultNumber() << ": ";
        remark << describe(analysis.getAxisInfo(result));
      }
    });
  }
};

} // namespace
