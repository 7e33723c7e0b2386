//===- TestPrintPointerAccess.cpp - --blk-test-print-pointer-access -------===//
//
// Prints blk::analyzePointerAccess as one remark per pointer argument of
// each func, so that tests/lit/transforms/blk-test-print-pointer-access.mlir
// can check the analysis on hand-written IR.
//
//===----------------------------------------------------------------------===//
#include "blk/Analysis/PointerAccess.h"
#include "blk/Transforms/Passes.h"

#include "blk/IR/BlkTypes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace blk {
#define GEN_PASS_DEF_TESTPRINTPOINTERACCESS
#include "blk/Transforms/Passes.h.inc"
} // namespace blk

using namespace mlir;

namespace {

struct TestPrintPointerAccess
    : blk::impl::TestPrintPointerAccessBase<TestPrintPointerAccess> {
  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp func) {
      std::vector<blk::PointerAccess> access = blk::analyzePointerAccess(func);
      for (BlockArgument arg : func.getArguments())
        if (blk::isPtrLike(arg.getType()))
          func.emitRemark() << "arg " << arg.getArgNumber() << ": "
                            << blk::pointerAccessName(access[arg.getArgNumber()]);
    });
  }
};

} // namespace
