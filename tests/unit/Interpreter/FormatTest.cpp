// Shortest round-trip text for --print and the printf-like print op lines.
#include "blk/Interpreter/Format.h"

#include "blk/Interpreter/BlockOps.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace blk::interp;

TEST(FormatTest, ShortestRoundTrip) {
  EXPECT_EQ(formatShortestFloat(ElemKind::F32, double(0.1f)), "0.1");
  EXPECT_EQ(formatShortestFloat(ElemKind::F64, 0.1), "0.1");
  EXPECT_EQ(formatShortestFloat(ElemKind::F32, 499500.0), "499500");
  EXPECT_EQ(formatShortestFloat(ElemKind::F32, -0.0), "-0");
  EXPECT_EQ(formatShortestFloat(ElemKind::F32, INFINITY), "inf");
  EXPECT_EQ(formatShortestFloat(ElemKind::F32, double(1.0f / 3.0f)), "0.33333334");
  EXPECT_EQ(formatShortestFloat(ElemKind::F64, 1.0 / 3.0), "0.3333333333333333");
}

TEST(FormatTest, PrintOpLines) {
  Memory mem;
  BufferId id = mem.create("x", {ElemKind::F32, false}, 8);
  Block r = reshape(makeRange(0, 4), {2, 2});
  Block f = cast(CastOp::SIToFP, r, ElemKind::F32);
  Block n = Block::scalarInt(ElemKind::I32, -3);
  Block p = Block::zeros(ElemKind::Ptr, {}, ElemKind::F32);
  p.i[0] = encodePointer(id, 12); // element 3
  EXPECT_EQ(formatPrintOp("r=%d f=%.1f n=%d", {&r, &f, &n}, {1, 0, 2}, mem),
            "pid (1, 0, 2) idx (0, 0) r=0 f=0.0 n=-3\n"
            "pid (1, 0, 2) idx (0, 1) r=1 f=1.0 n=-3\n"
            "pid (1, 0, 2) idx (1, 0) r=2 f=2.0 n=-3\n"
            "pid (1, 0, 2) idx (1, 1) r=3 f=3.0 n=-3\n");
  EXPECT_EQ(formatPrintOp("n", {&n, &p}, {0, 0, 0}, mem), "pid (0, 0, 0) n: -3, x+3\n");
  EXPECT_EQ(formatPrintOp("100%% %x", {&n}, {0, 0, 0}, mem), "pid (0, 0, 0) 100% fffffffd\n");
  EXPECT_EQ(formatPrintOp("done", {}, {0, 0, 0}, mem), "pid (0, 0, 0) done\n");
  // As the GPU: "<format>: v" with %f floats; blocks of different shapes
  // print one operand at a time.
  Block row = makeRange(0, 2);
  EXPECT_EQ(formatPrintOp("x", {&f, &row}, {0, 0, 0}, mem),
            "pid (0, 0, 0) idx (0, 0) x: 0.000000\n"
            "pid (0, 0, 0) idx (0, 1) x: 1.000000\n"
            "pid (0, 0, 0) idx (1, 0) x: 2.000000\n"
            "pid (0, 0, 0) idx (1, 1) x: 3.000000\n"
            "pid (0, 0, 0) idx (0) x: 0\n"
            "pid (0, 0, 0) idx (1) x: 1\n");
}
