//===- AutotuneTest.cpp - run-time autotuning over the fake driver --------===//
//
// Every rule of docs/tuning.md that a launch follows: the first unpinned
// launch times the configs on the caller's arguments and picks the fastest
// (the fake driver's clock advances by a per-function time), the caller
// sees exactly one launch's effect (snapshots of read-write, atomic,
// zeroed and aliased memory), decisions are reused in memory, from the
// cache (only configs whose code changed are timed again), from embedded
// and loaded tables; capture, the snapshot limit and BLK_AUTOTUNE=off /
// cached never time; `@requires` filters configs; eight threads' first
// launches tune once. Fixture: fixtures/tune.json + tune.cu.
//
//===----------------------------------------------------------------------===//
#include "FakeDriver.h"
#include "FixtureUtil.h"

#include "blk/runtime.h"

#include <cuda.h>
#include <dlfcn.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <numeric>
#include <sstream>
#include <thread>

using namespace blk;
using namespace blk::test;

namespace {

/// What the fixture's kernels do, on the fake's host memory.
void kernelEffect(const char *function, void **params) {
  auto arg = [&](int i) { return params[i]; };
  auto i32 = [&](int i) { return *static_cast<int32_t *>(arg(i)); };
  auto ptr = [&](int i) { return *static_cast<void **>(arg(i)); };
  std::string f = function;
  if (f.rfind("inc__", 0) == 0) {
    auto *x = static_cast<int32_t *>(ptr(0));
    for (int32_t i = 0; i < i32(1); ++i)
      x[i] += 1;
  } else if (f.rfind("add1__", 0) == 0) {
    auto *x = static_cast<float *>(ptr(0));
    auto *y = static_cast<float *>(ptr(1));
    for (int32_t i = 0; i < i32(2); ++i)
      y[i] = x[i] + 1;
  } else if (f.rfind("accum__", 0) == 0) {
    auto *x = static_cast<float *>(ptr(0));
    auto *out = static_cast<float *>(ptr(1));
    for (int32_t i = 0; i < i32(2); ++i)
      *out += x[i];
  }
}

class Autotune : public ::testing::Test {
protected:
  void SetUp() override {
    handle = dlopen(BLK_FAKE_CUDA, RTLD_NOW);
    ASSERT_NE(handle, nullptr) << dlerror();
    auto sym = [&](const char *name) {
      void *p = dlsym(handle, name);
      EXPECT_NE(p, nullptr) << name;
      return p;
    };
    setTime = reinterpret_cast<BlkFakeSetKernelTimeFn>(sym("blkFakeSetKernelTime"));
    setEffect = reinterpret_cast<BlkFakeSetKernelEffectFn>(sym("blkFakeSetKernelEffect"));
    setCapturing = reinterpret_cast<BlkFakeSetCapturingFn>(sym("blkFakeSetCapturing"));
    launchCount = reinterpret_cast<BlkFakeLaunchCountFn>(sym("blkFakeLaunchCount"));
    failNextLaunch = reinterpret_cast<BlkFakeFailNextLaunchFn>(sym("blkFakeFailNextLaunch"));
    lastLaunch = reinterpret_cast<BlkFakeLastLaunchFn>(sym("blkFakeLastLaunch"));
    setEffect(kernelEffect);
    const ::testing::TestInfo *info = ::testing::UnitTest::GetInstance()->current_test_info();
    cacheDir = std::string(BLK_TEST_TMPDIR) + "/tune-cache/" + info->name();
    std::filesystem::remove_all(cacheDir);
    setenv("BLK_CACHE_DIR", cacheDir.c_str(), 1);
    for (const char *v : {"BLK_AUTOTUNE", "BLK_AUTOTUNE_PRINT", "BLK_TUNE_SNAPSHOT_LIMIT_MB",
                          "BLK_TUNE_BUDGET_MS"})
      unsetenv(v);
    // inc: BLOCK=256 is the fastest.
    times({{"inc__BLOCK_64__w2", 1.0}, {"inc__BLOCK_128__w4", 0.5},
           {"inc__BLOCK_256__w8", 0.2}, {"inc__BLOCK_512__w16", 0.3}});
  }
  void TearDown() override {
    setEffect(nullptr);
    dlclose(handle);
  }
  void times(std::initializer_list<std::pair<const char *, double>> list) {
    for (auto [f, ms] : list)
      setTime(f, ms);
  }
  static Context open() {
    ContextOptions options;
    options.driverLibrary = BLK_FAKE_CUDA;
    return Context(options);
  }
  /// Launch counts of the functions named, for before/after comparisons.
  std::vector<uint64_t> counts(std::initializer_list<const char *> functions) {
    std::vector<uint64_t> out;
    for (const char *f : functions)
      out.push_back(launchCount(f));
    return out;
  }
  /// Records every decision of `ctx`.
  struct Recorder {
    std::mutex mutex;
    std::vector<AutotuneEvent> events;
    void attach(const Context &ctx) {
      ctx.onAutotune([this](const AutotuneEvent &e) {
        std::lock_guard<std::mutex> lock(mutex);
        events.push_back(e);
      });
    }
  };
  /// A context, as a new process opens one, recording its decisions, with
  /// the fixture's module loaded: `auto &[ctx, rec, mod] = session;`.
  struct Session {
    Context ctx = open();
    Recorder rec;
    Module mod;
    Session() : mod(ctx.load(fixturePath("kernels_tune"))) { rec.attach(ctx); }
  };
  std::string cacheFile() {
    for (const auto &entry : std::filesystem::directory_iterator(cacheDir))
      if (entry.path().extension() == ".json")
        return entry.path().string();
    return "";
  }
  std::string slurp(const std::string &path) {
    std::ifstream in(path);
    return std::string(std::istreambuf_iterator<char>(in), {});
  }

