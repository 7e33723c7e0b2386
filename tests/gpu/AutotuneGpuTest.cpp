//===- AutotuneGpuTest.cpp - run-time autotuning on a real GPU ------------===//
//
// Issue 16's device checks with the fixture kernels of tune.json: an
// in-place kernel (x += 1) tuned over four configs leaves exactly x + 1;
// an aliased write and an atomic accumulation see one launch's effect; a
// second context (fresh module state, as a new process) takes the decision
// from the user cache without timing. Prints the first-launch cost with
// and without the cache.
//
//===----------------------------------------------------------------------===//
#include "blk/runtime.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>

namespace {

std::string fixture() { return std::string(BLK_RT_FIXTURE_DIR) + "/kernels_tune.fatbin"; }

/// A fresh, empty cache directory for the test.
std::string freshCache() {
  std::string dir = std::filesystem::temp_directory_path().string() + "/blk-tune-gpu-" +
                    ::testing::UnitTest::GetInstance()->current_test_info()->name();
  std::filesystem::remove_all(dir);
  setenv("BLK_CACHE_DIR", dir.c_str(), 1);
  return dir;
}

double msSince(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
      .count();
}

std::vector<int32_t> randomInts(size_t n) {
  std::mt19937 rng(7);
  std::uniform_int_distribution<int32_t> dist(-1000000, 1000000);
  std::vector<int32_t> v(n);
  for (int32_t &x : v)
    x = dist(rng);
  return v;
}

// The persistent config of inc_ws (tune.json) on the device: the runtime
// launches at most the programs the GPU holds at once (the driver's
// occupancy times the SMs), each walks the 32768 blocks of the grid, and
// every element gets exactly one increment; with a caller's grid of 7 the
// same holds.
TEST(AutotuneGpu, PersistentConfigWalksTheWholeGrid) {
  blk::Context ctx;
  blk::Module mod = ctx.load(fixture());
  const int n = (1 << 22) - 5;
  std::vector<int32_t> host = randomInts(n);
  blk::DeviceBuffer<int32_t> x(ctx, host);
  blk::Kernel k = mod.kernel("inc_ws").with("BLOCK", 128).with("persistent", true);
  ASSERT_EQ(k.specialization().entry, "inc_ws__BLOCK_128__w4__p");
  k.launch(x, n);
  k.launch(blk::Grid(7), x, n);
  ctx.synchronize();
  std::vector<int32_t> got = x.download();
  size_t wrong = 0;
  for (int i = 0; i < n; ++i)
    wrong += got[size_t(i)] != host[size_t(i)] + 2;
  EXPECT_EQ(wrong, 0u);
}

TEST(AutotuneGpu, InPlaceKernelTunedOverFourConfigsAddsExactlyOne) {
  freshCache();
  blk::Context ctx;
  std::vector<blk::AutotuneEvent> events;
  ctx.onAutotune([&](const blk::AutotuneEvent &e) { events.push_back(e); });
  blk::Module mod = ctx.load(fixture());
  const int n = 1 << 22;
  std::vector<int32_t> host = randomInts(n);
  blk::DeviceBuffer<int32_t> x(ctx, host);
  auto t0 = std::chrono::steady_clock::now();
  mod.kernel("inc").launch(x, n);
  ctx.synchronize();
  double tunedMs = msSince(t0);
  std::vector<int32_t> got = x.download();
  size_t wrong = 0;
  for (size_t i = 0; i < host.size(); ++i)
    wrong += got[i] != host[i] + 1;
  EXPECT_EQ(wrong, 0u);
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].source, blk::AutotuneSource::Tuned);
  EXPECT_EQ(events[0].timings.size(), 4u);
  std::printf("%s\nfirst launch (tuning) %.1f ms\n", blk::formatAutotuneEvent(events[0]).c_str(),
              tunedMs);
  // Tuned once: the next launch of the bucket adds one more, untimed.
  t0 = std::chrono::steady_clock::now();
  mod.kernel("inc").launch(x, n);
  ctx.synchronize();
  std::printf("second launch %.3f ms\n", msSince(t0));
  EXPECT_EQ(events.size(), 1u);
  got = x.download();
  wrong = 0;
  for (size_t i = 0; i < host.size(); ++i)
    wrong += got[i] != host[i] + 2;
  EXPECT_EQ(wrong, 0u);
}

TEST(AutotuneGpu, ASecondContextTakesTheDecisionFromTheCache) {
  freshCache();
  const int n = 1 << 24;
  std::vector<int32_t> host = randomInts(n);
  double costs[3] = {0, 0, 0};
  blk::AutotuneSource sources[2] = {};
  for (int run = 0; run < 3; ++run) {
    blk::Context ctx;
    blk::AutotuneEvent event;
    ctx.onAutotune([&](const blk::AutotuneEvent &e) { event = e; });
    blk::Module mod = ctx.load(fixture());
    blk::DeviceBuffer<int32_t> x(ctx, host);
    ctx.synchronize();
    auto t0 = std::chrono::steady_clock::now();
    if (run < 2)
      mod.kernel("inc").launch(x, n); // tuned, then from the cache
    else
      mod.kernel("inc").with("BLOCK", 256).launch(x, n); // pinned: the floor
    ctx.synchronize();
    costs[run] = msSince(t0);
    if (run < 2)
      sources[run] = event.source;
    std::vector<int32_t> got = x.download();
    size_t wrong = 0;
    for (size_t i = 0; i < host.size(); ++i)
      wrong += got[i] != host[i] + 1;
    EXPECT_EQ(wrong, 0u) << "run " << run;
  }
  EXPECT_EQ(sources[0], blk::AutotuneSource::Tuned);
  EXPECT_EQ(sources[1], blk::AutotuneSource::Cache);
  EXPECT_LT(costs[1], costs[0]);
  std::printf("first launch of `inc` (n = 2^24): tuning %.2f ms, from the cache %.2f ms, "
              "pinned %.2f ms\n",
              costs[0], costs[1], costs[2]);
}

TEST(AutotuneGpu, AliasedAndAtomicOutputsSeeOneLaunch) {
  freshCache();
  blk::Context ctx;
  blk::Module mod = ctx.load(fixture());
  std::vector<float> host(100000);
  for (size_t i = 0; i < host.size(); ++i)
    host[i] = float(i % 1000) - 500.0f;
  blk::DeviceBuffer<float> x(ctx, host);
  mod.kernel("add1").launch(x, x, int(host.size())); // y is x
  std::vector<float> got = x.download();
  size_t wrong = 0;
  for (size_t i = 0; i < host.size(); ++i)
    wrong += got[i] != host[i] + 1;
  EXPECT_EQ(wrong, 0u);
  // Integers in floats: the atomic sum is exact in any order.
  blk::DeviceBuffer<float> ones(ctx, std::vector<float>(4096, 1.0f)),
      out(ctx, std::vector<float>{5.0f});
  mod.kernel("accum").launch(ones, out, 4096);
  EXPECT_EQ(out.download()[0], 4101.0f);
}

} // namespace
