// Buffers, pointer encoding, bounds checks and atomics under threads.
#include "blk/Interpreter/Memory.h"

#include "blk/Interpreter/BlockOps.h"
#include "blk/Interpreter/Format.h"

#include <gtest/gtest.h>

#include <thread>

using namespace blk::interp;

static Block pointers(BufferId id, ElemKind pointee, int64_t start, int64_t n) {
  Block base = Block::zeros(ElemKind::Ptr, {}, pointee);
  base.i[0] = encodePointer(id, 0);
  return addPtr(splat(base, {n}), makeRange(start, start + n));
}

TEST(MemoryTest, PointerEncodingRoundTrips) {
  for (int64_t off : {int64_t(0), int64_t(5), int64_t(-3), int64_t(1) << 40, -(int64_t(1) << 40)}) {
    BufferId id;
    int64_t back;
    decodePointer(encodePointer(7, off), id, back);
    EXPECT_EQ(id, 7u);
    EXPECT_EQ(back, off);
  }
}

TEST(MemoryTest, FarOffsetStaysInItsBuffer) {
  Memory mem;
  BufferId x = mem.create("x", {ElemKind::F32, false}, 4);
  mem.create("y", {ElemKind::F32, false}, 4);
  Block base = Block::zeros(ElemKind::Ptr, {}, ElemKind::F32);
  base.i[0] = encodePointer(x, 0);
  // 2^46 f32 elements are 2^48 bytes: without saturation, y[0].
  Block far = addPtr(base, Block::scalarInt(ElemKind::I64, int64_t(1) << 46));
  BufferId id;
  int64_t off;
  decodePointer(far.i[0], id, off);
  EXPECT_EQ(id, x);
  EXPECT_EQ(off, kFarOffset);
  // Saturation is sticky: stepping back does not return into range.
  EXPECT_EQ(offsetPointer(far.i[0], -(int64_t(1) << 46), 4), far.i[0]);
  // Overflowing int64 saturates too.
  EXPECT_EQ(offsetPointer(base.i[0], INT64_MAX, 4),
            encodePointer(x, kFarOffset));
  Block v = Block::zeros(ElemKind::F32, {});
  std::optional<AccessFault> f = storeBlock(mem, far, v, nullptr);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->message, "out-of-bounds store of x at 2^47 bytes or more from "
                        "its start (buffer has 4 elements)");
}

TEST(MemoryTest, LoadStoreRoundTripF16) {
  Memory mem;
  BufferId b = mem.create("h", {ElemKind::F16, false}, 4);
  Block v = Block::zeros(ElemKind::F16, {4});
  v.f = {0.5, -2, 65504, roundToF16(0.1)};
  ASSERT_FALSE(storeBlock(mem, pointers(b, ElemKind::F16, 0, 4), v, nullptr));
  Block out;
  ASSERT_FALSE(loadBlock(mem, pointers(b, ElemKind::F16, 0, 4), nullptr, nullptr, ElemKind::F16, out));
  EXPECT_EQ(out.f, v.f);
  EXPECT_EQ(formatBuffer(*mem.get(b)), "[0.5, -2, 65504, 0.099975586]");
}

TEST(MemoryTest, MaskedOutLanesAreNotChecked) {
  Memory mem;
  BufferId b = mem.create("x_ptr", {ElemKind::F32, false}, 10);
  Block ptrs = pointers(b, ElemKind::F32, 8, 4); // offsets 8..11
  Block mask = compare(CmpPred::Slt, makeRange(8, 12), Block::scalarInt(ElemKind::I32, 10));
  Block other = Block::scalarFloat(ElemKind::F32, -1);
  Block out;
  ASSERT_FALSE(loadBlock(mem, ptrs, &mask, &other, ElemKind::F32, out));
  EXPECT_EQ(out.f, (std::vector<double>{0, 0, -1, -1}));
  std::optional<AccessFault> f = loadBlock(mem, ptrs, nullptr, nullptr, ElemKind::F32, out);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->message, "out-of-bounds load of x_ptr[10] (buffer has 10 elements)");
  EXPECT_EQ(f->element, 2u);
  f = storeBlock(mem, pointers(b, ElemKind::F32, -1, 2), out, nullptr);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->message, "out-of-bounds store of x_ptr[-1] (buffer has 10 elements)");
}

TEST(MemoryTest, UninitialisedReadsAreReportedWhenTracked) {
  Memory mem;
  BufferId b = mem.create("out", {ElemKind::I32, false}, 4);
  mem.get(b)->written.assign(4, 0);
  Block one = Block::scalarInt(ElemKind::I32, 1);
  ASSERT_FALSE(storeBlock(mem, pointers(b, ElemKind::I32, 0, 2), one, nullptr));
  Block out;
  ASSERT_FALSE(loadBlock(mem, pointers(b, ElemKind::I32, 0, 2), nullptr, nullptr, ElemKind::I32, out));
  std::optional<AccessFault> f =
      loadBlock(mem, pointers(b, ElemKind::I32, 0, 4), nullptr, nullptr, ElemKind::I32, out);
  ASSERT_TRUE(f);
  EXPECT_EQ(f->message, "load of never-written out[2]");
}

TEST(MemoryTest, AtomicsAreExactUnderThreads) {
  Memory mem;
  BufferId b = mem.create("acc", {ElemKind::I32, false}, 4);
  BufferId fb = mem.create("facc", {ElemKind::F32, false}, 1);
  Block ptrs = pointers(b, ElemKind::I32, 0, 4);
  Block fptr = Block::zeros(ElemKind::Ptr, {}, ElemKind::F32);
  fptr.i[0] = encodePointer(fb, 0);
  Block one = Block::scalarInt(ElemKind::I32, 1);
  Block oneF = Block::scalarFloat(ElemKind::F32, 1);
  std::vector<std::thread> pool;
  for (int t = 0; t < 8; ++t)
    pool.emplace_back([&] {
      Block old;
      for (int k = 0; k < 2000; ++k) {
        ASSERT_FALSE(atomicRmw(mem, RmwKind::Add, ptrs, one, nullptr, old));
        ASSERT_FALSE(atomicRmw(mem, RmwKind::FAdd, fptr, oneF, nullptr, old));
      }
    });
  for (std::thread &t : pool)
    t.join();
  EXPECT_EQ(formatBuffer(*mem.get(b)), "[16000, 16000, 16000, 16000]");
  EXPECT_EQ(mem.get(fb)->readFloat(0), 16000.0);
  Block old;
  Block seven = Block::scalarInt(ElemKind::I32, 7);
  Block cmp = Block::scalarInt(ElemKind::I32, 16000);
  ASSERT_FALSE(atomicCas(mem, pointers(b, ElemKind::I32, 0, 1), cmp, seven, old));
  EXPECT_EQ(old.i[0], 16000);
  EXPECT_EQ(mem.get(b)->readInt(0), 7);
}
