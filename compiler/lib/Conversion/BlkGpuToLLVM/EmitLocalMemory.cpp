//===- EmitLocalMemory.cpp - shared-memory buffers (memdesc ops) ----------===//
//
// A !blkgpu.memdesc value is one element: the address (addrspace 3) of its
// slot. local_alloc takes its buffer at `blkgpu.buffer_offset`
// (blkgpu-allocate-shared); memdesc_index steps by the slot size;
// local_store / local_load move each of this thread's elements to / from
// its place in the slot's #blkgpu.shared layout (SmemLayout::offset:
// padding, XOR swizzle, column blocks), in vectors of up to 16 bytes along
// the slot's row. Stores into a buffer a wgmma reads end with
// fence.proxy.async. Barriers are
// blkgpu.barrier ops (blkgpu-insert-barriers), never emitted here.
// Test: tests/lit/codegen/local-memory.mlir.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"
#include "PtxBuilder.h"
#include "SharedLayout.h"

using namespace mlir;

namespace blk::gpu {

/// Stores (or, with `values` null, loads) this thread's elements of a block
/// in layout `view` at `slot` in `layout`, in vectors of accessWidth.
static Elems moveElements(Emitter &e, const LayoutView &view, const SmemLayout &layout,
                          llvm::Value *slot, Type elemType, const Elems *values) {
  llvm::IRBuilder<> &b = e.b;
  llvm::Type *regTy = e.llvmType(elemType), *memTy = e.memType(elemType);
  unsigned bytes = e.mod.getDataLayout().getTypeAllocSize(memTy);
  unsigned w = sharedAccessWidth(view, layout, bytes);
  SmallVector<SmallVector<llvm::Value *>> coords = e.coords(view);
  Elems out(view.numElems(), nullptr);
  llvm::Type *accessTy = w == 1 ? memTy : llvm::FixedVectorType::get(memTy, w);
  for (auto [first, stride] : vectorRuns(view, layout.inner, w)) {
    llvm::Value *ptr = b.CreateGEP(memTy, slot, emitSmemOffset(b, layout, coords[first]));
    if (values) {
      llvm::Value *x = llvm::PoisonValue::get(accessTy);
      for (unsigned j = 0; j < w; ++j) {
        llvm::Value *v = (*values)[first + j * stride];
        v = memTy != regTy ? b.CreateZExt(v, memTy) : v;
        x = w == 1 ? v : b.CreateInsertElement(x, v, j);
      }
      b.CreateAlignedStore(x, ptr, llvm::Align(bytes * w));
      continue;
    }
    llvm::Value *x = b.CreateAlignedLoad(accessTy, ptr, llvm::Align(bytes * w));
    for (unsigned j = 0; j < w; ++j) {
      llvm::Value *v = w == 1 ? x : b.CreateExtractElement(x, j);
      out[first + j * stride] = memTy != regTy ? b.CreateTrunc(v, regTy) : v;
    }
  }
  return out;
}

bool readByAsyncProxy(Value buffer) {
  for (Operation *user : buffer.getUsers()) {
    if (isa<WarpGroupDotOp>(user))
      return true;
    if (isa<MemDescIndexOp, MemDescTransOp>(user))
      if (readByAsyncProxy(user->getResult(0)))
        return true;
  }
  return false;
}

/// fence.proxy.async after this thread's stores into `buffer`, when a wgmma
/// reads it; the barrier after (blkgpu-insert-barriers) then orders every
/// thread's stores before the tensor cores' reads.
static void fenceForAsyncReaders(Emitter &e, Value buffer) {
  Operation *root = getBufferAlloc(buffer);
  if (!root || !readByAsyncProxy(root->getResult(0)))
    return;
  PtxBuilder::statement(e.b, "fence.proxy.async.shared::cta;");
}

llvm::Error Emitter::emitLocalMemoryOp(Operation *op) {
  if (auto alloc = dyn_cast<LocalAllocOp>(op)) {
    MemDescType type = alloc.getType();
    llvm::Value *base = bufferBase(op, getBufferBytes(type));
    if (!base) // emit() reports the internal error; keep lowering the uses
      base = llvm::PoisonValue::get(llvm::PointerType::get(ctx, 3));
    set(alloc.getResult(), {base});
    if (Value src = alloc.getSrc()) {
      std::optional<LayoutView> v = viewOf(src);
      if (!v)
        return fail(op, "has an operand without a distributed layout");
      moveElements(*this, *v, getSlotLayout(type), base, type.getElementType(), &get(src));
      fenceForAsyncReaders(*this, alloc.getResult());
    }
    return llvm::Error::success();
  }
  // The transposed view has the same address; its type tells the wgmma
  // descriptor how to read it.
  if (auto trans = dyn_cast<MemDescTransOp>(op)) {
    set(trans.getResult(), {get(trans.getSrc())[0]});
    return llvm::Error::success();
  }
  if (auto index = dyn_cast<MemDescIndexOp>(op)) {
    llvm::Value *step = b.CreateMul(get(index.getIndex())[0],
                                    i32(getSlotBytes(index.getType())));
    set(index.getResult(), {b.CreateGEP(b.getInt8Ty(), get(index.getSrc())[0], step)});
    return llvm::Error::success();
  }
  if (auto store = dyn_cast<LocalStoreOp>(op)) {
    std::optional<LayoutView> v = viewOf(store.getSrc());
    if (!v)
      return fail(op, "has an operand without a distributed layout");
    MemDescType type = store.getDst().getType();
    moveElements(*this, *v, getSlotLayout(type), get(store.getDst())[0], type.getElementType(),
                 &get(store.getSrc()));
    fenceForAsyncReaders(*this, store.getDst());
    return llvm::Error::success();
  }
  auto load = cast<LocalLoadOp>(op);
  std::optional<LayoutView> v = viewOf(load.getResult());
  if (!v)
    return fail(op, "has a result without a distributed layout");
  MemDescType type = load.getSrc().getType();
  set(load.getResult(), moveElements(*this, *v, getSlotLayout(type), get(load.getSrc())[0],
                                     type.getElementType(), nullptr));
  return llvm::Error::success();
}

} // namespace blk::gpu
