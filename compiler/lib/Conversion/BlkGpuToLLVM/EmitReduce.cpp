//===- EmitReduce.cpp - blk.reduce and blk.scan ---------------------------===//
//
// reduce: (1) each thread combines its own elements along the axis, in
// order; (2) lanes holding distinct parts of the axis combine with
// shfl.sync.bfly (every lane ends with the full value); (3) when warps split
// the axis, one partial per warp goes through shared memory and every thread
// combines them in warp order, so all threads agree bit for bit. Several
// operands (argmax) travel together through the combiner region.
// scan: a correct baseline through shared memory: each element combines the
// elements before it (after it when reversed) in order.
// Tests: codegen/reduce-*.mlir.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"

#include "blk/IR/BlkOps.h"

#include "llvm/IR/IntrinsicsNVPTX.h"

using namespace mlir;

namespace blk::gpu {

static llvm::Value *shuffleXor(Emitter &e, llvm::Value *v, unsigned offset) {
  llvm::IRBuilder<> &b = e.b;
  llvm::Type *t = v->getType();
  unsigned bits = t->getPrimitiveSizeInBits();
  auto shfl32 = [&](llvm::Value *x) {
    return e.callIntrinsic(llvm::Intrinsic::nvvm_shfl_sync_bfly_i32, {},
                           {b.getInt32(0xffffffff), x, b.getInt32(offset), b.getInt32(0x1f)});
  };
  if (t->isPointerTy()) {
    llvm::Value *i = b.CreatePtrToInt(v, b.getInt64Ty());
    return b.CreateIntToPtr(shuffleXor(e, i, offset), t);
  }
  if (bits == 64) {
    llvm::Value *pair = b.CreateBitCast(v, llvm::FixedVectorType::get(b.getInt32Ty(), 2));
    llvm::Value *lo = shfl32(b.CreateExtractElement(pair, uint64_t(0)));
    llvm::Value *hi = shfl32(b.CreateExtractElement(pair, uint64_t(1)));
    pair = b.CreateInsertElement(pair, lo, uint64_t(0));
    pair = b.CreateInsertElement(pair, hi, uint64_t(1));
    return b.CreateBitCast(pair, t);
  }
  llvm::Type *it = b.getIntNTy(bits);
  llvm::Value *x = b.CreateZExt(b.CreateBitCast(v, it), b.getInt32Ty());
  return b.CreateBitCast(b.CreateTrunc(shfl32(x), it), t);
}

llvm::Error Emitter::emitReduce(Operation *op) {
  auto red = cast<ReduceOp>(op);
  unsigned n = red.getSrcs().size();
  std::optional<LayoutView> v = viewOf(red.getSrcs()[0]);
  if (!v)
    return fail(op, "has an operand without a distributed layout");
  unsigned axis = red.getAxis();
  unsigned dim = v->kept[axis];
  Block &body = red.getCombineBlock();
  // Copies, not pointers into `values`: emitCombine() adds values, and the
  // map may rehash under us.
  SmallVector<Elems> ins;
  for (Value s : red.getSrcs())
    ins.push_back(get(s));

  // (1) within the thread.
  unsigned stride = 1;
  for (unsigned d = dim + 1; d < v->perDim.size(); ++d)
    stride *= v->perDim[d];
  unsigned per = v->perDim[dim];
  SmallVector<unsigned> leaders;
  SmallVector<Elems> accs;
  for (unsigned i = 0, e = v->numElems(); i < e; ++i) {
    if ((i / stride) % per != 0)
      continue;
    leaders.push_back(i);
    Elems acc;
    for (const Elems &in : ins)
      acc.push_back(in[i]);
    for (unsigned j = 1; j < per; ++j) {
      Elems next;
      for (const Elems &in : ins)
        next.push_back(in[i + j * stride]);
      llvm::Expected<Elems> r = emitCombine(body, acc, next);
      if (!r)
        return r.takeError();
      acc = *r;
    }
    accs.push_back(acc);
  }

  // (2) across lanes: one butterfly step per lane bit whose basis moves
  // along the axis, read off the linear layout (blocked: the lane bits of
  // the axis's threads, broadcast ones left out; mma: the quad's two bits
  // for its rows).
  for (unsigned laneXor : v->linear.getShuffleStrides(axis)) {
    for (Elems &acc : accs) {
      Elems other;
      for (llvm::Value *x : acc)
        other.push_back(shuffleXor(*this, x, laneXor));
      llvm::Expected<Elems> r = emitCombine(body, acc, other);
      if (!r)
        return r.takeError();
      acc = *r;
    }
  }

  // (3) across warps, through shared memory.
  unsigned warps = v->distinctWarps(dim);
  if (warps > 1 && !v->base)
    return fail(op, "internal compiler error: a reduction of an mma layout whose warps split "
                    "the axis");
  if (warps > 1) {
    SmallVector<int64_t> outShape;
    for (unsigned d = 0; d < v->rank(); ++d)
      if (d != axis)
        outShape.push_back(v->shape[d]);
    int64_t outNumel = 1;
    for (int64_t s : outShape)
      outNumel *= s;
    SmallVector<llvm::Type *> tys;
    for (llvm::Value *x : accs[0])
      tys.push_back(x->getType()->isIntegerTy(1) ? b.getInt8Ty() : x->getType());
    std::optional<ScratchArrays> scratch = getReduceScratch(op);
    if (!scratch || getReduceWarps(op) != warps)
      return fail(op, "internal compiler error: the reduction's shared-memory plan "
                      "does not match its layout");
    uint64_t base = scratchOffset(op, scratch->total);
    SmallVector<uint64_t> offsets;
    for (uint64_t o : scratch->offsets)
      offsets.push_back(base + o);
    SmallVector<SmallVector<llvm::Value *>> cs = coords(*v);
    llvm::Value *w = b.CreateAnd(warpIndex(*v, dim), i32(warps - 1));
    SmallVector<llvm::Value *> slots;
    for (unsigned leader : leaders) {
      llvm::Value *lin = i32(0);
      for (unsigned d = 0, k = 0; d < v->rank(); ++d)
        if (d != axis)
          lin = b.CreateAdd(b.CreateMul(lin, i32(outShape[k++])), cs[leader][d]);
      slots.push_back(b.CreateMul(lin, i32(warps)));
    }
    for (auto [g, acc] : llvm::enumerate(accs))
      for (unsigned j = 0; j < n; ++j) {
        llvm::Value *x = acc[j]->getType() == tys[j] ? acc[j] : b.CreateZExt(acc[j], tys[j]);
        b.CreateStore(x, smemPtr(tys[j], b.CreateAdd(slots[g], w), offsets[j]));
      }
    barrier();
    for (auto [g, acc] : llvm::enumerate(accs)) {
      auto loadSlot = [&](unsigned j, unsigned k) -> llvm::Value * {
        llvm::Value *x = b.CreateLoad(tys[j], smemPtr(tys[j], b.CreateAdd(slots[g], i32(k)), offsets[j]));
        return tys[j] == acc[j]->getType() ? x : b.CreateTrunc(x, acc[j]->getType());
      };
      Elems r;
      for (unsigned j = 0; j < n; ++j)
        r.push_back(loadSlot(j, 0));
      for (unsigned k = 1; k < warps; ++k) {
        Elems next;
        for (unsigned j = 0; j < n; ++j)
          next.push_back(loadSlot(j, k));
        llvm::Expected<Elems> c = emitCombine(body, r, next);
        if (!c)
          return c.takeError();
        r = *c;
      }
      acc = r;
    }
  }

  for (unsigned j = 0; j < n; ++j) {
    Elems out;
    for (Elems &acc : accs)
      out.push_back(acc[j]);
    set(red.getResult()[j], std::move(out));
  }
  return llvm::Error::success();
}

llvm::Error Emitter::emitScan(Operation *op) {
  auto scan = cast<ScanOp>(op);
  std::optional<LayoutView> v = viewOf(scan.getSrcs()[0]);
  if (!v)
    return fail(op, "has an operand without a distributed layout");
  unsigned axis = scan.getAxis();
  bool reverse = scan.getReverse();
  int64_t len = v->shape[axis];
  int64_t numel = 1;
  for (int64_t s : v->shape)
    numel *= s;
  SmallVector<llvm::Type *> tys;
  for (Value s : scan.getSrcs())
    tys.push_back(memType(cast<RankedTensorType>(s.getType()).getElementType()));
  std::optional<ScratchArrays> scratch = getScanScratch(op);
  if (!scratch)
    return fail(op, "internal compiler error: the scan has no shared-memory plan");
  uint64_t base = scratchOffset(op, scratch->total);
  SmallVector<uint64_t> offsets;
  for (uint64_t o : scratch->offsets)
    offsets.push_back(base + o);
  SmallVector<SmallVector<llvm::Value *>> cs = coords(*v);
  auto linear = [&](ArrayRef<llvm::Value *> c, llvm::Value *axisIdx) {
    llvm::Value *lin = i32(0);
    for (unsigned d = 0; d < v->rank(); ++d)
      lin = b.CreateAdd(b.CreateMul(lin, i32(v->shape[d])), d == axis ? axisIdx : c[d]);
    return lin;
  };
  for (auto [j, s] : llvm::enumerate(scan.getSrcs())) {
    Elems &in = get(s);
    for (unsigned i = 0; i < in.size(); ++i) {
      llvm::Value *x = in[i]->getType() == tys[j] ? in[i] : b.CreateZExt(in[i], tys[j]);
      b.CreateStore(x, smemPtr(tys[j], linear(cs[i], cs[i][axis]), offsets[j]));
    }
  }
  barrier();
  unsigned n = scan.getSrcs().size();
  SmallVector<Elems> outs(n);
  for (unsigned i = 0; i < cs.size(); ++i) {
    auto loadAt = [&](unsigned j, llvm::Value *k) -> llvm::Value * {
      llvm::Value *x = b.CreateLoad(tys[j], smemPtr(tys[j], linear(cs[i], k), offsets[j]));
      llvm::Type *rt = get(scan.getSrcs()[j])[0]->getType();
      return rt == tys[j] ? x : b.CreateTrunc(x, rt);
    };
    // Position k of the loop reads element first + k*dir.
    llvm::Value *first = reverse ? i32(len - 1) : i32(0);
    llvm::Value *count = reverse ? b.CreateSub(i32(len), cs[i][axis])
                                 : b.CreateAdd(cs[i][axis], i32(1));
    Elems init;
    for (unsigned j = 0; j < n; ++j)
      init.push_back(loadAt(j, first));
    llvm::BasicBlock *pre = b.GetInsertBlock();
    auto *header = llvm::BasicBlock::Create(ctx, "scan.header", fn);
    auto *loopBody = llvm::BasicBlock::Create(ctx, "scan.body", fn);
    auto *exit = llvm::BasicBlock::Create(ctx, "scan.exit", fn);
    b.CreateBr(header);
    b.SetInsertPoint(header);
    llvm::PHINode *k = b.CreatePHI(b.getInt32Ty(), 2);
    k->addIncoming(i32(1), pre);
    SmallVector<llvm::PHINode *> phis;
    for (llvm::Value *x : init) {
      phis.push_back(b.CreatePHI(x->getType(), 2));
      phis.back()->addIncoming(x, pre);
    }
    b.CreateCondBr(b.CreateICmpULT(k, count), loopBody, exit);
    b.SetInsertPoint(loopBody);
    llvm::Value *idx = reverse ? b.CreateSub(i32(len - 1), k) : k;
    Elems acc(phis.begin(), phis.end()), next;
    for (unsigned j = 0; j < n; ++j)
      next.push_back(loadAt(j, idx));
    llvm::Expected<Elems> r = emitCombine(scan.getCombineBlock(), acc, next);
    if (!r)
      return r.takeError();
    llvm::BasicBlock *latch = b.GetInsertBlock();
    k->addIncoming(b.CreateAdd(k, i32(1)), latch);
    for (unsigned j = 0; j < n; ++j)
      phis[j]->addIncoming((*r)[j], latch);
    b.CreateBr(header);
    b.SetInsertPoint(exit);
    for (unsigned j = 0; j < n; ++j)
      outs[j].push_back(phis[j]);
  }
  for (unsigned j = 0; j < n; ++j)
    set(scan.getResult()[j], std::move(outs[j]));
  return llvm::Error::success();
}

} // namespace blk::gpu
