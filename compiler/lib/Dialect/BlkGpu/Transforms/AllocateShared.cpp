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
// where it is); they are placed first-fit in program order, or, where
// that needs at least 1 KiB less, longest-lived first or largest first.
// Scratch lives only while its op runs, so all scratch users share one
// region above the buffers alive at the op (none after a pipelined loop:
// the epilogue reuses the ring), of the largest scratch (twice that when it
// is at most 1 KiB); users alternate between its two ends in program order,
// so consecutive users overlap only when their sizes add up to more than
// the region (then blkgpu-insert-barriers separates them).
// Test: tests/lit/blkgpu/allocate-shared.mlir.
//
//===----------------------------------------------------------------------===//
#include "blk/Dialect/BlkGpu/Transforms/Passes.h"
#include "blk/Dialect/BlkGpu/Transforms/SharedMemory.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <numeric>
#include <optional>

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
  uint64_t bytes;
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

/// Places `buffers` first-fit in `order` (indices), each at the lowest
/// offset that overlaps no earlier-placed buffer alive at the same time;
/// `offsets[i]` is buffer i's. Returns the bytes they span.
static uint64_t placeFirstFit(ArrayRef<Buffer> buffers, ArrayRef<unsigned> order,
                              SmallVectorImpl<uint64_t> &offsets) {
  offsets.assign(buffers.size(), 0);
  SmallVector<unsigned> placed;
  uint64_t end = 0;
  for (unsigned i : order) {
    const Buffer &buf = buffers[i];
    uint64_t offset = 0;
    for (bool moved = true; moved;) {
      moved = false;
      for (unsigned j : placed) {
        const Buffer &other = buffers[j];
        bool alive = buf.start <= other.end && other.start <= buf.end;
        bool overlap = offset < offsets[j] + other.bytes && offsets[j] < offset + buf.bytes;
        if (alive && overlap) {
          offset = llvm::alignTo(offsets[j] + other.bytes, kBufferAlign);
          moved = true;
        }
      }
    }
    offsets[i] = offset;
    placed.push_back(i);
    end = std::max(end, offset + buf.bytes);
  }
  return end;
}

/// Scratch, above the buffers alive where each user runs: with the
/// buffers at `offsets`, each user's offset into `scratch` (in the order
/// of `users`); returns the bytes buffers and scratch span together.
static uint64_t placeScratch(ArrayRef<Buffer> buffers, ArrayRef<uint64_t> offsets,
                             ArrayRef<std::pair<Operation *, uint64_t>> users,
                             const llvm::DenseMap<Operation *, unsigned> &first,
                             uint64_t buffersEnd, SmallVectorImpl<uint64_t> &scratch) {
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
    unsigned at = first.lookup(op);
    for (auto [buf, offset] : llvm::zip(buffers, offsets))
      if (buf.start <= at && at <= buf.end)
        end = std::max(end, offset + buf.bytes);
    return llvm::alignTo(end, 16);
  };
  uint64_t total = buffersEnd;
  bool top = false;
  scratch.clear();
  for (auto [op, bytes] : users) {
    uint64_t base = aliveEnd(op);
    scratch.push_back(base + (top ? region - bytes : 0));
    total = std::max(total, base + region);
    top = !top;
  }
  return total;
}

void AllocateSharedPass::runOnOperation() {
  func::FuncOp func = getOperation();
  llvm::DenseMap<Operation *, unsigned> first, last;
  numberOps(func, first, last);
  Builder b(&getContext());

  SmallVector<Buffer> buffers;
  func.walk<WalkOrder::PreOrder>([&](LocalAllocOp alloc) {
    buffers.push_back({alloc, getBufferBytes(alloc.getType()), first[alloc],
                       lastUse(alloc, last)});
  });
  SmallVector<std::pair<Operation *, uint64_t>> users;
  func.walk([&](Operation *op) {
    op->removeAttr(kScratchOffsetAttr);
    if (uint64_t bytes = getScratchBytes(op))
      users.push_back({op, llvm::alignTo(bytes, 16)});
  });
  // Buffers first-fit in program order, and in two other orders
  // (longest-lived first, largest first), scratch above them: another
  // order wins only when it needs at least 1 KiB (a buffer's alignment)
  // less than the best so far, so small differences (where the mbarriers
  // sit) keep the program order's layout. Program order alone can strand a
  // long-lived buffer above short-lived ones whose space a later, larger
  // buffer then cannot reuse (attention's Q tile above the warp-specialised
  // loop's rings).
  SmallVector<unsigned> byProgram(buffers.size());
  std::iota(byProgram.begin(), byProgram.end(), 0u);
  SmallVector<unsigned> byLife = byProgram, bySize = byProgram;
  llvm::stable_sort(byLife, [&](unsigned x, unsigned y) {
    return buffers[x].end - buffers[x].start > buffers[y].end - buffers[y].start;
  });
  llvm::stable_sort(bySize, [&](unsigned x, unsigned y) {
    return buffers[x].bytes > buffers[y].bytes;
  });
  SmallVector<uint64_t> bestBuffers, bestScratch;
  std::optional<uint64_t> total; // the best order's bytes
  for (ArrayRef<unsigned> order : {ArrayRef<unsigned>(byProgram), ArrayRef<unsigned>(byLife),
                                   ArrayRef<unsigned>(bySize)}) {
    SmallVector<uint64_t> offsets, scratch;
    uint64_t end = placeFirstFit(buffers, order, offsets);
    uint64_t bytes = placeScratch(buffers, offsets, users, first, end, scratch);
    if (total && bytes + kBufferAlign > *total)
      continue;
    bestBuffers = std::move(offsets);
    bestScratch = std::move(scratch);
    total = bytes;
  }
  for (auto [buf, offset] : llvm::zip(buffers, bestBuffers))
    buf.alloc->setAttr(kBufferOffsetAttr, b.getI64IntegerAttr(offset));
  for (auto [user, offset] : llvm::zip(users, bestScratch))
    user.first->setAttr(kScratchOffsetAttr, b.getI64IntegerAttr(offset));
  func->removeAttr(kSharedBytesAttr);
  if (*total)
    func->setAttr(kSharedBytesAttr, b.getI64IntegerAttr(int64_t(*total)));
}

} // namespace blk::gpu