  void *handle = nullptr;
  BlkFakeSetKernelTimeFn setTime = nullptr;
  BlkFakeSetKernelEffectFn setEffect = nullptr;
  BlkFakeSetCapturingFn setCapturing = nullptr;
  BlkFakeLaunchCountFn launchCount = nullptr;
  BlkFakeFailNextLaunchFn failNextLaunch = nullptr;
  BlkFakeLastLaunchFn lastLaunch = nullptr;
  std::string cacheDir;
};

const std::initializer_list<const char *> kInc = {"inc__BLOCK_64__w2", "inc__BLOCK_128__w4",
                                                  "inc__BLOCK_256__w8", "inc__BLOCK_512__w16"};

TEST_F(Autotune, InPlaceKernelIsTunedAndAddsExactlyOne) {
  BLK_REQUIRE_FIXTURE("kernels_tune");
  Session session;
  auto &[ctx, rec, mod] = session;
  std::vector<int32_t> host(1000);
  std::iota(host.begin(), host.end(), -500);
  DeviceBuffer<int32_t> x(ctx, host);
  std::vector<uint64_t> before = counts(kInc);
  mod.kernel("inc").launch(x, 1000);
  std::vector<int32_t> got = x.download();
  for (size_t i = 0; i < host.size(); ++i)
    ASSERT_EQ(got[i], host[i] + 1) << i; // every trial was undone
  ASSERT_EQ(rec.events.size(), 1u);
  const AutotuneEvent &e = rec.events[0];
  EXPECT_EQ(e.source, AutotuneSource::Tuned);
  EXPECT_EQ(e.config, "BLOCK=256 num_warps=8 num_stages=3");
  EXPECT_EQ(e.kernel, "inc");
  EXPECT_EQ(e.key, (std::vector<std::pair<std::string, int64_t>>{{"n", 1000}}));
  EXPECT_EQ(e.bucket, (std::vector<std::pair<std::string, int64_t>>{{"n", 1024}}));
  ASSERT_EQ(e.timings.size(), 4u);
  EXPECT_NEAR(e.timings[2].ms, 0.2, 1e-6);
  EXPECT_EQ(e.timings[2].codeHash, "00000000000000a3");
  // Budget 10 ms: 1 warm-up + 10 rounds of the 1 ms config, 50 of the
  // 0.2 ms one; then the caller's launch.
  std::vector<uint64_t> after = counts(kInc);
  EXPECT_EQ(after[0] - before[0], 11u);
  EXPECT_EQ(after[1] - before[1], 21u);
  EXPECT_EQ(after[2] - before[2], 52u);
  EXPECT_EQ(after[3] - before[3], 35u);
  EXPECT_STREQ([&] { BlkFakeLaunch l; lastLaunch(&l); return std::string(l.function); }().c_str(),
               "inc__BLOCK_256__w8");

  // The same bucket again (1000 and 1024 share it): no timing, and the
  // same exact-one effect.
  before = counts(kInc);
  mod.kernel("inc").launch(x, 1024);
  after = counts(kInc);
  EXPECT_EQ(after[2] - before[2], 1u);
  EXPECT_EQ(after[0] + after[1] + after[3], before[0] + before[1] + before[3]);
  EXPECT_EQ(rec.events.size(), 1u);
  // A pinned launch never tunes.
  mod.kernel("inc").with("BLOCK", 64).launch(x, 1000);
  EXPECT_EQ(rec.events.size(), 1u);
  EXPECT_EQ(launchCount("inc__BLOCK_64__w2"), after[0] + 1);
}

TEST_F(Autotune, NearlyEqualConfigsKeepTheEarliest) {
  BLK_REQUIRE_FIXTURE("kernels_tune");
  times({{"inc__BLOCK_64__w2", 0.100}, {"inc__BLOCK_128__w4", 0.099},
         {"inc__BLOCK_256__w8", 0.0985}, {"inc__BLOCK_512__w16", 0.2}});
  Session session;
  auto &[ctx, rec, mod] = session;
  DeviceBuffer<int32_t> x(ctx, std::vector<int32_t>(64, 1));
  mod.kernel("inc").launch(x, 64);
  ASSERT_EQ(rec.events.size(), 1u);
  EXPECT_EQ(rec.events[0].config, "BLOCK=64 num_warps=2 num_stages=3"); // 1.5 % is noise
}

TEST_F(Autotune, TheCacheAnswersTheNextProcessAndOnlyChangedCodeIsTimedAgain) {
  BLK_REQUIRE_FIXTURE("kernels_tune");
  {
    Session session;
    auto &[ctx, rec, mod] = session;
    DeviceBuffer<int32_t> x(ctx, std::vector<int32_t>(100, 7));
    mod.kernel("inc").launch(x, 100);
  }
  std::string file = cacheFile();
  ASSERT_FALSE(file.empty());
  EXPECT_NE(file.find("tune-"), std::string::npos) << file;
  EXPECT_NE(file.find("Fake_GPU-sm90.json"), std::string::npos) << file;
  TuningTable cached = parseTuningTable(slurp(file), file);
  ASSERT_EQ(cached.entries.size(), 1u);
  EXPECT_EQ(cached.entries[0].key, (std::vector<std::pair<std::string, int64_t>>{{"n", 128}}));
  EXPECT_EQ(cached.entries[0].config, "BLOCK=256 num_warps=8 num_stages=3");
  EXPECT_EQ(cached.entries[0].timings.size(), 4u);

  { // A new context (as a new process): the cache answers, nothing is timed.
    Session session;
    auto &[ctx, rec, mod] = session;
    DeviceBuffer<int32_t> x(ctx, std::vector<int32_t>(100, 7));
    std::vector<uint64_t> before = counts(kInc);
    mod.kernel("inc").launch(x, 120);
    std::vector<uint64_t> after = counts(kInc);
    ASSERT_EQ(rec.events.size(), 1u);
    EXPECT_EQ(rec.events[0].source, AutotuneSource::Cache);
    EXPECT_EQ(rec.events[0].config, "BLOCK=256 num_warps=8 num_stages=3");
    EXPECT_EQ(after[2] - before[2], 1u);
    EXPECT_EQ(after[0] + after[1] + after[3], before[0] + before[1] + before[3]);
    EXPECT_EQ(x.download(), std::vector<int32_t>(100, 8));
  }

  // One config's code changed (another code hash in the cache): only it
  // is timed again; now it is the fastest.
  cached.entries[0].timings[3].codeHash = "00000000000000ff";
  std::ofstream(file) << formatTuningTable(cached);
  times({{"inc__BLOCK_512__w16", 0.05}});
  Session session;
  auto &[ctx, rec, mod] = session;
  DeviceBuffer<int32_t> x(ctx, std::vector<int32_t>(100, 7));
  std::vector<uint64_t> before = counts(kInc);
  mod.kernel("inc").launch(x, 100);
  std::vector<uint64_t> after = counts(kInc);
  ASSERT_EQ(rec.events.size(), 1u);
  EXPECT_EQ(rec.events[0].source, AutotuneSource::Tuned);
  EXPECT_EQ(rec.events[0].config, "BLOCK=512 num_warps=16 num_stages=3");
  EXPECT_NE(rec.events[0].note.find("3 config(s) timed in an earlier run"), std::string::npos)
      << rec.events[0].note;
  EXPECT_EQ(after[0] - before[0], 0u);
  EXPECT_EQ(after[1] - before[1], 0u);
  EXPECT_EQ(after[2] - before[2], 0u);
  EXPECT_GT(after[3] - before[3], 3u);
  EXPECT_EQ(x.download(), std::vector<int32_t>(100, 8));
  TuningTable rewritten = parseTuningTable(slurp(file), file);
  EXPECT_EQ(rewritten.entries[0].config, "BLOCK=512 num_warps=16 num_stages=3");
  EXPECT_EQ(rewritten.entries[0].timings.size(), 4u);
  EXPECT_EQ(rewritten.entries[0].timings.back().codeHash, "00000000000000a4");
}

TEST_F(Autotune, ACorruptCacheIsIgnoredAndReplaced) {
  BLK_REQUIRE_FIXTURE("kernels_tune");
  {
    Session session;
    auto &[ctx, rec, mod] = session;
    DeviceBuffer<int32_t> x(ctx, std::vector<int32_t>(10, 0));
    mod.kernel("inc").launch(x, 10);
  }
  std::string file = cacheFile();
  ASSERT_FALSE(file.empty());
  std::ofstream(file) << "{\"format\": \"blk-tuning\", \"version\": 1, \"device\": [";
  Session session;
  auto &[ctx, rec, mod] = session;
  DeviceBuffer<int32_t> x(ctx, std::vector<int32_t>(10, 0));
  ::testing::internal::CaptureStderr();
  mod.kernel("inc").launch(x, 10);
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("ignoring the corrupt tuning cache"), std::string::npos) << err;
  ASSERT_EQ(rec.events.size(), 1u);
  EXPECT_EQ(rec.events[0].source, AutotuneSource::Tuned);
  EXPECT_EQ(x.download(), std::vector<int32_t>(10, 1));
  EXPECT_NO_THROW(parseTuningTable(slurp(file), file)); // rewritten whole
}

