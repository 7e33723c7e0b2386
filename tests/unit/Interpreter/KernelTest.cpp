// Whole kernels from blk IR text through the C++ API: the seeds' kernels,
// bounds reports, atomics with threads, print and assert, blkgpu IR.
#include "blk/Interpreter/Format.h"
#include "blk/Interpreter/Interpreter.h"

#include "mlir/IR/MLIRContext.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <tuple>
#include <vector>

using namespace blk::interp;

namespace {
struct Loaded {
  mlir::MLIRContext ctx;
  mlir::OwningOpRef<mlir::ModuleOp> module;
  std::unique_ptr<Kernel> kernel;
};

std::unique_ptr<Loaded> load(const std::string &ir, const std::string &name) {
  auto l = std::make_unique<Loaded>();
  prepareContext(l->ctx);
  auto m = parseModule(l->ctx, ir);
  if (!m) {
    ADD_FAILURE() << llvm::toString(m.takeError());
    return nullptr;
  }
  l->module = std::move(*m);
  auto fns = findKernels(*l->module, name, {});
  if (fns.empty()) {
    ADD_FAILURE() << "no kernel " << name;
    return nullptr;
  }
  auto k = Kernel::create(fns.front());
  if (!k) {
    ADD_FAILURE() << llvm::toString(k.takeError());
    return nullptr;
  }
  l->kernel = std::move(*k);
  return l;
}

// samples/double.blk's kernel at BLOCK = 8, as IRGen emits it.
const char *kDouble = R"(
func.func @double_grid__BLOCK_8__w4(%x: !blk.ptr<f32>, %out: !blk.ptr<f32>, %n: i32)
    attributes {blk.kernel = "double_grid", blk.config = {BLOCK = 8 : i64},
                blk.param_names = ["x", "out", "n"],
                blk.grid = "[{\"op\": \"cdiv\", \"args\": [{\"param\": 2}, {\"int\": 8}]}]"} {
  %pid = blk.program_id 0
  %c8 = arith.constant 8 : i32
  %base = arith.muli %pid, %c8 : i32
  %r = blk.make_range 0, 8 : tensor<8xi32>
  %bs = blk.splat %base : i32 -> tensor<8xi32>
  %offs = arith.addi %bs, %r : tensor<8xi32>
  %ns = blk.splat %n : i32 -> tensor<8xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<8xi32>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<8x!blk.ptr<f32>>
  %xp = blk.addptr %xs, %offs : tensor<8x!blk.ptr<f32>>, tensor<8xi32>
  %zero = arith.constant dense<0.0> : tensor<8xf32>
  %v = blk.load %xp, %mask, %zero : tensor<8x!blk.ptr<f32>>
  %two = arith.constant dense<2.0> : tensor<8xf32>
  %d = arith.mulf %v, %two : tensor<8xf32>
  %os = blk.splat %out : !blk.ptr<f32> -> tensor<8x!blk.ptr<f32>>
  %op = blk.addptr %os, %offs : tensor<8x!blk.ptr<f32>>, tensor<8xi32>
  blk.store %op, %d, %mask : tensor<8x!blk.ptr<f32>>
  return
}
)";
} // namespace

static BufferId iota(Memory &mem, const std::string &name, ElemKind kind, size_t n) {
  BufferId id = mem.create(name, {kind, false}, n);
  for (size_t k = 0; k < n; ++k)
    mem.get(id)->writeFloat(k, double(k));
  return id;
}

