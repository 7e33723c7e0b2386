//===- FakeDriverTest.cpp - Context/Module/Kernel over a fake driver ------===//
//
// The driver-facing half of libblkrt, in CI: a Context opened on
// libblkrt_fake_cuda.so (FakeDriver.cpp) loads the fixture artifacts and
// launches; the fake records what reached cuLaunchKernel.
//
//===----------------------------------------------------------------------===//
#include "FakeDriver.h"
#include "FixtureUtil.h"

#include "blk/runtime.h"

#include <cuda.h>
#include <dlfcn.h>

#include <atomic>
#include <cstdlib>
#include <thread>

using namespace blk;
using namespace blk::test;

namespace {

/// The fake driver's hooks, and Contexts opened on it.
class FakeDriver : public ::testing::Test {
protected:
  void SetUp() override {
    unsetenv("BLK_FAKE_CUDA_SM");
    unsetenv("BLK_FAKE_CUDA_NO_DEVICE");
    handle = dlopen(BLK_FAKE_CUDA, RTLD_NOW);
    ASSERT_NE(handle, nullptr) << dlerror();
    lastLaunch = reinterpret_cast<BlkFakeLastLaunchFn>(
        dlsym(handle, "blkFakeLastLaunch"));
    setParamCount = reinterpret_cast<BlkFakeSetParamCountFn>(
        dlsym(handle, "blkFakeSetParamCount"));
    failNextLaunch = reinterpret_cast<BlkFakeFailNextLaunchFn>(
        dlsym(handle, "blkFakeFailNextLaunch"));
    sharedAttribute = reinterpret_cast<BlkFakeSharedAttributeFn>(
        dlsym(handle, "blkFakeSharedAttribute"));
  }
  void TearDown() override {
    unsetenv("BLK_FAKE_CUDA_SM");
    dlclose(handle);
  }
  static Context open() {
    ContextOptions options;
    options.driverLibrary = BLK_FAKE_CUDA;
    return Context(options);
  }
  BlkFakeLaunch last() {
    BlkFakeLaunch l;
    lastLaunch(&l);
    return l;
  }
  template <class Fn> static std::string errorOf(Fn fn) {
    try {
      fn();
    } catch (const Error &e) {
      return e.what();
    }
    return "";
  }

