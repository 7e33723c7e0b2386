//===- EmitShape.cpp - block creation, shape ops and layout conversion ----===//
//
// make_range / splat / constants compute this thread's elements from its
// coordinates. broadcast, expand_dims, reshape, trans and convert_layout are
// all "moves": each destination element copies one source element. A move
// stays in registers when every thread already holds what it needs (decided
// on the host for all threads); otherwise it goes through shared memory at
// the op's scratch offset, in the padded or swizzled layout
// blkgpu-choose-shared-layouts recorded: every thread stores its elements,
// barrier, every thread loads the elements it needs (the barrier before the
// stores, where one is needed, is a blkgpu.barrier op). Test:
// codegen/convert-layout-transpose.mlir.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"
#include "SharedLayout.h"

#include "blk/Dialect/BlkGpu/Transforms/SharedMemory.h"

#include "blk/IR/BlkOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"

#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace blk::gpu {

static llvm::Value *linearize(llvm::IRBuilder<> &b, ArrayRef<llvm::Value *> c,
                              ArrayRef<int64_t> shape) {
  llvm::Value *lin = b.getInt32(0);
  for (unsigned d = 0; d < shape.size(); ++d)
    lin = b.CreateAdd(b.CreateMul(lin, b.getInt32(shape[d])), c[d]);
  return lin;
}

SmallVector<llvm::Value *> applyCoords(llvm::IRBuilder<> &b, const CoordMap &map,
                                       ArrayRef<llvm::Value *> dst) {
  SmallVector<llvm::Value *> src;
  switch (map.kind) {
  case CoordMap::Identity:
    return SmallVector<llvm::Value *>(dst.begin(), dst.end());
  case CoordMap::Broadcast:
    for (unsigned d = 0; d < dst.size(); ++d)
      src.push_back(map.srcShape[d] == 1 ? b.getInt32(0) : dst[d]);
    return src;
  case CoordMap::DropDim:
    for (unsigned d = 0; d < dst.size(); ++d)
      if (d != map.dim)
        src.push_back(dst[d]);
    return src;
  case CoordMap::Permute:
    src.assign(dst.size(), nullptr);
    for (unsigned i = 0; i < dst.size(); ++i)
      src[map.perm[i]] = dst[i];
    return src;
  case CoordMap::Reshape: {
    llvm::Value *lin = linearize(b, dst, map.dstShape);
    src.assign(map.srcShape.size(), nullptr);
    for (int d = map.srcShape.size() - 1; d >= 0; --d) {
      src[d] = b.CreateAnd(lin, b.getInt32(map.srcShape[d] - 1));
      lin = b.CreateLShr(lin, b.getInt32(llvm::Log2_64(map.srcShape[d])));
    }
    return src;
  }
  }
  return src;
}

Elems Emitter::move(Operation *op, const Move &mv, ArrayRef<llvm::Value *> srcVals) {
  const LayoutView &src = mv.src, &dst = mv.dst;
  const CoordMap &map = mv.map;
  auto layoutAttr = op->getAttrOfType<SharedEncodingAttr>(kScratchLayoutAttr);
  if (!layoutAttr) {
    // blkgpu-choose-shared-layouts found a register mapping.
    auto hostMap = [&](ArrayRef<int64_t> c) { return map.apply(c); };
    std::optional<SmallVector<unsigned>> regs = getRegisterMapping(src, dst, hostMap);
    if (!regs) {
      internalError(op, "a move through shared memory has no blkgpu.scratch_layout");
      return Elems(dst.numElems(), llvm::PoisonValue::get(llvmType(mv.elemType)));
    }
    Elems out;
    for (unsigned i : *regs)
      out.push_back(srcVals[i]);
    return out;
  }
  Type elemType = mv.elemType;
  llvm::Type *regTy = llvmType(elemType);
  llvm::Type *memTy = memType(elemType);
  unsigned bytes = mod.getDataLayout().getTypeAllocSize(memTy);
  SmemLayout smemLayout = getSmemLayout(layoutAttr, mv);
  uint64_t base = scratchOffset(op, smemLayout.sizeElems() * bytes);
  SmallVector<SmallVector<llvm::Value *>> sc = coords(src);
  unsigned w = smemLayout.writeVec;
  for (auto [first, stride] : vectorRuns(src, smemLayout.inner, w)) {
    llvm::Value *ptr = smemPtr(memTy, emitSmemOffset(b, smemLayout, sc[first]), base);
    auto elem = [&](unsigned j) {
      llvm::Value *v = srcVals[first + j * stride];
      return memTy != regTy ? b.CreateZExt(v, memTy) : v;
    };
    if (w == 1) {
      b.CreateAlignedStore(elem(0), ptr, llvm::Align(bytes));
      continue;
    }
    llvm::Value *vec = llvm::PoisonValue::get(llvm::FixedVectorType::get(memTy, w));
    for (unsigned j = 0; j < w; ++j)
      vec = b.CreateInsertElement(vec, elem(j), j);
    b.CreateAlignedStore(vec, ptr, llvm::Align(bytes * w));
  }
  barrier();
  SmallVector<SmallVector<llvm::Value *>> dc = coords(dst);
  Elems out(dc.size(), nullptr);
  int dstDim = -1;
  if (smemLayout.readVec > 1)
    for (unsigned d = 0; d < dst.rank(); ++d)
      if (dst.shape[d] > 1 && map.srcDimOf(d) == int(smemLayout.inner))
        dstDim = d;
  unsigned r = dstDim >= 0 ? smemLayout.readVec : 1;
  for (auto [first, stride] : vectorRuns(dst, dstDim >= 0 ? dstDim : 0, r)) {
    llvm::Value *ptr =
        smemPtr(memTy, emitSmemOffset(b, smemLayout, applyCoords(b, map, dc[first])), base);
    SmallVector<llvm::Value *> vals;
    if (r == 1) {
      vals.push_back(b.CreateAlignedLoad(memTy, ptr, llvm::Align(bytes)));
    } else {
      auto *vt = llvm::FixedVectorType::get(memTy, r);
      llvm::Value *x = b.CreateAlignedLoad(vt, ptr, llvm::Align(bytes * r));
      for (unsigned j = 0; j < r; ++j)
        vals.push_back(b.CreateExtractElement(x, j));
    }
    for (unsigned j = 0; j < r; ++j)
      out[first + j * stride] = memTy != regTy ? b.CreateTrunc(vals[j], regTy) : vals[j];
  }
  return out;
}