// A persistent entry (blk.persistent) is launched with at most
// kInterpreterPersistentPrograms programs of its `@grid`: 3 of 13 here; the
// same IR without the mark launches all 13.
TEST(KernelTest, PersistentEntryLaunchesAtMostThreePrograms) {
  std::string ir = kDouble;
  ir.replace(ir.find("blk.kernel = "), 0, "blk.persistent, ");
  auto persistent = load(ir, "double_grid");
  auto plain = load(kDouble, "double_grid");
  ASSERT_TRUE(persistent && plain);
  Memory mem;
  BufferId x = iota(mem, "x", ElemKind::F32, 100);
  BufferId out = mem.create("out", {ElemKind::F32, false}, 100);
  std::vector<Arg> args{Arg::ofBuffer(x), Arg::ofBuffer(out), Arg::ofInt(100)};
  auto clamped = persistent->kernel->evalGrid(args);
  auto whole = plain->kernel->evalGrid(args);
  ASSERT_TRUE(bool(clamped) && bool(whole));
  EXPECT_EQ((*clamped)[0], 3);
  EXPECT_EQ((*whole)[0], 13);
}

TEST(KernelTest, DoubleWithMaskedTailAndGridFromAttribute) {
  auto l = load(kDouble, "double_grid");
  ASSERT_TRUE(l);
  EXPECT_EQ(l->kernel->params().size(), 3u);
  EXPECT_EQ(l->kernel->params()[0].name, "x");
  EXPECT_EQ(l->kernel->config().at("BLOCK"), 8);
  Memory mem;
  BufferId x = iota(mem, "x", ElemKind::F32, 7);
  BufferId out = mem.create("out", {ElemKind::F32, false}, 7);
  std::vector<Arg> args{Arg::ofBuffer(x), Arg::ofBuffer(out), Arg::ofInt(7)};
  auto grid = l->kernel->evalGrid(args);
  ASSERT_TRUE(bool(grid));
  EXPECT_EQ((*grid)[0], 1);
  ASSERT_FALSE(l->kernel->launch(mem, args, {}));
  EXPECT_EQ(formatBuffer(*mem.get(out)), "[0, 2, 4, 6, 8, 10, 12]");

  Memory mem10;
  BufferId x10 = iota(mem10, "x", ElemKind::F32, 10);
  BufferId out10 = mem10.create("out", {ElemKind::F32, false}, 10);
  LaunchOptions threaded;
  threaded.threads = 2;
  ASSERT_FALSE(l->kernel->launch(mem10, {Arg::ofBuffer(x10), Arg::ofBuffer(out10), Arg::ofInt(10)},
                                 threaded));
  EXPECT_EQ(formatBuffer(*mem10.get(out10)), "[0, 2, 4, 6, 8, 10, 12, 14, 16, 18]");
}

TEST(KernelTest, OutOfBoundsAccessIsAnErrorNamingProgramAndElement) {
  auto l = load(kDouble, "double_grid");
  ASSERT_TRUE(l);
  Memory mem;
  BufferId x = iota(mem, "x", ElemKind::F32, 10);
  BufferId out = mem.create("out", {ElemKind::F32, false}, 10);
  // n = 12 lies about the size: program 1 reads x[10] at block element [2].
  LaunchOptions opts;
  opts.grid = std::array<int64_t, 3>{2, 1, 1};
  llvm::Error err =
      l->kernel->launch(mem, {Arg::ofBuffer(x), Arg::ofBuffer(out), Arg::ofInt(12)}, opts);
  ASSERT_TRUE(bool(err));
  EXPECT_EQ(llvm::toString(std::move(err)),
            "<ir>:17:8: error: out-of-bounds load of x[10] (buffer has 10 elements) in kernel "
            "`double_grid`, program (1,0,0), block element [2]\n");
}

