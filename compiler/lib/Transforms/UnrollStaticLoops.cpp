//===- UnrollStaticLoops.cpp - --blk-unroll-static-loops ------------------===//
//
// `for k in static_range(a, b)` forces unrolling (docs/language.md §5):
// IRGen marks its scf.for with `blk.unroll`, and this pass unrolls it by its
// constant trip count. Inner loops go first (post-order walk), so nested
// static loops unroll completely. Test: transforms/unroll-static-loops.mlir.
//
//===----------------------------------------------------------------------===//
#include "blk/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"

namespace blk {
#define GEN_PASS_DEF_UNROLLSTATICLOOPS
#include "blk/Transforms/Passes.h.inc"
} // namespace blk

using namespace mlir;

namespace {
/// Replaces `loop` by `trips` copies of its body, iteration k with the
/// induction variable as the constant lb + k * step. (MLIR 19's
/// loopUnrollByFactor builds `index` arithmetic and breaks on blk's i32
/// induction variables.)
void unrollFully(scf::ForOp loop, int64_t lb, int64_t step, int64_t trips) {
  OpBuilder b(loop);
  Type ivType = loop.getInductionVar().getType();
  SmallVector<Value> carried(loop.getInitArgs());
  Block *body = loop.getBody();
  for (int64_t k = 0; k < trips; ++k) {
    IRMapping map;
    map.map(loop.getInductionVar(),
            b.create<arith::ConstantOp>(loop.getLoc(), b.getIntegerAttr(ivType, lb + k * step)));
    map.map(loop.getRegionIterArgs(), carried);
    for (Operation &op : body->without_terminator())
      b.clone(op, map);
    carried.clear();
    for (Value v : body->getTerminator()->getOperands())
      carried.push_back(map.lookupOrDefault(v));
  }
  loop.replaceAllUsesWith(carried);
  loop.erase();
}

struct UnrollStaticLoops : blk::impl::UnrollStaticLoopsBase<UnrollStaticLoops> {
  void runOnOperation() override {
    SmallVector<scf::ForOp> loops;
    getOperation().walk([&](scf::ForOp loop) {
      if (loop->hasAttr("blk.unroll"))
        loops.push_back(loop);
    });
    for (scf::ForOp loop : loops) {
      loop->removeAttr("blk.unroll");
      std::optional<int64_t> lb = getConstantIntValue(loop.getLowerBound());
      std::optional<int64_t> step = getConstantIntValue(loop.getStep());
      std::optional<int64_t> trips = constantTripCount(
          loop.getLowerBound(), loop.getUpperBound(), loop.getStep());
      if (lb && step && trips) // Sema makes them constants; else keep the loop
        unrollFully(loop, *lb, *step, *trips);
    }
  }
};
} // namespace