TEST_F(Autotune, CaptureIsNeverTunedAndNotRemembered) {
  BLK_REQUIRE_FIXTURE("kernels_tune");
  Session session;
  auto &[ctx, rec, mod] = session;
  Stream stream(ctx);
  DeviceBuffer<int32_t> x(ctx, std::vector<int32_t>(10, 0));
  setCapturing(stream.handle(), 1);
  std::vector<uint64_t> before = counts(kInc);
  mod.kernel("inc").launch(stream, x, 10);
  std::vector<uint64_t> after = counts(kInc);
  ASSERT_EQ(rec.events.size(), 1u);
  EXPECT_EQ(rec.events[0].source, AutotuneSource::Default);
  EXPECT_EQ(rec.events[0].config, "BLOCK=64 num_warps=2 num_stages=3");
  EXPECT_NE(rec.events[0].note.find("captured"), std::string::npos) << rec.events[0].note;
  EXPECT_EQ(after[0] - before[0], 1u); // the caller's launch only
  EXPECT_EQ(after[1] + after[2] + after[3], before[1] + before[2] + before[3]);
  setCapturing(stream.handle(), 0);
  mod.kernel("inc").launch(stream, x, 10);
  ASSERT_EQ(rec.events.size(), 2u);
  EXPECT_EQ(rec.events[1].source, AutotuneSource::Tuned);
  EXPECT_EQ(x.download(), std::vector<int32_t>(10, 2));
}

