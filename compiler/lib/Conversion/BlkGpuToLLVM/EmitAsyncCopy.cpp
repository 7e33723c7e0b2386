//===- EmitAsyncCopy.cpp - cp.async: global -> shared without registers ---===//
//
// async_copy: each thread copies its elements in runs of the widest vector
// both sides allow (the load's proven contiguity, alignment and mask
// constancy, blkgpu.* hints the pipeliner kept; the slot layout's swizzle
// group) with `cp.async.cg` (16 bytes) or `cp.async.ca` (4 or 8); a false
// mask element gives src-size 0, so the hardware writes zeros and reads
// nothing. Where only the alignment is unproven, each run tests its
// address at run time. Runs under 4 bytes (a 2-byte element without
// contiguity), and misaligned runs, fall back to a predicated load and
// st.shared, which is synchronous but equally correct. async_commit / async_wait are commit_group / wait_group;
// a wait in a kernel with wgmma is followed by fence.proxy.async, since
// the tensor cores read the slots through the async proxy.
// Test: tests/lit/codegen/async-copy.mlir.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"
#include "PtxBuilder.h"
#include "SharedLayout.h"

using namespace mlir;

namespace blk::gpu {

llvm::Error Emitter::emitAsyncCopyOp(Operation *op) {
  if (isa<AsyncCommitOp>(op)) {
    PtxBuilder::statement(b, "cp.async.commit_group;");
    return llvm::Error::success();
  }
  if (auto wait = dyn_cast<AsyncWaitOp>(op)) {
    PtxBuilder::statement(b, "cp.async.wait_group " + llvm::Twine(wait.getPending()) + ";");
    bool tensorCores = false;
    kernel.walk([&](WarpGroupDotOp) { tensorCores = true; });
    if (tensorCores)
      PtxBuilder::statement(b, "fence.proxy.async.shared::cta;");
    return llvm::Error::success();
  }
  auto copy = cast<AsyncCopyOp>(op);
  std::optional<LayoutView> v = viewOf(copy.getPtr());
  if (!v)
    return fail(op, "has an operand without a distributed layout");
  MemDescType type = copy.getDst().getType();
  SmemLayout layout = getSlotLayout(type);
  llvm::Type *elemTy = memType(type.getElementType());
  unsigned bytes = mod.getDataLayout().getTypeAllocSize(elemTy);
  bool masked = bool(copy.getMask());
  // The widest copy contiguity and mask allow; where the alignment is not
  // proven, each run tests its address and copies element by element when
  // it is misaligned (only a ragged row pays).
  unsigned smemW = sharedAccessWidth(*v, layout, bytes);
  auto fit = [&](unsigned w) {
    if (!v->base || v->base.getOrder()[0] != layout.inner)
      return 1u; // global runs and slot rows go along different dims
    w = std::min(w, smemW);
    while (w > 1 && w * bytes > 16)
      w /= 2;
    return w;
  };
  unsigned proven = fit(provenVectorWidth(op, *v, masked));
  unsigned w = fit(provenVectorWidth(op, *v, masked, /*trustAlignment=*/false));
  bool testAlign = w > proven;
  Elems &ptrs = get(copy.getPtr());
  Elems mask = masked ? get(copy.getMask()) : Elems();
  llvm::Value *slot = get(copy.getDst())[0];
  SmallVector<SmallVector<llvm::Value *>> cs = coords(*v);
  auto dstOf = [&](SmallVector<llvm::Value *> c) {
    return b.CreateGEP(elemTy, slot, emitSmemOffset(b, layout, c));
  };
  // One element, synchronously: loaded where the mask is on, else zero.
  auto copyElement = [&](unsigned i) {
    llvm::Value *dst = dstOf(cs[i]);
    llvm::Value *x = llvm::Constant::getNullValue(elemTy);
    llvm::Value *on = masked ? mask[i] : nullptr;
    if (on) {
      llvm::BasicBlock *pre = b.GetInsertBlock();
      auto *loadBB = llvm::BasicBlock::Create(ctx, "copy.load", fn);
      auto *join = llvm::BasicBlock::Create(ctx, "copy.join", fn);
      b.CreateCondBr(on, loadBB, join);
      b.SetInsertPoint(loadBB);
      llvm::Value *loaded = b.CreateAlignedLoad(elemTy, ptrs[i], llvm::Align(bytes));
      b.CreateBr(join);
      b.SetInsertPoint(join);
      llvm::PHINode *phi = b.CreatePHI(elemTy, 2);
      phi->addIncoming(x, pre);
      phi->addIncoming(loaded, loadBB);
      x = phi;
    } else {
      x = b.CreateAlignedLoad(elemTy, ptrs[i], llvm::Align(bytes));
    }
    b.CreateAlignedStore(x, dst, llvm::Align(bytes));
  };
  auto copyVector = [&](unsigned first) {
    unsigned size = w * bytes;
    PtxBuilder ptx(b);
    std::string d = ptx.input(dstOf(cs[first]));
    std::string s = ptx.input(ptrs[first]);
    std::string head = "cp.async." + std::string(size == 16 ? "cg" : "ca") + ".shared.global [" +
                       d + "], [" + s + "], " + std::to_string(size);
    if (masked)
      ptx.line(head + ", " + ptx.input(b.CreateSelect(mask[first], i32(size), i32(0))) + ";");
    else
      ptx.line(head + ";");
    ptx.clobberMemory();
    ptx.emit(/*hasSideEffects=*/true);
  };
  if (w * bytes < 4) { // cp.async moves 4, 8 or 16 bytes
    for (unsigned i = 0; i < v->numElems(); ++i)
      copyElement(i);
    return llvm::Error::success();
  }
  for (auto [first, stride] : vectorRuns(*v, layout.inner, w)) {
    if (!testAlign) {
      copyVector(first);
      continue;
    }
    llvm::Value *addr = b.CreatePtrToInt(ptrs[first], b.getInt64Ty());
    llvm::Value *aligned = b.CreateICmpEQ(b.CreateAnd(addr, w * bytes - 1), b.getInt64(0));
    auto *vecBB = llvm::BasicBlock::Create(ctx, "copy.vec", fn);
    auto *eltBB = llvm::BasicBlock::Create(ctx, "copy.elt", fn);
    auto *join = llvm::BasicBlock::Create(ctx, "copy.done", fn);
    b.CreateCondBr(aligned, vecBB, eltBB);
    b.SetInsertPoint(vecBB);
    copyVector(first);
    b.CreateBr(join);
    b.SetInsertPoint(eltBB);
    for (unsigned j = 0; j < w; ++j)
      copyElement(first + j * stride);
    b.CreateBr(join);
    b.SetInsertPoint(join);
  }
  return llvm::Error::success();
}

} // namespace blk::gpu
