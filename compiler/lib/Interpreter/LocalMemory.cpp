//===- LocalMemory.cpp - shared-memory buffers in the interpreter ---------===//
//
// A !blkgpu.memdesc from local_alloc is a Block in the environment holding
// the whole buffer (every ring slot). memdesc_index only names a slot: a
// local_store / local_load through it finds the buffer and the slot by
// walking the chain of memdesc_index ops back to the local_alloc, with the
// slot numbers the program computed, so stores through a view change the
// buffer; a memdesc_trans view reads and writes its source transposed.
// Shared memory is per program and a program's ops run one at a time, so
// barriers have nothing to order and a copy's data (cp.async or TMA) lands
// when it is issued; mbarriers count phases, for a warp_specialize's two
// sides (Mbarriers.cpp). But the slot stays "in flight" until what makes
// the copy visible on the GPU: an async_wait that completes its group, or
// an mbarrier_wait on its barrier. Reading it before is a race there and
// an error here. Tests: tests/lit/interp/local-memory.mlir,
// tests/lit/interp/tma.mlir, tests/lit/interp/warp-specialize.mlir,
// tests/lit/interp/async-races.mlir.
//
//===----------------------------------------------------------------------===//
#include "Executor.h"

#include "blk/Dialect/BlkGpu/IR/BlkGpuDialect.h"

using namespace mlir;