TEST_F(Autotune, SnapshotsOverTheLimitAreNotTaken) {
  BLK_REQUIRE_FIXTURE("kernels_tune");
  setenv("BLK_TUNE_SNAPSHOT_LIMIT_MB", "1", 1);
  Session session;
  auto &[ctx, rec, mod] = session;
  // 2 MiB read-write: over the limit, so no tuning.
  DeviceBuffer<int32_t> big(ctx, std::vector<int32_t>(512 * 1024, 3));
  mod.kernel("inc").launch(big, 512 * 1024);
  ASSERT_EQ(rec.events.size(), 1u);
  EXPECT_EQ(rec.events[0].source, AutotuneSource::Default);
  EXPECT_NE(rec.events[0].note.find("exceeds the limit of 1048576 bytes"), std::string::npos)
      << rec.events[0].note;
  EXPECT_EQ(big.download()[12345], 4);
  // 2 MiB written only, read from elsewhere: nothing to snapshot, tuned.
  DeviceBuffer<float> x(ctx, std::vector<float>(512 * 1024, 1.5f)), y(ctx, 512 * 1024);
  mod.kernel("add1").launch(x, y, 512 * 1024);
  ASSERT_EQ(rec.events.size(), 2u);
  EXPECT_EQ(rec.events[1].source, AutotuneSource::Tuned);
  EXPECT_EQ(y.download()[999], 2.5f);
  unsetenv("BLK_TUNE_SNAPSHOT_LIMIT_MB");
}