/// Non-splat constant: a table in global memory indexed by coordinates.
static Elems emitDenseTable(Emitter &e, DenseElementsAttr dense,
                            const LayoutView &v, Type elemType) {
  llvm::IRBuilder<> &b = e.b;
  llvm::Type *memTy = e.memType(elemType);
  SmallVector<llvm::Constant *> items;
  for (Attribute a : dense.getValues<Attribute>()) {
    if (auto i = dyn_cast<IntegerAttr>(a))
      items.push_back(llvm::ConstantInt::get(memTy, i.getValue().zextOrTrunc(
                                                        memTy->getIntegerBitWidth())));
    else
      items.push_back(llvmConstant(memTy, cast<FloatAttr>(a)));
  }
  auto *arrTy = llvm::ArrayType::get(memTy, items.size());
  auto *table = new llvm::GlobalVariable(
      e.mod, arrTy, true, llvm::GlobalValue::InternalLinkage,
      llvm::ConstantArray::get(arrTy, items), "__blk_const", nullptr,
      llvm::GlobalValue::NotThreadLocal, 1);
  Elems out;
  for (const SmallVector<llvm::Value *> &c : e.coords(v)) {
    llvm::Value *lin = linearize(b, c, v.shape);
    llvm::Value *x = b.CreateLoad(memTy, b.CreateGEP(memTy, table, lin));
    out.push_back(memTy != e.llvmType(elemType) ? b.CreateTrunc(x, e.llvmType(elemType)) : x);
  }
  return out;
}

llvm::Error Emitter::emitShapeOp(Operation *op) {
  Value result = op->getResult(0);
  std::optional<LayoutView> dst = viewOf(result);
  if (auto cst = dyn_cast<arith::ConstantOp>(op)) {
    if (!dst) {
      llvm::Expected<llvm::Value *> s = emitScalarOp(op, {});
      if (!s)
        return s.takeError();
      set(result, {*s});
      return llvm::Error::success();
    }
    auto dense = dyn_cast<DenseElementsAttr>(cst.getValue());
    if (!dense)
      return fail(op, "has an unsupported constant");
    Type elemType = dense.getElementType();
    if (!dense.isSplat()) {
      set(result, emitDenseTable(*this, dense, *dst, elemType));
      return llvm::Error::success();
    }
    llvm::Constant *c;
    Attribute a = dense.getSplatValue<Attribute>();
    if (auto i = dyn_cast<IntegerAttr>(a))
      c = llvm::ConstantInt::get(llvmType(elemType), i.getValue());
    else
      c = llvmConstant(llvmType(elemType), cast<FloatAttr>(a));
    set(result, Elems(dst->numElems(), c));
    return llvm::Error::success();
  }
  if (!dst)
    return fail(op, "has a result without a distributed layout");
  if (auto range = dyn_cast<MakeRangeOp>(op)) {
    Elems out;
    for (const SmallVector<llvm::Value *> &c : coords(*dst))
      out.push_back(b.CreateAdd(c[0], i32(range.getStart())));
    set(result, std::move(out));
    return llvm::Error::success();
  }
  if (auto splat = dyn_cast<SplatOp>(op)) {
    set(result, Elems(dst->numElems(), get(splat.getSrc())[0]));
    return llvm::Error::success();
  }
  std::optional<Move> mv = getMove(op);
  if (!mv)
    return fail(op, "has an operand without a distributed layout");
  set(result, move(op, *mv, get(op->getOperand(0))));
  return llvm::Error::success();
}

} // namespace blk::gpu