TEST(KernelTest, ScfForAccumulatesAndReduces) {
  // sum_gridstride of the seed: 8 chunks of 128 then one sum.
  const char *ir = R"(
func.func @sum_gridstride(%x: !blk.ptr<f32>, %out: !blk.ptr<f32>, %n: i32)
    attributes {blk.kernel = "sum_gridstride", blk.param_names = ["x", "out", "n"]} {
  %r = blk.make_range 0, 128 : tensor<128xi32>
  %acc0 = arith.constant dense<0.0> : tensor<128xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %c128 = arith.constant 128 : i32
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<128x!blk.ptr<f32>>
  %ns = blk.splat %n : i32 -> tensor<128xi32>
  %acc = scf.for %c = %c0 to %c8 step %c1 iter_args(%a = %acc0) -> (tensor<128xf32>) : i32 {
    %base = arith.muli %c, %c128 : i32
    %bs = blk.splat %base : i32 -> tensor<128xi32>
    %offs = arith.addi %bs, %r : tensor<128xi32>
    %mask = arith.cmpi slt, %offs, %ns : tensor<128xi32>
    %p = blk.addptr %xs, %offs : tensor<128x!blk.ptr<f32>>, tensor<128xi32>
    %v = blk.load %p, %mask, %acc0 : tensor<128x!blk.ptr<f32>>
    %s = arith.addf %a, %v : tensor<128xf32>
    scf.yield %s : tensor<128xf32>
  }
  %total = blk.reduce %acc {axis = 0 : i32} : (tensor<128xf32>) -> f32 {
  ^bb0(%l: f32, %rr: f32):
    %t = arith.addf %l, %rr : f32
    blk.reduce.return %t : f32
  }
  blk.store %out, %total : !blk.ptr<f32>
  return
}
)";
  auto l = load(ir, "sum_gridstride");
  ASSERT_TRUE(l);
  Memory mem;
  BufferId x = iota(mem, "x", ElemKind::F32, 1000);
  BufferId out = mem.create("out", {ElemKind::F32, false}, 1);
  LaunchOptions opts;
  opts.grid = std::array<int64_t, 3>{1, 1, 1};
  ASSERT_FALSE(l->kernel->launch(mem, {Arg::ofBuffer(x), Arg::ofBuffer(out), Arg::ofInt(1000)}, opts));
  EXPECT_EQ(formatBuffer(*mem.get(out)), "[499500]");
}

TEST(KernelTest, BlkGpuIrRunsAsIfUnencoded) {
  // The sum above as the back end leaves it: encoded blocks, blkgpu.* hints
  // on the load and the loop, and the accumulator converted to another
  // layout and back in the loop body. It computes the same sum.
  const char *ir = R"(
#b = #blkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#v = #blkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @sum_gridstride(%x: !blk.ptr<f32>, %out: !blk.ptr<f32>, %n: i32)
    attributes {blk.kernel = "sum_gridstride", blk.param_names = ["x", "out", "n"],
                blkgpu.num_warps = 4 : i32} {
  %r = blk.make_range 0, 128 : tensor<128xi32, #b>
  %acc0 = arith.constant dense<0.0> : tensor<128xf32, #b>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %c128 = arith.constant 128 : i32
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<128x!blk.ptr<f32>, #b>
  %ns = blk.splat %n : i32 -> tensor<128xi32, #b>
  %acc = scf.for %c = %c0 to %c8 step %c1 iter_args(%a = %acc0) -> (tensor<128xf32, #b>) : i32 {
    %base = arith.muli %c, %c128 : i32
    %bs = blk.splat %base : i32 -> tensor<128xi32, #b>
    %offs = arith.addi %bs, %r : tensor<128xi32, #b>
    %mask = arith.cmpi slt, %offs, %ns : tensor<128xi32, #b>
    %p = blk.addptr %xs, %offs : tensor<128x!blk.ptr<f32>, #b>, tensor<128xi32, #b>
    %v = blk.load %p, %mask, %acc0 {blkgpu.align = array<i64: 4>, blkgpu.contiguity = array<i64: 128>,
                                    blkgpu.mask_constancy = array<i64: 1>, blkgpu.layout = #v}
        : tensor<128x!blk.ptr<f32>, #b>
    %av = blkgpu.convert_layout %a : tensor<128xf32, #b> -> tensor<128xf32, #v>
    %vv = blkgpu.convert_layout %v : tensor<128xf32, #b> -> tensor<128xf32, #v>
    %sv = arith.addf %av, %vv : tensor<128xf32, #v>
    %s = blkgpu.convert_layout %sv : tensor<128xf32, #v> -> tensor<128xf32, #b>
    scf.yield %s : tensor<128xf32, #b>
  } {blkgpu.unroll = 2 : i32}
  %total = blk.reduce %acc {axis = 0 : i32} : (tensor<128xf32, #b>) -> f32 {
  ^bb0(%l: f32, %rr: f32):
    %t = arith.addf %l, %rr : f32
    blk.reduce.return %t : f32
  }
  blk.store %out, %total : !blk.ptr<f32>
  return
}
)";
  auto l = load(ir, "sum_gridstride");
  ASSERT_TRUE(l);
  Memory mem;
  BufferId x = iota(mem, "x", ElemKind::F32, 1000);
  BufferId out = mem.create("out", {ElemKind::F32, false}, 1);
  LaunchOptions opts;
  opts.grid = std::array<int64_t, 3>{1, 1, 1};
  ASSERT_FALSE(l->kernel->launch(mem, {Arg::ofBuffer(x), Arg::ofBuffer(out), Arg::ofInt(1000)}, opts));
  EXPECT_EQ(formatBuffer(*mem.get(out)), "[499500]");
}