TEST_F(Autotune, AliasedArgumentsAreRestored) {
  BLK_REQUIRE_FIXTURE("kernels_tune");
  Session session;
  auto &[ctx, rec, mod] = session;
  std::vector<float> host(300);
  std::iota(host.begin(), host.end(), 0.0f);
  DeviceBuffer<float> x(ctx, host);
  // y is written only, but it is x: without a snapshot each trial would
  // add one more.
  mod.kernel("add1").launch(x, x, 300);
  ASSERT_EQ(rec.events.size(), 1u);
  EXPECT_EQ(rec.events[0].source, AutotuneSource::Tuned);
  std::vector<float> got = x.download();
  for (size_t i = 0; i < host.size(); ++i)
    ASSERT_EQ(got[i], host[i] + 1) << i;
}

TEST_F(Autotune, AtomicAndZeroedOutputsSeeOneLaunch) {
  BLK_REQUIRE_FIXTURE("kernels_tune");
  Session session;
  auto &[ctx, rec, mod] = session;
  DeviceBuffer<float> x(ctx, std::vector<float>(100, 0.5f)), out(ctx, std::vector<float>{5});
  uint64_t trials = launchCount("accum__BLOCK_128__w4");
  mod.kernel("accum").launch(x, out, 100);
  ASSERT_EQ(rec.events.size(), 1u);
  EXPECT_EQ(rec.events[0].source, AutotuneSource::Tuned);
  EXPECT_GT(launchCount("accum__BLOCK_128__w4") - trials, 3u);
  EXPECT_EQ(out.download()[0], 55.0f); // 5 + 100 x 0.5, once
}

TEST_F(Autotune, RequiresFilterConfigsAndRefuseWrongPins) {
  BLK_REQUIRE_FIXTURE("kernels_tune");
  times({{"rows__BLOCK_32__w1", 0.01}, {"rows__BLOCK_128__w4", 0.2},
         {"rows__BLOCK_1024__w4", 0.1}});
  Session session;
  auto &[ctx, rec, mod] = session;
  DeviceBuffer<float> out(ctx, 4 * 100), x(ctx, std::vector<float>(4 * 100, 1));
  uint64_t small = launchCount("rows__BLOCK_32__w1");
  mod.kernel("rows").launch(out, x, 4, 100);
  ASSERT_EQ(rec.events.size(), 1u);
  EXPECT_EQ(rec.events[0].config, "BLOCK=1024 num_warps=4 num_stages=3");
  EXPECT_EQ(rec.events[0].timings.size(), 2u); // BLOCK=32 cannot hold 100 columns
  EXPECT_EQ(launchCount("rows__BLOCK_32__w1"), small);
  // The bucket of 100 is 128: 120 columns reuse the decision.
  mod.kernel("rows").launch(out, x, 4, 120);
  EXPECT_EQ(rec.events.size(), 1u);
  // A bucket whose best config does not hold for a smaller value: the
  // decision's next config that does. (n_cols = 20 -> bucket 32: all
  // three hold, BLOCK=32 wins.)
  mod.kernel("rows").launch(out, x, 4, 20);
  ASSERT_EQ(rec.events.size(), 2u);
  EXPECT_EQ(rec.events[1].config, "BLOCK=32 num_warps=1 num_stages=3");
  auto error = [&](auto fn) {
    try {
      fn();
    } catch (const Error &e) {
      return std::string(e.what());
    }
    return std::string();
  };
  EXPECT_EQ(error([&] { mod.kernel("rows").with("BLOCK", 32).launch(out, x, 4, 100); }),
            "blk: kernel `rows`: config BLOCK=32 num_warps=1 num_stages=3 requires "
            "n_cols <= 32, which fails for n_cols=100");
  EXPECT_EQ(error([&] { mod.kernel("rows").launch(out, x, 4, 5000); }),
            "blk: kernel `rows`: no config's @requires holds for these arguments "
            "(n_cols=5000): BLOCK=32 num_warps=1 num_stages=3 requires n_cols <= 32; "
            "BLOCK=128 num_warps=4 num_stages=3 requires n_cols <= 128; BLOCK=1024 "
            "num_warps=4 num_stages=3 requires n_cols <= 1024");
}

