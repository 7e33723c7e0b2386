//===- EmitLocalMemory.cpp - shared-memory buffers (memdesc ops) ----------===//
//
// A !blkgpu.memdesc value is one element: the address (addrspace 3) of its
// slot. local_alloc takes its buffer at `blkgpu.buffer_offset`
// (blkgpu-allocate-shared); memdesc_index steps by the slot size;
// local_store / local_load move each of this thread's elements to / from
// its place in the slot's #blkgpu.shared layout (SmemLayout::offset:
// padding and XOR swizzle), one element per access. Barriers are
// blkgpu.barrier ops (blkgpu-insert-barriers), never emitted here.
// Test: tests/lit/codegen/local-memory.mlir.
//
//===----------------------------------------------------------------------===//
#include "Emitter.h"
#include "SharedLayout.h"

using namespace mlir;

namespace blk::gpu {

/// Stores (or, with `load`, loads) this thread's elements of a block in
/// layout `view` at `slot` in `layout`.
static Elems moveElements(Emitter &e, const LayoutView &view, const SmemLayout &layout,
                          llvm::Value *slot, Type elemType, const Elems *values) {
  llvm::IRBuilder<> &b = e.b;
  llvm::Type *regTy = e.llvmType(elemType), *memTy = e.memType(elemType);
  unsigned bytes = e.mod.getDataLayout().getTypeAllocSize(memTy);
  Elems out;
  for (auto [i, c] : llvm::enumerate(e.coords(view))) {
    llvm::Value *ptr = b.CreateGEP(memTy, slot, emitSmemOffset(b, layout, c));
    if (values) {
      llvm::Value *v = (*values)[i];
      b.CreateAlignedStore(memTy != regTy ? b.CreateZExt(v, memTy) : v, ptr, llvm::Align(bytes));
      continue;
    }
    llvm::Value *x = b.CreateAlignedLoad(memTy, ptr, llvm::Align(bytes));
    out.push_back(memTy != regTy ? b.CreateTrunc(x, regTy) : x);
  }
  return out;
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
    }
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