TEST(KernelTest, AtomicAddFromManyProgramsOnThreads) {
  const char *ir = R"(
func.func @count(%c: !blk.ptr<i32>) attributes {blk.param_names = ["c"]} {
  %one = arith.constant dense<1> : tensor<4xi32>
  %r = blk.make_range 0, 4 : tensor<4xi32>
  %cs = blk.splat %c : !blk.ptr<i32> -> tensor<4x!blk.ptr<i32>>
  %p = blk.addptr %cs, %r : tensor<4x!blk.ptr<i32>>, tensor<4xi32>
  %old = blk.atomic_rmw add %p, %one : tensor<4x!blk.ptr<i32>>
  return
}
)";
  auto l = load(ir, "count");
  ASSERT_TRUE(l);
  Memory mem;
  BufferId c = mem.create("c", {ElemKind::I32, false}, 4);
  LaunchOptions opts;
  opts.grid = std::array<int64_t, 3>{100, 10, 1};
  opts.threads = 4;
  ASSERT_FALSE(l->kernel->launch(mem, {Arg::ofBuffer(c)}, opts));
  EXPECT_EQ(formatBuffer(*mem.get(c)), "[1000, 1000, 1000, 1000]");
}

TEST(KernelTest, PrintAndAssert) {
  const char *ir = R"(
func.func @dbg(%n: i32) attributes {blk.param_names = ["n"]} {
  %pid = blk.program_id 0
  %r = blk.make_range 0, 2 : tensor<2xi32>
  %f = arith.sitofp %r : tensor<2xi32> to tensor<2xf32>
  blk.print "r=%d f=%.1f n" %r, %f, %n : tensor<2xi32>, tensor<2xf32>, i32
  blk.print "pid" %pid : i32
  %ns = blk.splat %n : i32 -> tensor<2xi32>
  %ok = arith.cmpi slt, %r, %ns : tensor<2xi32>
  blk.assert %ok, "r < n", "dbg.blk", 3 : tensor<2xi1>
  return
}
)";
  auto l = load(ir, "dbg");
  ASSERT_TRUE(l);
  Memory mem;
  std::string printed;
  LaunchOptions opts;
  opts.grid = std::array<int64_t, 3>{2, 1, 1};
  opts.printSink = [&](const std::string &s) { printed += s; };
  ASSERT_FALSE(l->kernel->launch(mem, {Arg::ofInt(5)}, opts));
  EXPECT_EQ(printed, "pid (0, 0, 0) idx (0) r=0 f=0.0 n: 5\n"
                     "pid (0, 0, 0) idx (1) r=1 f=1.0 n: 5\n"
                     "pid (0, 0, 0) pid: 0\n"
                     "pid (1, 0, 0) idx (0) r=0 f=0.0 n: 5\n"
                     "pid (1, 0, 0) idx (1) r=1 f=1.0 n: 5\n"
                     "pid (1, 0, 0) pid: 1\n");
  llvm::Error err = l->kernel->launch(mem, {Arg::ofInt(1)}, opts);
  ASSERT_TRUE(bool(err));
  EXPECT_EQ(llvm::toString(std::move(err)),
            "<ir>:10:3: error: assertion failed: r < n in kernel `dbg`, program (0,0,0), "
            "block element [1]\n");
}