TEST_F(Autotune, EmbeddedTablesAnswerForTheirDeviceOnly) {
  BLK_REQUIRE_FIXTURE("kernels_tune");
  Session session;
  auto &[ctx, rec, mod] = session;
  DeviceBuffer<float> out(ctx, 16);
  uint64_t b16 = launchCount("grid2__BM_16__w1");
  // m=200 -> 256, n=3000 -> 4096: the "Fake GPU" table's entry.
  mod.kernel("grid2").launch(out, 200, 3000);
  ASSERT_EQ(rec.events.size(), 1u);
  EXPECT_EQ(rec.events[0].source, AutotuneSource::Table);
  EXPECT_EQ(rec.events[0].config, "BM=64 num_warps=2 num_stages=3");
  EXPECT_EQ(launchCount("grid2__BM_16__w1"), b16);
  // (16, 16) is only in the "Other GPU" table: tuned here.
  mod.kernel("grid2").launch(out, 3, 9);
  ASSERT_EQ(rec.events.size(), 2u);
  EXPECT_EQ(rec.events[1].source, AutotuneSource::Tuned);
  EXPECT_GT(launchCount("grid2__BM_16__w1"), b16);
}

TEST_F(Autotune, CachedModeFallsBackToTheNearestBucket) {
  BLK_REQUIRE_FIXTURE("kernels_tune");
  setenv("BLK_AUTOTUNE", "cached", 1);
  Session session;
  auto &[ctx, rec, mod] = session;
  DeviceBuffer<float> out(ctx, 16);
  uint64_t before = launchCount("grid2__BM_16__w1") + launchCount("grid2__BM_64__w2");
  mod.kernel("grid2").launch(out, 16, 16);
  ASSERT_EQ(rec.events.size(), 1u);
  EXPECT_EQ(rec.events[0].source, AutotuneSource::Table);
  EXPECT_EQ(rec.events[0].config, "BM=64 num_warps=2 num_stages=3");
  EXPECT_NE(rec.events[0].note.find("nearest bucket [m=256 n=4096]"), std::string::npos)
      << rec.events[0].note;
  EXPECT_EQ(launchCount("grid2__BM_16__w1") + launchCount("grid2__BM_64__w2"), before + 1);
  // Nothing known at all: the first config, no timing.
  DeviceBuffer<int32_t> x(ctx, std::vector<int32_t>(10, 0));
  mod.kernel("inc").launch(x, 10);
  ASSERT_EQ(rec.events.size(), 2u);
  EXPECT_EQ(rec.events[1].source, AutotuneSource::Default);
  EXPECT_EQ(rec.events[1].config, "BLOCK=64 num_warps=2 num_stages=3");
  EXPECT_EQ(x.download(), std::vector<int32_t>(10, 1));
  unsetenv("BLK_AUTOTUNE");
}