  void *handle = nullptr;
  BlkFakeLastLaunchFn lastLaunch = nullptr;
  BlkFakeSetParamCountFn setParamCount = nullptr;
  BlkFakeFailNextLaunchFn failNextLaunch = nullptr;
  BlkFakeSharedAttributeFn sharedAttribute = nullptr;
};

TEST_F(FakeDriver, ContextReadsTheDevice) {
  Context ctx = open();
  EXPECT_EQ(ctx.device().name, "Fake GPU");
  EXPECT_EQ(ctx.device().sm, 90u);
  EXPECT_EQ(ctx.device().multiprocessors, 132);
  EXPECT_EQ(ctx.device().limits.maxGrid[1], 65535);
  EXPECT_EQ(ctx.device().limits.maxSharedOptin, 232448u);
  EXPECT_EQ(ctx.device().driverVersion, 13000);
}

TEST_F(FakeDriver, NoDeviceAndBadOrdinal) {
  setenv("BLK_FAKE_CUDA_NO_DEVICE", "1", 1);
  EXPECT_EQ(errorOf([] { open(); }),
            "blk: no CUDA device: cuInit failed: CUDA_ERROR_NO_DEVICE (no "
            "CUDA-capable device is detected)");
  unsetenv("BLK_FAKE_CUDA_NO_DEVICE");
  ContextOptions options;
  options.driverLibrary = BLK_FAKE_CUDA;
  options.device = 3;
  EXPECT_EQ(errorOf([&] { Context c(options); }),
            "blk: no CUDA device 3: 1 device(s) present");
}

TEST_F(FakeDriver, DeviceCountAsksTheDriver) {
  EXPECT_EQ(Context::deviceCount(BLK_FAKE_CUDA), 1); // the fake has one device
}

TEST_F(FakeDriver, LaunchPassesGridBlockAndArguments) {
  BLK_REQUIRE_FIXTURE("kernels");
  Context ctx = open();
  Module mod = ctx.load(fixturePath("kernels"));
  DeviceBuffer<float> x(ctx, 5000), out(ctx, 5000);
  setParamCount(3);
  mod.kernel("double_grid").launch(x, out, 5000);
  BlkFakeLaunch l = last();
  EXPECT_STREQ(l.function, "double_grid__BLOCK_1024__w4");
  EXPECT_EQ(l.grid[0], 5u); // cdiv(5000, 1024)
  EXPECT_EQ(l.grid[1], 1u);
  EXPECT_EQ(l.block[0], 128u);
  EXPECT_EQ(l.sharedBytes, 0u);
  EXPECT_EQ(l.stream, nullptr);
  EXPECT_EQ(l.params[0], x.address());
  EXPECT_EQ(l.params[1], out.address());
  EXPECT_EQ(uint32_t(l.params[2]), 5000u);
  setParamCount(3);

  mod.kernel("double_grid").with("BLOCK", 256).launch(x, out, int64_t(5000));
  l = last();
  EXPECT_STREQ(l.function, "double_grid__BLOCK_256__w2");
  EXPECT_EQ(l.grid[0], 20u);
  EXPECT_EQ(l.block[0], 64u);

  Stream stream(ctx);
  mod.kernel("fill2d").launch(stream, out, 100, 65);
  l = last();
  EXPECT_EQ(l.grid[0], 7u);
  EXPECT_EQ(l.grid[1], 3u);
  EXPECT_EQ(l.stream, stream.handle());

  // A stream blk does not own (a cudaStream_t, torch's current stream) goes
  // through StreamRef, with a grid too, in either order.
  auto *foreign = reinterpret_cast<CUstream_st *>(uintptr_t(0x5eed0));
  mod.kernel("fill2d").launch(StreamRef(foreign), out, 100, 65);
  EXPECT_EQ(last().stream, static_cast<void *>(foreign));
  mod.kernel("no_grid").launch(Grid{2, 1, 1}, StreamRef(foreign), DevicePtr<int32_t>(out.address()));
  EXPECT_EQ(last().stream, static_cast<void *>(foreign));
  EXPECT_EQ(last().grid[0], 2u);
  mod.kernel("fill2d").launch(StreamRef(stream), out, 100, 65);
  EXPECT_EQ(last().stream, stream.handle());
  mod.kernel("fill2d").launch(StreamRef(), out, 100, 65);
  EXPECT_EQ(last().stream, nullptr);

  mod.kernel("no_grid").launch(Grid{6, 2, 3},
                               DevicePtr<int32_t>(out.address()));
  l = last();
  EXPECT_EQ(l.grid[0], 6u);
  EXPECT_EQ(l.grid[2], 3u);
}

// blkc leaves a config over a resource limit out of the manifest (tests/lit/
// target/build-resource-limits.test); asking for it is an error naming the
// configs that were compiled.
TEST_F(FakeDriver, WithAConfigLeftOutOfTheManifestIsAnError) {
  BLK_REQUIRE_FIXTURE("kernels");
  Context ctx = open();
  Module mod = ctx.load(fixturePath("kernels"));
  EXPECT_EQ(errorOf([&] { mod.kernel("double_grid").with("BLOCK", 512); }),
            "blk: kernel `double_grid`: no specialisation with BLOCK=512 was compiled (blkc "
            "leaves out, with a warning, configs over a resource limit of the target); "
            "available: BLOCK=1024 num_warps=4 num_stages=3; BLOCK=256 num_warps=2 num_stages=3");
  // Each pin is checked with the earlier ones: BLOCK=256 was compiled for
  // 2 warps only.
  EXPECT_NE(errorOf([&] { mod.kernel("double_grid").with("BLOCK", 256).with("num_warps", 4); }),
            "");
  EXPECT_EQ(mod.kernel("double_grid").with("BLOCK", 256).with("num_warps", 2).specialization().entry,
            "double_grid__BLOCK_256__w2");
}

// A warp-specialised config and a plain one may agree on every value but
// warp_specialize (bench/gemm's A/B builds both): with() tells them apart,
// and the chosen one launches with its own thread count.
TEST_F(FakeDriver, WithSelectsByWarpSpecialize) {
  BLK_REQUIRE_FIXTURE("kernels_tune");
  Context ctx = open();
  Module mod = ctx.load(fixturePath("kernels_tune"));
  Kernel plain = mod.kernel("inc_ws").with("BLOCK", 128);
  EXPECT_EQ(plain.specialization().entry, "inc_ws__BLOCK_128__w4");
  Kernel ws = plain.with("warp_specialize", true);
  EXPECT_EQ(ws.specialization().entry, "inc_ws__BLOCK_128__w4__ws");
  EXPECT_EQ(ws.with("warp_specialize", 0).specialization().entry,
            "inc_ws__BLOCK_128__w4");
  EXPECT_EQ(mod.kernel("inc_ws").with("warp_specialize", 1).with("num_stages", 3)
                .specialization().entry,
            "inc_ws__BLOCK_128__w4__ws");
  EXPECT_EQ(errorOf([&] { plain.with("num_stages", 4); }),
            "blk: kernel `inc_ws`: no specialisation with BLOCK=128 num_stages=4 was "
            "compiled (blkc leaves out, with a warning, configs over a resource limit of "
            "the target); available: BLOCK=128 num_warps=4 num_stages=3; BLOCK=128 "
            "num_warps=4 num_stages=3 warp_specialize=1; BLOCK=128 num_warps=4 "
            "num_stages=3 persistent=1");
  DeviceBuffer<int32_t> x(ctx, 300);
  ws.launch(x, 300);
  BlkFakeLaunch l = last();
  EXPECT_STREQ(l.function, "inc_ws__BLOCK_128__w4__ws");
  EXPECT_EQ(l.grid[0], 3u);
  EXPECT_EQ(l.block[0], 256u); // 4 consumer warps and the producer warpgroup
}

// A persistent config (`persistent` in the manifest) is another config of
// the same values, chosen by with("persistent", …); its launch is clamped
// to the programs the device holds at once (132 SMs times the driver's
// occupancy, 2048 / 128 = 16 per SM in the fake), and a grid the caller
// passes is launched as given.
TEST_F(FakeDriver, PersistentLaunchesAtMostTheResidentPrograms) {
  BLK_REQUIRE_FIXTURE("kernels_tune");
  Context ctx = open();
  Module mod = ctx.load(fixturePath("kernels_tune"));
  Kernel p = mod.kernel("inc_ws").with("BLOCK", 128).with("persistent", true);
  EXPECT_EQ(p.specialization().entry, "inc_ws__BLOCK_128__w4__p");
  EXPECT_EQ(p.specialization().configKey, "BLOCK=128 num_warps=4 num_stages=3 persistent=1");
  EXPECT_EQ(p.with("persistent", 0).specialization().entry, "inc_ws__BLOCK_128__w4");
  DeviceBuffer<int32_t> x(ctx, 300);
  p.launch(x, 300); // cdiv(300, 128) = 3 programs: fewer than fit
  EXPECT_STREQ(last().function, "inc_ws__BLOCK_128__w4__p");
  EXPECT_EQ(last().grid[0], 3u);
  p.launch(x, int32_t(1) << 24); // 131072 programs: clamped
  EXPECT_EQ(last().grid[0], 132u * 16u);
  EXPECT_EQ(last().block[0], 128u);
  p.launch(Grid(5), x, int32_t(1) << 24);
  EXPECT_EQ(last().grid[0], 5u);
  // The plain config launches the whole grid.
  p.with("persistent", false).launch(x, int32_t(1) << 24);
  EXPECT_EQ(last().grid[0], 131072u);
}

TEST_F(FakeDriver, SharedMemoryOptInHappensAtLoad) {
  BLK_REQUIRE_FIXTURE("kernels");
  Context ctx = open();
  Module mod = ctx.load(fixturePath("kernels"));
  EXPECT_EQ(sharedAttribute("big_shared__w4"), 65536);
  EXPECT_EQ(sharedAttribute("double_grid__BLOCK_1024__w4"), -1);
  DeviceBuffer<float> x(ctx, 16384), out(ctx, 2);
  mod.kernel("big_shared").launch(x, out);
  BlkFakeLaunch l = last();
  EXPECT_EQ(l.sharedBytes, 65536u);
  EXPECT_EQ(l.grid[0], 2u);
}

TEST_F(FakeDriver, DriverErrorsCarryNameAndKernel) {
  BLK_REQUIRE_FIXTURE("kernels");
  Context ctx = open();
  Module mod = ctx.load(fixturePath("kernels"));
  DeviceBuffer<float> x(ctx, 16);
  failNextLaunch(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
  try {
    mod.kernel("double_grid").launch(x, x, 5000);
    FAIL() << "no error";
  } catch (const Error &e) {
    EXPECT_STREQ(e.what(),
                 "blk: kernel `double_grid`: launch of "
                 "`double_grid__BLOCK_1024__w4` on grid (5, 1, 1) failed: "
                 "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES (too many resources "
                 "requested for launch)");
    EXPECT_EQ(e.kernel(), "double_grid");
    EXPECT_EQ(e.cudaCode(), int(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES));
  }
}

// A failed launch of a persistent entry names the grid it launched (the
// clamped one), not the `@grid` it walks.
TEST_F(FakeDriver, PersistentLaunchErrorNamesTheClampedGrid) {
  BLK_REQUIRE_FIXTURE("kernels_tune");
  Context ctx = open();
  Module mod = ctx.load(fixturePath("kernels_tune"));
  Kernel p = mod.kernel("inc_ws").with("BLOCK", 128).with("persistent", true);
  DeviceBuffer<int32_t> x(ctx, 300);
  failNextLaunch(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES);
  EXPECT_EQ(errorOf([&] { p.launch(x, int32_t(1) << 24); }),
            "blk: kernel `inc_ws`: launch of `inc_ws__BLOCK_128__w4__p` on grid (2112, 1, "
            "1) failed: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES (too many resources requested "
            "for launch)");
}

TEST_F(FakeDriver, ArtifactMustSuitTheDevice) {
  BLK_REQUIRE_FIXTURE("kernels_sm80");
  setenv("BLK_FAKE_CUDA_SM", "80", 1);
  {
    Context ctx = open();
    EXPECT_EQ(errorOf([&] { ctx.load(fixturePath("kernels")); }),
              "blk: " + fixturePath("kernels") +
                  ": no cubin or PTX usable on device 0 (Fake GPU, sm_80); "
                  "the file holds cubin sm_90, PTX compute_90");
  }
  setenv("BLK_FAKE_CUDA_SM", "86", 1);
  {
    Context ctx = open();
    EXPECT_EQ(ctx.load(fixturePath("kernels_sm80")).manifest().kernels.size(),
              8u);
  }
  setenv("BLK_FAKE_CUDA_SM", "100", 1);
  {
    Context ctx = open(); // sm_100 runs the sm_90 artifact through its PTX
    EXPECT_EQ(errorOf([&] { ctx.load(fixturePath("kernels")); }), "");
    EXPECT_NE(errorOf([&] { ctx.load(fixturePath("kernels_sm90a")); }), "");
  }
}

TEST_F(FakeDriver, PtxOnlyArtifactResolvesEntries) {
  BLK_REQUIRE_FIXTURE("kernels_ptx");
  Context ctx = open();
  Module mod = ctx.load(fixturePath("kernels_ptx"));
  EXPECT_EQ(mod.kernel("scale_f64").specialization().entry, "scale_f64__w4");
}

TEST_F(FakeDriver, MissingEntryIsReportedAtLoad) {
  BLK_REQUIRE_FIXTURE("kernels_missing_entry");
  Context ctx = open();
  EXPECT_EQ(errorOf([&] { ctx.load(fixturePath("kernels_missing_entry")); }),
            "blk: kernel `ghost`: " + fixturePath("kernels_missing_entry") +
                ": entry `ghost__w4` named by the manifest is not in the "
                "module: CUDA_ERROR_NOT_FOUND (named symbol not found)");
}

TEST_F(FakeDriver, DeviceBufferRoundTripAndModuleCache) {
  BLK_REQUIRE_FIXTURE("kernels");
  Context ctx = open();
  std::vector<int32_t> host = {1, -2, 3, -4, 5};
  DeviceBuffer<int32_t> buf(ctx, host);
  EXPECT_EQ(buf.download(), host);
  buf.fill(9);
  EXPECT_EQ(buf.download(), std::vector<int32_t>(5, 9));
  Module a = ctx.load(fixturePath("kernels"));
  auto bytes = fixtureBytes("kernels");
  Module b = ctx.loadImage(bytes.data(), bytes.size(), "again");
  EXPECT_EQ(&a.manifest(), &b.manifest());
  EXPECT_EQ(b.name(), fixturePath("kernels")); // the first load's name
  Event start(ctx), stop(ctx);
  start.record();
  stop.record();
  stop.synchronize();
  // The fake's clock advances only with launches: none in between.
  EXPECT_EQ(stop.elapsedMs(start), 0.0f);
}

// Fresh threads have no current context: every launch must make the
// primary context current itself (the fake fails launches without one).
TEST_F(FakeDriver, ThreadsLaunchConcurrently) {
  BLK_REQUIRE_FIXTURE("kernels");
  Context ctx = open();
  DeviceBuffer<float> x(ctx, 64), out(ctx, 64);
  std::atomic<int> failures{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < 8; ++t)
    pool.emplace_back([&, t] {
      try {
        Module mod = ctx.load(fixturePath("kernels"));
        Kernel k = mod.kernel("double_grid").with("BLOCK", t % 2 ? 256 : 1024);
        for (int i = 0; i < 2000; ++i)
          k.launch(x, out, 64 + i);
      } catch (const Error &) {
        ++failures;
      }
    });
  for (std::thread &th : pool)
    th.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_GE(last().launches, 16000u);
}

} // namespace