namespace {

/// `inner` wrapped in `levels` nodes {"op": "neg", "args": [...]}.
std::string nestedNeg(unsigned levels, const std::string &inner) {
  std::string s = inner;
  for (unsigned i = 0; i < levels; ++i)
    s = R"({"op":"neg","args":[)" + s + "]}";
  return s;
}

std::string errorOf(llvm::Expected<std::array<int64_t, 3>> r) {
  if (r)
    return "";
  return llvm::toString(r.takeError());
}

TEST(KernelTest, GridJsonEvaluatesTheManifestTree) {
  // cdiv(n, 128) * 2 with n = 1000, and a second axis from a parameter.
  std::string json =
      R"([{"op":"mul","args":[{"op":"cdiv","args":[{"param":0},{"int":128}]},{"int":2}]},)"
      R"({"param":1}])";
  auto grid = evalGridJson(json, {Arg::ofInt(1000), Arg::ofInt(3)});
  ASSERT_TRUE(bool(grid)) << llvm::toString(grid.takeError());
  EXPECT_EQ(*grid, (std::array<int64_t, 3>{16, 3, 1}));
  // 64 levels are fine (an even count of negations gives the value back).
  auto deep = evalGridJson("[" + nestedNeg(64, R"({"int":7})") + "]", {});
  ASSERT_TRUE(bool(deep)) << llvm::toString(deep.takeError());
  EXPECT_EQ((*deep)[0], 7);
}

TEST(KernelTest, GridJsonNestingIsBounded) {
  // A crafted tree 100000 levels deep is an error, not a stack overflow.
  std::string error = errorOf(evalGridJson("[" + nestedNeg(100000, R"({"int":1})") + "]", {}));
  EXPECT_NE(error.find("nests more than 64 levels"), std::string::npos) << error;
  error = errorOf(evalGridJson("[" + nestedNeg(65, R"({"int":1})") + "]", {}));
  EXPECT_NE(error.find("nests more than 64 levels"), std::string::npos) << error;
}

TEST(KernelTest, GridJsonOverflowIsAnError) {
  auto big = [](const char *op, int64_t a, int64_t b) {
    return "[{\"op\":\"" + std::string(op) + "\",\"args\":[{\"int\":" + std::to_string(a) +
           "},{\"int\":" + std::to_string(b) + "}]}]";
  };
  const int64_t max = INT64_MAX, min = INT64_MIN;
  for (auto [op, a, b] : std::vector<std::tuple<const char *, int64_t, int64_t>>{
           {"mul", int64_t(1) << 62, 4}, {"add", max, 1}, {"sub", min, 1},
           {"div", min, -1}, {"mod", min, -1}, {"cdiv", max, 2}}) {
    std::string error = errorOf(evalGridJson(big(op, a, b), {}));
    EXPECT_NE(error.find("overflows a 64-bit integer"), std::string::npos) << op << ": " << error;
  }
  std::string neg = errorOf(evalGridJson(
      R"([{"op":"neg","args":[{"int":)" + std::to_string(min) + "}]}]", {}));
  EXPECT_NE(neg.find("overflows"), std::string::npos) << neg;
}

} // namespace
