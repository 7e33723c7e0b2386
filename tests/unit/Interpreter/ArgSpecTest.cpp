// `--arg` specs: buffers from zeros/iota/fill/rand/empty/file, scalar
// literals, and the usage errors that name the parameter.
#include "blk/Interpreter/ArgSpec.h"
#include "blk/Support/SpecRandom.h"

#include "blk/Interpreter/Format.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

using namespace blk::interp;

static ParamInfo pointer(const char *name, ElemKind kind, bool isUnsigned = false) {
  return {name, true, {kind, isUnsigned}};
}

static std::string error(llvm::Expected<Arg> a) {
  return a ? std::string("no error") : llvm::toString(a.takeError());
}

TEST(ArgSpecTest, BuffersFromSpecs) {
  Memory mem;
  llvm::Expected<Arg> a = makeArg(pointer("x", ElemKind::F32), "iota:f32:4", mem);
  ASSERT_TRUE(bool(a));
  EXPECT_EQ(formatBuffer(*mem.get(a->buffer)), "[0, 1, 2, 3]");
  EXPECT_EQ(mem.get(a->buffer)->name, "x");
  a = makeArg(pointer("y", ElemKind::I8, true), "fill:u8:3:0xff", mem);
  ASSERT_TRUE(bool(a));
  EXPECT_EQ(formatBuffer(*mem.get(a->buffer)), "[255, 255, 255]");
  a = makeArg(pointer("h", ElemKind::F16), "fill:f16:2:0.1", mem);
  ASSERT_TRUE(bool(a));
  EXPECT_EQ(formatBuffer(*mem.get(a->buffer)), "[0.099975586, 0.099975586]");
  a = makeArg(pointer("z", ElemKind::I32), "zeros:i32:0", mem);
  ASSERT_TRUE(bool(a));
  EXPECT_EQ(formatBuffer(*mem.get(a->buffer)), "[]");
}

TEST(ArgSpecTest, RandIsDeterministicAndInRange) {
  Memory mem;
  llvm::Expected<Arg> a = makeArg(pointer("r", ElemKind::F32), "rand:f32:1000:42", mem);
  llvm::Expected<Arg> b = makeArg(pointer("r", ElemKind::F32), "rand:f32:1000:42", mem);
  llvm::Expected<Arg> c = makeArg(pointer("r", ElemKind::F32), "rand:f32:1000:43", mem);
  ASSERT_TRUE(a && b && c);
  const Buffer &ba = *mem.get(a->buffer), &bb = *mem.get(b->buffer), &bc = *mem.get(c->buffer);
  EXPECT_EQ(ba.bytes, bb.bytes);
  EXPECT_NE(ba.bytes, bc.bytes);
  for (size_t k = 0; k < ba.count; ++k) {
    ASSERT_GE(ba.readFloat(k), 0.0);
    ASSERT_LT(ba.readFloat(k), 1.0);
  }
  llvm::Expected<Arg> i = makeArg(pointer("i", ElemKind::I32), "rand:i32:100", mem);
  ASSERT_TRUE(bool(i));
  for (size_t k = 0; k < 100; ++k) {
    ASSERT_GE(mem.get(i->buffer)->readInt(k), 0);
    ASSERT_LE(mem.get(i->buffer)->readInt(k), 9);
  }
}

// The GPU tools (blk-bench, blk-tune) fill `rand:` buffers with the same
// SpecRandom: these exact values are what `blkc bench --check` relies on.
TEST(ArgSpecTest, RandIsSplitmix64SharedWithTheGpuTools) {
  Memory mem;
  llvm::Expected<Arg> f = makeArg(pointer("r", ElemKind::F32), "rand:f32:3:7", mem);
  llvm::Expected<Arg> i = makeArg(pointer("i", ElemKind::I32), "rand:i32:5:7", mem);
  ASSERT_TRUE(f && i);
  const Buffer &bf = *mem.get(f->buffer);
  EXPECT_EQ(bf.readFloat(0), 0.38982969522476196);
  EXPECT_EQ(bf.readFloat(1), 0.016788244247436523);
  EXPECT_EQ(bf.readFloat(2), 0.9007606506347656);
  EXPECT_EQ(formatBuffer(*mem.get(i->buffer)), "[7, 4, 6, 3, 4]");
  blk::SpecRandom random(7);
  EXPECT_EQ(random.nextUnit(24), 0.38982969522476196);
}

TEST(ArgSpecTest, FileSpecReadsRawElements) {
  std::string path = testing::TempDir() + "/argspec.i32";
  {
    std::ofstream f(path, std::ios::binary);
    int32_t v[3] = {7, -1, 1 << 20};
    f.write(reinterpret_cast<const char *>(v), sizeof v);
  }
  Memory mem;
  llvm::Expected<Arg> a = makeArg(pointer("d", ElemKind::I32), "file:i32:" + path, mem);
  ASSERT_TRUE(bool(a));
  EXPECT_EQ(formatBuffer(*mem.get(a->buffer)), "[7, -1, 1048576]");
  EXPECT_EQ(error(makeArg(pointer("d", ElemKind::I64), "file:i64:" + path, mem)),
            "argument `d`: `" + path + "` has 12 bytes, not a multiple of 8");
  std::remove(path.c_str());
}

TEST(ArgSpecTest, CheckUninitTracksZerosAndEmpty) {
  Memory mem;
  ArgSpecOptions opts;
  opts.checkUninit = true;
  llvm::Expected<Arg> z = makeArg(pointer("z", ElemKind::F32), "zeros:f32:4", mem, opts);
  llvm::Expected<Arg> i = makeArg(pointer("i", ElemKind::F32), "iota:f32:4", mem, opts);
  ASSERT_TRUE(z && i);
  EXPECT_EQ(mem.get(z->buffer)->written.size(), 4u);
  EXPECT_TRUE(mem.get(i->buffer)->written.empty());
}

TEST(ArgSpecTest, ScalarsAndErrors) {
  Memory mem;
  ParamInfo n{"n", false, {ElemKind::I32, false}};
  ParamInfo s{"s", false, {ElemKind::F32, false}};
  EXPECT_EQ(makeArg(n, "-0x10", mem)->i, -16);
  EXPECT_EQ(makeArg(n, "1_000", mem)->i, 1000);
  EXPECT_EQ(makeArg(s, "2.5", mem)->f, 2.5);
  EXPECT_EQ(error(makeArg(n, "1.5", mem)), "argument `n`: expected a i32 literal, got `1.5`");
  EXPECT_EQ(error(makeArg(pointer("x", ElemKind::F32), "iota:f16:4", mem)),
            "argument `x`: type mismatch: the parameter is *f32, the spec gives f16");
  EXPECT_EQ(error(makeArg(pointer("x", ElemKind::F32), "iota:f32:-1", mem)),
            "argument `x`: bad element count `-1`");
  EXPECT_EQ(error(makeArg(pointer("x", ElemKind::F32), "iota:f32:4:2", mem)),
            "argument `x`: unexpected `:2` after `iota:T:N`");
  EXPECT_EQ(error(makeArg(pointer("x", ElemKind::F32), "fill:f32:4", mem)),
            "argument `x`: fill needs a value: fill:T:N:V");
  EXPECT_EQ(error(makeArg(pointer("x", ElemKind::F32), "iota:f8:4", mem)),
            "argument `x`: unknown element type `f8`");
}