namespace blk::interp {

std::string Executor::slotOf(Value memdesc, Value &buffer, size_t &first) {
  size_t count;
  auto type = cast<gpu::MemDescType>(memdesc.getType());
  count = 1;
  for (int64_t d : type.getShape())
    count *= d;
  first = 0;
  while (auto index = memdesc.getDefiningOp<gpu::MemDescIndexOp>()) {
    int64_t slot = get(index.getIndex()).i[0];
    int64_t slots = index.getSrc().getType().getShape()[0];
    if (slot < 0 || slot >= slots)
      return "shared-memory slot " + std::to_string(slot) + " of a ring of " +
             std::to_string(slots) + " is out of range";
    first += size_t(slot) * count;
    count *= slots;
    memdesc = index.getSrc();
  }
  // A buffer carried through scf.for / scf.if / scf.while would be a copy
  // here (the environment copies blocks), not the GPU's one buffer.
  if (!memdesc.getDefiningOp<gpu::LocalAllocOp>() || !env.count(memdesc))
    return "the interpreter supports shared-memory buffers only as used directly "
           "(not carried through loops or branches)";
  buffer = memdesc;
  return "";
}

std::string Executor::slotKeyOf(Value memdesc, SlotKey &key) {
  while (auto trans = memdesc.getDefiningOp<gpu::MemDescTransOp>())
    memdesc = trans.getSrc();
  Value buffer;
  size_t first = 0;
  std::string error = slotOf(memdesc, buffer, first);
  key = {buffer.getAsOpaquePointer(), first};
  return error;
}

std::string Executor::readSlot(Value memdesc, Block &out) {
  if (auto trans = memdesc.getDefiningOp<gpu::MemDescTransOp>()) {
    Block slot;
    if (std::string error = readSlot(trans.getSrc(), slot); !error.empty())
      return error;
    out = permute(slot, {1, 0});
    return "";
  }
  Value buffer;
  size_t first = 0;
  if (std::string error = slotOf(memdesc, buffer, first); !error.empty())
    return error;
  // A copy into the slot that nothing has waited for: reading it now would
  // race with the copy on the GPU.
  if (auto it = inFlight.find({buffer.getAsOpaquePointer(), first}); it != inFlight.end()) {
    if (it->second.tma)
      return "reads a shared-memory slot whose TMA copy no mbarrier_wait has seen land (a "
             "race on the GPU: wait on the copy's mbarrier first)";
    return "reads a shared-memory slot whose cp.async copy (group " +
           std::to_string(it->second.group) + " of " + std::to_string(asyncGroups) +
           " committed) no async_wait has completed (a race on the GPU: the wait lets too "
           "many groups stay in flight)";
  }
  const Block &whole = env[buffer];
  auto type = cast<gpu::MemDescType>(memdesc.getType());
  out = Block::zeros(whole.kind, Shape(type.getShape().begin(), type.getShape().end()),
                     whole.pointee);
  size_t n = out.size();
  if (whole.isFloat())
    std::copy(whole.f.begin() + first, whole.f.begin() + first + n, out.f.begin());
  else
    std::copy(whole.i.begin() + first, whole.i.begin() + first + n, out.i.begin());
  return "";
}

std::string Executor::writeSlot(Value memdesc, const Block &block) {
  if (auto trans = memdesc.getDefiningOp<gpu::MemDescTransOp>())
    return writeSlot(trans.getSrc(), permute(block, {1, 0}));
  Value buffer;
  size_t first = 0;
  if (std::string error = slotOf(memdesc, buffer, first); !error.empty())
    return error;
  Block &whole = env[buffer];
  if (whole.isFloat())
    std::copy(block.f.begin(), block.f.end(), whole.f.begin() + first);
  else
    std::copy(block.i.begin(), block.i.end(), whole.i.begin() + first);
  return "";
}

/// blkgpu.wgmma and blkgpu.mma_sync: acc + a x b, operands read from their
/// slots (wgmma's A may be a block in registers).
bool Executor::execTensorCoreDot(Operation &op, const OpPlan &p) {
  Value aValue = op.getOperand(0), bValue = op.getOperand(1), accValue = op.getOperand(2);
  Block a, b;
  if (!isa<gpu::MemDescType>(aValue.getType()))
    a = get(aValue); // A in registers
  else if (std::string error = readSlot(aValue, a); !error.empty())
    return fail(p, error);
  if (std::string error = readSlot(bValue, b); !error.empty())
    return fail(p, error);
  set(op.getResult(0), dot(a, b, get(accValue)));
  return true;
}

bool Executor::execAsyncCopy(Operation &op, const OpPlan &p) {
  auto copy = cast<gpu::AsyncCopyOp>(op);
  const Block &ptrs = get(copy.getPtr());
  const Block *mask = copy.getMask() ? &get(copy.getMask()) : nullptr;
  Block out;
  // Masked-off elements are zeros, as cp.async's zero fill writes.
  if (std::optional<AccessFault> fault = loadBlock(mem, ptrs, mask, nullptr, ptrs.pointee, out))
    return failAt(p, fault->message, ptrs.shape, fault->element);
  if (std::string error = writeSlot(copy.getDst(), out); !error.empty())
    return fail(p, error);
  SlotKey key;
  if (std::string error = slotKeyOf(copy.getDst(), key); !error.empty())
    return fail(p, error);
  inFlight[key] = InFlight{false, asyncGroups, {}};
  return true;
}

bool Executor::execTmaLoad(Operation &op, const OpPlan &p) {
  auto load = cast<gpu::TmaLoadOp>(op);
  if (load.getPred() && !get(load.getPred()).truth(0))
    return true;
  // The verifier ties the map to its tensor_map op, whose operands (in the
  // entry block) are the descriptor.
  auto map = load.getMap().getDefiningOp<gpu::TensorMapOp>();
  const Block &base = get(map.getBase());
  int64_t rows = get(map.getDims()[0]).asInt(0), cols = get(map.getDims()[1]).asInt(0);
  int64_t row0 = get(load.getCoords()[0]).asInt(0), col0 = get(load.getCoords()[1]).asInt(0);
  int64_t elemBytes = byteSize(base.pointee), rowBytes;
  if (__builtin_mul_overflow(get(map.getStrides()[0]).asInt(0), elemBytes, &rowBytes))
    rowBytes = kFarOffset; // any row but the first is then out of bounds
  ArrayRef<int64_t> shape = load.getDst().getType().getShape();
  Block ptrs = Block::zeros(ElemKind::Ptr, {shape[0], shape[1]}, base.pointee);
  Block inside = Block::zeros(ElemKind::I1, ptrs.shape);
  // Elements outside the tensor are not read: TMA fills them with zeros.
  for (int64_t i = 0, k = 0; i < shape[0]; ++i) {
    int64_t r = row0 + i;
    int64_t rowStart = offsetPointer(base.i[0], r, rowBytes);
    for (int64_t j = 0; j < shape[1]; ++j, ++k) {
      int64_t c = col0 + j;
      if (r < 0 || r >= rows || c < 0 || c >= cols)
        continue;
      inside.i[k] = 1;
      ptrs.i[k] = offsetPointer(rowStart, c, elemBytes);
    }
  }
  Block out;
  if (std::optional<AccessFault> fault =
          loadBlock(mem, ptrs, &inside, nullptr, base.pointee, out))
    return failAt(p, fault->message, ptrs.shape, fault->element);
  if (std::string error = writeSlot(load.getDst(), out); !error.empty())
    return fail(p, error);
  SlotKey key, barrier;
  if (std::string error = slotKeyOf(load.getDst(), key); !error.empty())
    return fail(p, error);
  if (std::string error = slotKeyOf(load.getBarrier(), barrier); !error.empty())
    return fail(p, error);
  inFlight[key] = InFlight{true, 0, barrier};
  return true;
}

bool Executor::execLocalMemory(Operation &op, const OpPlan &p) {
  if (isa<gpu::WarpGroupDotOp, gpu::MmaSyncOp>(op))
    return execTensorCoreDot(op, p);
  if (isa<gpu::AsyncCopyOp>(op))
    return execAsyncCopy(op, p);
  if (isa<gpu::TmaLoadOp>(op))
    return execTmaLoad(op, p);
  // The data lands when issued; what commit and wait decide is when the
  // slot may be read (inFlight).
  if (isa<gpu::AsyncCommitOp>(op)) {
    ++asyncGroups;
    return true;
  }
  if (auto wait = dyn_cast<gpu::AsyncWaitOp>(op)) {
    // Groups [0, asyncGroups - pending) are complete.
    uint64_t pending = uint64_t(std::max<int32_t>(wait.getPending(), 0));
    uint64_t done = asyncGroups > pending ? asyncGroups - pending : 0;
    for (auto it = inFlight.begin(); it != inFlight.end();)
      it = !it->second.tma && it->second.group < done ? inFlight.erase(it) : std::next(it);
    return true;
  }
  if (auto alloc = dyn_cast<gpu::LocalAllocOp>(op)) {
    if (alloc.getSrc())
      set(alloc.getResult(), get(alloc.getSrc()));
    else
      set(alloc.getResult(), Block::zeros(p.result.kind, p.result.shape));
    return true;
  }
  // Names: for a slot, see slotOf, readSlot and writeSlot; for a tensor
  // map, execTmaLoad.
  if (isa<gpu::MemDescIndexOp, gpu::MemDescTransOp, gpu::TensorMapOp>(op)) {
    set(op.getResult(0), Block());
    return true;
  }
  if (auto store = dyn_cast<gpu::LocalStoreOp>(op)) {
    if (std::string error = writeSlot(store.getDst(), get(store.getSrc())); !error.empty())
      return fail(p, error);
    return true;
  }
  auto load = cast<gpu::LocalLoadOp>(op);
  Block out;
  if (std::string error = readSlot(load.getSrc(), out); !error.empty())
    return fail(p, error);
  set(load.getResult(), std::move(out));
  return true;
}

} // namespace blk::interp