TEST_F(Autotune, OffMeansTheFirstConfigAlways) {
  BLK_REQUIRE_FIXTURE("kernels_tune");
  setenv("BLK_AUTOTUNE", "off", 1);
  Session session;
  auto &[ctx, rec, mod] = session;
  DeviceBuffer<float> out(ctx, 16);
  mod.kernel("grid2").launch(out, 200, 3000); // even with a table entry
  ASSERT_EQ(rec.events.size(), 1u);
  EXPECT_EQ(rec.events[0].source, AutotuneSource::Default);
  EXPECT_EQ(rec.events[0].config, "BM=16 num_warps=1 num_stages=3");
  unsetenv("BLK_AUTOTUNE");
}

TEST_F(Autotune, ExportedDecisionsLoadIntoAnotherContext) {
  BLK_REQUIRE_FIXTURE("kernels_tune");
  std::string table = cacheDir + "-exported.json";
  {
    Session session;
    auto &[ctx, rec, mod] = session;
    DeviceBuffer<int32_t> x(ctx, std::vector<int32_t>(3000, 0));
    mod.kernel("inc").launch(x, 3000);
    ctx.exportTuning(table);
  }
  TuningTable t = parseTuningTable(slurp(table), table);
  ASSERT_EQ(t.entries.size(), 1u);
  EXPECT_EQ(t.deviceName, "Fake GPU");
  EXPECT_EQ(t.entries[0].key, (std::vector<std::pair<std::string, int64_t>>{{"n", 4096}}));
  std::filesystem::remove_all(cacheDir); // not from the cache, then
  setenv("BLK_AUTOTUNE", "cached", 1);
  Context ctx = open();
  Recorder rec;
  rec.attach(ctx);
  ctx.loadTuning(table);
  Module mod = ctx.load(fixturePath("kernels_tune"));
  DeviceBuffer<int32_t> x(ctx, std::vector<int32_t>(4000, 0));
  mod.kernel("inc").launch(x, 4000);
  ASSERT_EQ(rec.events.size(), 1u);
  EXPECT_EQ(rec.events[0].source, AutotuneSource::Memory);
  EXPECT_EQ(rec.events[0].config, "BLOCK=256 num_warps=8 num_stages=3");
  unsetenv("BLK_AUTOTUNE");
  EXPECT_THROW(ctx.loadTuning(cacheDir + "-missing.json"), Error);
}

TEST_F(Autotune, ConfigsThatCannotLaunchAreSkipped) {
  BLK_REQUIRE_FIXTURE("kernels_tune");
  Session session;
  auto &[ctx, rec, mod] = session;
  DeviceBuffer<int32_t> x(ctx, std::vector<int32_t>(10, 0));
  failNextLaunch(CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES); // the first warm-up: BLOCK=64
  mod.kernel("inc").launch(x, 10);
  ASSERT_EQ(rec.events.size(), 1u);
  ASSERT_EQ(rec.events[0].skipped.size(), 1u);
  EXPECT_EQ(rec.events[0].skipped[0].first, "BLOCK=64 num_warps=2 num_stages=3");
  EXPECT_EQ(rec.events[0].skipped[0].second,
            "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES (too many resources requested for launch)");
  EXPECT_EQ(rec.events[0].timings.size(), 3u);
  EXPECT_EQ(rec.events[0].config, "BLOCK=256 num_warps=8 num_stages=3");
  EXPECT_EQ(x.download(), std::vector<int32_t>(10, 1));
}

TEST_F(Autotune, PrintsOneLinePerDecision) {
  BLK_REQUIRE_FIXTURE("kernels_tune");
  setenv("BLK_AUTOTUNE_PRINT", "1", 1);
  Session session;
  auto &[ctx, rec, mod] = session;
  DeviceBuffer<int32_t> x(ctx, std::vector<int32_t>(10, 0));
  ::testing::internal::CaptureStderr();
  mod.kernel("inc").launch(x, 10);
  mod.kernel("inc").launch(x, 10);
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_EQ(err.rfind("blk autotune: inc [n=10] tuned: BLOCK=256 num_warps=8 num_stages=3 (", 0),
            0u)
      << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1);
  unsetenv("BLK_AUTOTUNE_PRINT");
}

