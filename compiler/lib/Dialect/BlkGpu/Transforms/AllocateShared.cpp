//===- AllocateShared.cpp - --blkgpu-allocate-shared ----------------------===//
//
// Expects: blkgpu IR after blkgpu-choose-shared-layouts. Guarantees: every
// local_alloc carries `blkgpu.buffer_offset`, every scratch user
// (SharedMemory.h) `blkgpu.scratch_offset`, and the func
// `blkgpu.shared_bytes`; buffers whose lifetimes overlap get disjoint
// bytes, and no scratch overlaps a buffer alive where its op runs.
//
// Buffers live from their local_alloc to their last use (through any
// memdesc_index), a use inside a loop counting as a use at the end of the
// outermost such loop below the alloc (a branch runs once: its use is
// where it is); they are placed first-fit in program order. Scratch
// lives only while its op runs, so all scratch users share one region
// above the buffers alive at the op (none after a pipelined loop: the
// epilogue reuses the ring), of the largest scratch (twice that when it is
// at most 1 KiB); users alternate between its two ends in program order, so
// consecutive users overlap only when their sizes add up to more than the
// region (then blkgpu-insert-barriers separates them).
// Test: tests/lit/blkgpu/allocate-shared.mlir.
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/Transforms/Passes.h"
#include "blk/Dialect/BlkGpu/Transforms/SharedMemory.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;

namespace blk::gpu {

#define GEN_PASS_DEF_ALLOCATESHARED
#include "blk/Dialect/BlkGpu/Transforms/Passes.h.inc"

/// Scratch regions this small are doubled (see above).
constexpr uint64_t kSmallScratchBytes = 1024;
/// Buffer alignment: a 128-byte swizzle atom of 8 rows needs 1024.
constexpr uint64_t kBufferAlign = 1024;

namespace {

struct Buffer {
  Operation *alloc;
  uint64_t bytes, offset = 0;
  unsigned start, end; // program points, inclusive
};

struct AllocateSharedPass : impl::AllocateSharedBase<AllocateSharedPass> {
  void runOnOperation() override;
};

} // namespace

/// Program points: ops numbered in pre-order; `last[op]` is the highest
/// number inside `op` (itself when it has no regions).
static void numberOps(func::FuncOp func, llvm::DenseMap<Operation *, unsigned> &first,
                      llvm::DenseMap<Operation *, unsigned> &last) {
  unsigned n = 0;
  func.walk<WalkOrder::PreOrder>([&](Operation *op) { first[op] = n++; });
  func.walk<WalkOrder::PostOrder>([&](Operation *op) {
    unsigned hi = first[op];
    for (Region &r : op->getRegions())
      for (Block &b : r)
        for (Operation &inner : b)
          hi = std::max(hi, last[&inner]);
    last[op] = hi;
  });
}

/// Where a use at `user` ends for a buffer allocated in `block`: at the
/// end of the outermost loop between them (a later iteration uses it
/// again), else at the user (a branch runs once).
static Operation *useEnd(Operation *user, Block *block) {
  Operation *end = user;
  for (Operation *op = user; op && op->getBlock() != block; op = op->getParentOp())
    if (isa<scf::ForOp, scf::WhileOp>(op->getParentOp()))
      end = op->getParentOp();
  return end;
}

/// The last program point at which the buffer `alloc` (or a view of it)
/// is used. A ring of mbarriers that warps arrive on lives to the end of
/// the kernel: a warp's last arrival may come after another warp is past
/// its last use (warp specialisation's "empty" barriers).
static unsigned lastUse(Operation *alloc, const llvm::DenseMap<Operation *, unsigned> &last) {
  unsigned end = last.lookup(alloc);
  SmallVector<Value> worklist = {alloc->getResult(0)};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    for (Operation *user : v.getUsers()) {
      if (isa<MemDescIndexOp, MemDescTransOp>(user))
        worklist.push_back(user->getResult(0));
      if (isa<MbarrierArriveOp>(user))
        return last.lookup(alloc->getParentOfType<func::FuncOp>());
      end = std::max(end, last.lookup(useEnd(user, alloc->getBlock())));
    }
  }
  return end;
}

void AllocateSharedPass::runOnOperation() {
  func::FuncOp func = getOperation();
  llvm::DenseMap<Operation *, unsigned> first, last;
  numberOps(func, first, last);
  Builder b(&getContext());

  // Buffers, first-fit in program order among those alive at the same time.
  SmallVector<Buffer> buffers;
  func.walk<WalkOrder::PreOrder>([&](LocalAllocOp alloc) {
    buffers.push_back({alloc, getBufferBytes(alloc.getType()), 0, first[alloc],
                       lastUse(alloc, last)});
  });
  uint64_t buffersEnd = 0;
  for (size_t i = 0; i < buffers.size(); ++i) {
    Buffer &buf = buffers[i];
    uint64_t offset = 0;
    for (bool moved = true; moved;) {
      moved = false;
      for (size_t j = 0; j < i; ++j) {
        const Buffer &other = buffers[j];
        bool alive = buf.start <= other.end && other.start <= buf.end;
        bool overlap = offset < other.offset + other.bytes && other.offset < offset + buf.bytes;
        if (alive && overlap) {
          offset = llvm::alignTo(other.offset + other.bytes, kBufferAlign);
          moved = true;
        }
      }
    }
    buf.offset = offset;
    buf.alloc->setAttr(kBufferOffsetAttr, b.getI64IntegerAttr(offset));
    buffersEnd = std::max(buffersEnd, offset + buf.bytes);
  }

  // Scratch, above the buffers.
  SmallVector<std::pair<Operation *, uint64_t>> users;
  func.walk([&](Operation *op) {
    op->removeAttr(kScratchOffsetAttr);
    if (uint64_t bytes = getScratchBytes(op))
      users.push_back({op, llvm::alignTo(bytes, 16)});
  });
  uint64_t largest = 0;
  for (auto [op, bytes] : users)
    largest = std::max(largest, bytes);
  // A small region is doubled: then no two consecutive users overlap, at
  // no cost in occupancy (reductions need a few bytes per warp).
  uint64_t region = largest <= kSmallScratchBytes ? 2 * largest : largest;
  // The region sits above the buffers alive where the user runs: after a
  // pipelined loop, the epilogue's scratch takes the ring's bytes.
  auto aliveEnd = [&](Operation *op) {
    uint64_t end = 0;
    for (const Buffer &buf : buffers)
      if (buf.start <= first[op] && first[op] <= buf.end)
        end = std::max(end, buf.offset + buf.bytes);
    return llvm::alignTo(end, 16);
  };
  uint64_t total = buffersEnd;
  bool top = false;
  for (auto [op, bytes] : users) {
    uint64_t base = aliveEnd(op);
    op->setAttr(kScratchOffsetAttr, b.getI64IntegerAttr(base + (top ? region - bytes : 0)));
    total = std::max(total, base + region);
    top = !top;
  }
  func->removeAttr(kSharedBytesAttr);
  if (total)
    func->setAttr(kSharedBytesAttr, b.getI64IntegerAttr(total));
}

} // namespace blk::gpu
