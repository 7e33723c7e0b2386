//===- EmitControlFlow.cpp - scf.for / scf.if / scf.while -----------------===//
//
// Structured control flow to basic blocks with one phi per element of each
// carried value. Conditions are scalars (uniform across the program), so
// barriers inside the bodies are safe.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;

namespace blk::gpu {

/// One phi per element of each value in `types`/`init`.
static SmallVector<Elems> makePhis(llvm::IRBuilder<> &b, ArrayRef<Elems> init,
                                   llvm::BasicBlock *from) {
  SmallVector<Elems> phis;
  for (const Elems &v : init) {
    Elems p;
    for (llvm::Value *e : v) {
      llvm::PHINode *phi = b.CreatePHI(e->getType(), 2);
      phi->addIncoming(e, from);
      p.push_back(phi);
    }
    phis.push_back(std::move(p));
  }
  return phis;
}

static void addIncoming(ArrayRef<Elems> phis, ArrayRef<Elems> vals,
                        llvm::BasicBlock *from) {
  for (auto [p, v] : llvm::zip(phis, vals))
    for (auto [pe, ve] : llvm::zip(p, v))
      llvm::cast<llvm::PHINode>(pe)->addIncoming(ve, from);
}

/// True when a loop nested in `loop` runs tensor-core instructions: a
/// persistent kernel's loop over tiles around its K loop. LLVM's LICM would
/// hoist every per-thread address that does not depend on the tile (the
/// cp.async version's pointers, the staging buffers' shared addresses) out
/// of the tile loop, keeping them live through the K loop, whose
/// accumulator needs those registers: the persistent GEMM went from 198
/// registers to 255 and spills that way. Such a loop is marked
/// `llvm.licm.disable`; its inner loops are still hoisted from.
static bool containsTensorCoreLoop(scf::ForOp loop) {
  return loop.getBody()
      ->walk([&](Operation *op) {
        bool nested = isa<WarpGroupDotOp, MmaSyncOp>(op) &&
                      op->getParentOfType<scf::ForOp>() != loop;
        return nested ? WalkResult::interrupt() : WalkResult::advance();
      })
      .wasInterrupted();
}

static llvm::Error emitFor(Emitter &e, scf::ForOp loop) {
  llvm::IRBuilder<> &b = e.b;
  SmallVector<Elems> init;
  for (Value v : loop.getInitArgs())
    init.push_back(e.get(v));
  llvm::Value *lb = e.get(loop.getLowerBound())[0];
  llvm::Value *ub = e.get(loop.getUpperBound())[0];
  llvm::Value *step = e.get(loop.getStep())[0];
  llvm::BasicBlock *pre = b.GetInsertBlock();
  auto *header = llvm::BasicBlock::Create(e.ctx, "for.header", e.fn);
  auto *body = llvm::BasicBlock::Create(e.ctx, "for.body", e.fn);
  auto *exit = llvm::BasicBlock::Create(e.ctx, "for.exit", e.fn);
  b.CreateBr(header);
  b.SetInsertPoint(header);
  llvm::PHINode *iv = b.CreatePHI(lb->getType(), 2);
  iv->addIncoming(lb, pre);
  SmallVector<Elems> phis = makePhis(b, init, pre);
  b.CreateCondBr(b.CreateICmpSLT(iv, ub), body, exit);
  b.SetInsertPoint(body);
  e.set(loop.getInductionVar(), {iv});
  for (auto [arg, p] : llvm::zip(loop.getRegionIterArgs(), phis))
    e.set(arg, p);
  if (llvm::Error err = e.emitBlock(*loop.getBody()))
    return err;
  SmallVector<Elems> next;
  for (Value v : loop.getBody()->getTerminator()->getOperands())
    next.push_back(e.get(v));
  llvm::Value *ivNext = b.CreateAdd(iv, step);
  llvm::BasicBlock *latch = b.GetInsertBlock();
  e.setLoopHints(b.CreateBr(header), e.loopUnrollCount(loop),
                 containsTensorCoreLoop(loop));
  iv->addIncoming(ivNext, latch);
  addIncoming(phis, next, latch);
  b.SetInsertPoint(exit);
  for (auto [res, p] : llvm::zip(loop.getResults(), phis))
    e.set(res, p);
  return llvm::Error::success();
}

static llvm::Error emitIf(Emitter &e, scf::IfOp branch) {
  llvm::IRBuilder<> &b = e.b;
  llvm::Value *cond = e.get(branch.getCondition())[0];
  auto *thenBB = llvm::BasicBlock::Create(e.ctx, "if.then", e.fn);
  auto *elseBB = llvm::BasicBlock::Create(e.ctx, "if.else", e.fn);
  auto *merge = llvm::BasicBlock::Create(e.ctx, "if.end", e.fn);
  b.CreateCondBr(cond, thenBB, elseBB);
  SmallVector<SmallVector<Elems>> yielded;
  SmallVector<llvm::BasicBlock *> from;
  for (auto [region, bb] : {std::pair(&branch.getThenRegion(), thenBB),
                            std::pair(&branch.getElseRegion(), elseBB)}) {
    b.SetInsertPoint(bb);
    SmallVector<Elems> vals;
    if (!region->empty()) {
      if (llvm::Error err = e.emitBlock(region->front()))
        return err;
      for (Value v : region->front().getTerminator()->getOperands())
        vals.push_back(e.get(v));
    }
    yielded.push_back(std::move(vals));
    from.push_back(b.GetInsertBlock());
    b.CreateBr(merge);
  }
  b.SetInsertPoint(merge);
  for (auto [i, res] : llvm::enumerate(branch.getResults())) {
    Elems out;
    for (unsigned k = 0; k < yielded[0][i].size(); ++k) {
      llvm::PHINode *phi = b.CreatePHI(yielded[0][i][k]->getType(), 2);
      phi->addIncoming(yielded[0][i][k], from[0]);
      phi->addIncoming(yielded[1][i][k], from[1]);
      out.push_back(phi);
    }
    e.set(res, out);
  }
  return llvm::Error::success();
}

static llvm::Error emitWhile(Emitter &e, scf::WhileOp loop) {
  llvm::IRBuilder<> &b = e.b;
  SmallVector<Elems> init;
  for (Value v : loop.getInits())
    init.push_back(e.get(v));
  llvm::BasicBlock *pre = b.GetInsertBlock();
  auto *before = llvm::BasicBlock::Create(e.ctx, "while.before", e.fn);
  auto *after = llvm::BasicBlock::Create(e.ctx, "while.after", e.fn);
  auto *exit = llvm::BasicBlock::Create(e.ctx, "while.exit", e.fn);
  b.CreateBr(before);
  b.SetInsertPoint(before);
  SmallVector<Elems> phis = makePhis(b, init, pre);
  for (auto [arg, p] : llvm::zip(loop.getBeforeArguments(), phis))
    e.set(arg, p);
  if (llvm::Error err = e.emitBlock(loop.getBefore().front()))
    return err;
  auto cond = cast<scf::ConditionOp>(loop.getBefore().front().getTerminator());
  SmallVector<Elems> passed;
  for (Value v : cond.getArgs())
    passed.push_back(e.get(v));
  b.CreateCondBr(e.get(cond.getCondition())[0], after, exit);
  b.SetInsertPoint(after);
  for (auto [arg, v] : llvm::zip(loop.getAfterArguments(), passed))
    e.set(arg, v);
  if (llvm::Error err = e.emitBlock(loop.getAfter().front()))
    return err;
  SmallVector<Elems> next;
  for (Value v : loop.getAfter().front().getTerminator()->getOperands())
    next.push_back(e.get(v));
  addIncoming(phis, next, b.GetInsertBlock());
  b.CreateBr(before);
  b.SetInsertPoint(exit);
  for (auto [res, v] : llvm::zip(loop.getResults(), passed))
    e.set(res, v);
  return llvm::Error::success();
}

llvm::Error Emitter::emitControlFlow(Operation *op) {
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return emitFor(*this, loop);
  if (auto branch = dyn_cast<scf::IfOp>(op))
    return emitIf(*this, branch);
  return emitWhile(*this, cast<scf::WhileOp>(op));
}

} // namespace blk::gpu
