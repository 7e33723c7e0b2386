//===- EmitDot.cpp - blk.dot on CUDA cores (the correct baseline) ---------===//
//
// a and b go to shared memory (a's rows padded by one element so that lanes
// reading a column of a hit distinct banks); then a loop over k updates each
// accumulator element of this thread with one FMA (f16/bf16/fp8 inputs are
// widened to f32, i8 to i32). The MMA path (mma.sync / wgmma) replaces this
// with an MMA layout for acc. Test: codegen/dot-fma.mlir.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "blk/IR/BlkOps.h"

#include <map>

using namespace mlir;

namespace blk::gpu {

llvm::Error Emitter::emitDot(Operation *op) {
  auto dot = cast<DotOp>(op);
  std::optional<LayoutView> va = viewOf(dot.getA()), vb = viewOf(dot.getB()),
                            vc = viewOf(dot.getAcc());
  if (!va || !vb || !vc)
    return fail(op, "has an operand without a distributed layout");
  int64_t k = va->shape[1], n = vb->shape[1];
  Type inType = cast<RankedTensorType>(dot.getA().getType()).getElementType();
  Type bType = cast<RankedTensorType>(dot.getB().getType()).getElementType();
  llvm::Type *inTy = llvmType(inType); // fp8 a and b may differ, but both are i8
  if (isFp8Type(inType) && !target.hasFp8Convert())
    return fail(op, "multiplies fp8, which needs --arch sm_90 or newer");
  llvm::Type *accTy = llvmType(cast<RankedTensorType>(dot.getAcc().getType()).getElementType());
  int64_t aStride = getDotAStride(op);
  std::optional<ScratchArrays> scratch = getDotScratch(op);
  uint64_t base = scratchOffset(op, scratch->total);
  uint64_t aOffset = base + scratch->offsets[0], bOffset = base + scratch->offsets[1];

  Elems &a = get(dot.getA());
  for (auto [i, c] : llvm::enumerate(coords(*va))) {
    llvm::Value *idx = b.CreateAdd(b.CreateMul(c[0], i32(aStride)), c[1]);
    b.CreateStore(a[i], smemPtr(inTy, idx, aOffset));
  }
  Elems &bv = get(dot.getB());
  for (auto [i, c] : llvm::enumerate(coords(*vb))) {
    llvm::Value *idx = b.CreateAdd(b.CreateMul(c[0], i32(n)), c[1]);
    b.CreateStore(bv[i], smemPtr(inTy, idx, bOffset));
  }
  barrier();

  // Distinct rows / cols of this thread's accumulators, by host offset.
  SmallVector<SmallVector<llvm::Value *>> cc = coords(*vc);
  std::map<int64_t, unsigned> rowSlot, colSlot;
  SmallVector<llvm::Value *> rows, cols;
  SmallVector<std::pair<unsigned, unsigned>> slotOf;
  for (unsigned i = 0; i < cc.size(); ++i) {
    SmallVector<int64_t> off = vc->elemOffset(i);
    auto [ri, rnew] = rowSlot.try_emplace(off[vc->kept[0]], rows.size());
    if (rnew)
      rows.push_back(cc[i][0]);
    auto [ci, cnew] = colSlot.try_emplace(off[vc->kept[1]], cols.size());
    if (cnew)
      cols.push_back(cc[i][1]);
    slotOf.push_back({ri->second, ci->second});
  }

  Elems &acc = get(dot.getAcc());
  llvm::BasicBlock *pre = b.GetInsertBlock();
  auto *header = llvm::BasicBlock::Create(ctx, "dot.k", fn);
  auto *body = llvm::BasicBlock::Create(ctx, "dot.body", fn);
  auto *exit = llvm::BasicBlock::Create(ctx, "dot.exit", fn);
  b.CreateBr(header);
  b.SetInsertPoint(header);
  llvm::PHINode *kk = b.CreatePHI(b.getInt32Ty(), 2);
  kk->addIncoming(i32(0), pre);
  SmallVector<llvm::PHINode *> phis;
  for (llvm::Value *x : acc) {
    phis.push_back(b.CreatePHI(accTy, 2));
    phis.back()->addIncoming(x, pre);
  }
  b.CreateCondBr(b.CreateICmpULT(kk, i32(k)), body, exit);
  b.SetInsertPoint(body);
  auto widen = [&](llvm::Value *x, Type type) -> llvm::Value * {
    if (isFp8Type(type))
      x = b.CreateFPExt(fp8ToHalf(x, type), b.getFloatTy());
    if (accTy->isFloatingPointTy())
      return x->getType() == accTy ? x : b.CreateFPExt(x, accTy);
    return b.CreateSExt(x, accTy);
  };
  SmallVector<llvm::Value *> av, bvals;
  for (llvm::Value *r : rows) {
    llvm::Value *idx = b.CreateAdd(b.CreateMul(r, i32(aStride)), kk);
    av.push_back(widen(b.CreateLoad(inTy, smemPtr(inTy, idx, aOffset)), inType));
  }
  for (llvm::Value *c : cols) {
    llvm::Value *idx = b.CreateAdd(b.CreateMul(kk, i32(n)), c);
    bvals.push_back(widen(b.CreateLoad(inTy, smemPtr(inTy, idx, bOffset)), bType));
  }
  Elems next;
  for (unsigned i = 0; i < phis.size(); ++i) {
    llvm::Value *x = av[slotOf[i].first], *y = bvals[slotOf[i].second];
    if (accTy->isFloatingPointTy())
      next.push_back(callIntrinsic(llvm::Intrinsic::fma, {accTy}, {x, y, phis[i]}));
    else
      next.push_back(b.CreateAdd(b.CreateMul(x, y), phis[i]));
  }
  llvm::BasicBlock *latch = b.GetInsertBlock();
  kk->addIncoming(b.CreateAdd(kk, i32(1)), latch);
  for (unsigned i = 0; i < phis.size(); ++i)
    phis[i]->addIncoming(next[i], latch);
  b.CreateBr(header);
  b.SetInsertPoint(exit);
  set(dot.getResult(), Elems(phis.begin(), phis.end()));
  return llvm::Error::success();
}

} // namespace blk::gpu