// Eight threads launch the same key at once: one tuning, every launch's
// effect exactly once.
TEST_F(Autotune, ConcurrentFirstLaunchesTuneOnce) {
  BLK_REQUIRE_FIXTURE("kernels_tune");
  Session session;
  auto &[ctx, rec, mod] = session;
  std::vector<DeviceBuffer<int32_t>> buffers;
  for (int t = 0; t < 8; ++t)
    buffers.emplace_back(ctx, std::vector<int32_t>(50, t));
  std::atomic<int> ready{0}, failures{0};
  std::vector<uint64_t> before = counts(kInc);
  std::vector<std::thread> pool;
  for (int t = 0; t < 8; ++t)
    pool.emplace_back([&, t] {
      try {
        Kernel k = mod.kernel("inc");
        ++ready;
        while (ready.load() < 8) {
        }
        for (int i = 0; i < 10; ++i)
          k.launch(buffers[size_t(t)], 50);
      } catch (const Error &) {
        ++failures;
      }
    });
  for (std::thread &th : pool)
    th.join();
  EXPECT_EQ(failures.load(), 0);
  ASSERT_EQ(rec.events.size(), 1u);
  EXPECT_EQ(rec.events[0].source, AutotuneSource::Tuned);
  for (int t = 0; t < 8; ++t)
    EXPECT_EQ(buffers[size_t(t)].download(), std::vector<int32_t>(50, t + 10)) << t;
  std::vector<uint64_t> after = counts(kInc);
  // One tuning's trials (11, 21, 51, 34) and 80 launches of the winner.
  EXPECT_EQ(after[2] - before[2], 51u + 80u);
  EXPECT_EQ(after[0] - before[0], 11u);
}

} // namespace

// Kernel::timeConfigs (blk-bench): the chosen configs, each timed exactly
// `rounds` times after its warm-up, with min and median, a failed
// `@requires` skipped with the reason, and read-write memory as it was.
TEST_F(Autotune, TimeConfigsTimesTheChosenConfigsAndRestoresMemory) {
  BLK_REQUIRE_FIXTURE("kernels_tune");
  Session session;
  auto &[ctx, rec, mod] = session;
  std::vector<int32_t> host(100, 7);
  DeviceBuffer<int32_t> x(ctx, host);
  std::vector<ArgValue> values{ArgTraits<DeviceBuffer<int32_t>>::make(x),
                               ArgTraits<int32_t>::make(100)};
  TimingOptions options;
  options.configs = {0, 2};
  options.rounds = 4;
  std::vector<uint64_t> before = counts(kInc);
  std::vector<ConfigTiming> t = mod.kernel("inc").timeConfigs(values, options);
  std::vector<uint64_t> after = counts(kInc);
  ASSERT_EQ(t.size(), 2u);
  EXPECT_EQ(t[0].config, 0u);
  EXPECT_EQ(t[1].config, 2u);
  EXPECT_NEAR(t[0].medianMs, 1.0, 1e-6);
  EXPECT_NEAR(t[0].minMs, 1.0, 1e-6);
  EXPECT_NEAR(t[1].medianMs, 0.2, 1e-6);
  EXPECT_EQ(t[1].launches, 4u);
  EXPECT_EQ(after[0] - before[0], 5u); // warm-up + 4
  EXPECT_EQ(after[1] - before[1], 0u);
  EXPECT_EQ(after[2] - before[2], 5u);
  EXPECT_EQ(x.download(), host);
  EXPECT_TRUE(rec.events.empty()); // no tuning decision

  std::vector<float> zeros(400);
  DeviceBuffer<float> out(ctx, zeros), in(ctx, zeros);
  std::vector<ArgValue> rows{ArgTraits<DeviceBuffer<float>>::make(out),
                             ArgTraits<DeviceBuffer<float>>::make(in),
                             ArgTraits<int32_t>::make(4), ArgTraits<int32_t>::make(100)};
  std::vector<ConfigTiming> r = mod.kernel("rows").timeConfigs(rows, TimingOptions{{}, 0, 100, 3});
  ASSERT_EQ(r.size(), 3u);
  EXPECT_EQ(r[0].launches, 0u);
  EXPECT_EQ(r[0].skipped, "config BLOCK=32 num_warps=1 num_stages=3 requires n_cols <= 32, "
                          "which fails for n_cols=100");
  EXPECT_EQ(r[1].launches, 3u);
  EXPECT_EQ(r[2].launches, 3u);
}
