//===- RuntimeGpuTest.cpp - libblkrt on a real GPU ------------------------===//
//
// Runs the fixture kernels (tests/unit/Runtime/fixtures) through the public
// API: results against CPU references on random inputs with poisoned
// outputs, and every refused launch (types, alignment, hints, arch, grid).
//
//===----------------------------------------------------------------------===//
#include "blk/runtime.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <limits>
#include <optional>
#include <random>
#include <thread>

namespace {

std::string fixture(const std::string &name) {
  return std::string(BLK_RT_FIXTURE_DIR) + "/" + name + ".fatbin";
}

std::vector<float> randomFloats(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(rng);
  return v;
}

/// The message of the blk::Error `fn` throws ("" if none).
template <class Fn> std::string errorOf(Fn fn) {
  try {
    fn();
  } catch (const blk::Error &e) {
    return e.what();
  }
  return "";
}

class Gpu : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    ctx.emplace();
    mod.emplace(ctx->load(fixture("kernels")));
  }
  static void TearDownTestSuite() {
    mod.reset();
    ctx.reset();
  }
  static std::optional<blk::Context> ctx;
  static std::optional<blk::Module> mod;
};
std::optional<blk::Context> Gpu::ctx;
std::optional<blk::Module> Gpu::mod;

const float kPoison = std::numeric_limits<float>::quiet_NaN();

TEST_F(Gpu, DeviceInfo) {
  EXPECT_GE(ctx->device().sm, 70u);
  EXPECT_GT(ctx->device().multiprocessors, 0);
  EXPECT_GT(ctx->device().limits.maxSharedOptin, 48u * 1024);
  EXPECT_FALSE(ctx->device().name.empty());
}

TEST_F(Gpu, DeviceBufferRoundTrip) {
  std::vector<float> host = randomFloats(10007, 1);
  blk::DeviceBuffer<float> buf(*ctx, host);
  EXPECT_EQ(buf.size(), 10007u);
  EXPECT_EQ(buf.bytes(), 10007u * 4);
  EXPECT_EQ(buf.download(), host);
  buf.fill(3.5f);
  for (float v : buf.download())
    ASSERT_EQ(v, 3.5f);
  std::vector<float> part(5);
  buf.upload(host.data(), 5, 100);
  buf.download(part.data(), 5, 100);
  EXPECT_EQ(part, std::vector<float>(host.begin(), host.begin() + 5));
  EXPECT_NE(errorOf([&] { buf.download(part.data(), 5, 10005); }), "");
  blk::DeviceBuffer<int16_t> shorts(*ctx, 33);
  shorts.fill(int16_t(-2));
  for (int16_t v : shorts.download())
    ASSERT_EQ(v, -2);
  blk::DeviceBuffer<double> doubles(*ctx, 9);
  doubles.fill(0.25);
  EXPECT_EQ(doubles.download(), std::vector<double>(9, 0.25));
  blk::DeviceBuffer<float> moved = std::move(buf);
  EXPECT_EQ(buf.size(), 0u);
  EXPECT_EQ(moved.size(), 10007u);
}

TEST_F(Gpu, GridFromAtGridComputesCorrectResults) {
  const int n = 5000; // not a multiple of BLOCK: the last program is masked
  std::vector<float> x = randomFloats(n, 2);
  blk::DeviceBuffer<float> dx(*ctx, x), out(*ctx, n);
  for (int block : {1024, 256}) {
    out.fill(kPoison);
    blk::Kernel k = mod->kernel("double_grid").with("BLOCK", block);
    EXPECT_EQ(k.specialization().entry, "double_grid__BLOCK_" +
                                            std::to_string(block) + "__w" +
                                            (block == 1024 ? "4" : "2"));
    k.launch(dx, out, n);
    std::vector<float> got = out.download();
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(got[i], x[i] * 2.0f) << "BLOCK " << block << " element " << i;
  }
  // The default specialisation is the first config (BLOCK=1024).
  EXPECT_EQ(mod->kernel("double_grid").specialization().entry,
            "double_grid__BLOCK_1024__w4");
}

TEST_F(Gpu, TwoDimensionalGrid) {
  const int rows = 100, cols = 65;
  blk::DeviceBuffer<float> out(*ctx, rows * cols);
  out.fill(kPoison);
  mod->kernel("fill2d").launch(out, rows, cols);
  std::vector<float> got = out.download();
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      ASSERT_EQ(got[r * cols + c], float(r * 1000 + c)) << r << "," << c;
}

TEST_F(Gpu, WrongArgumentTypeNamesTheParameter) {
  blk::DeviceBuffer<float> f(*ctx, 16);
  blk::DeviceBuffer<int32_t> i(*ctx, 16);
  i.fill(7);
  EXPECT_EQ(errorOf([&] { mod->kernel("add_i32").launch(f, i, i, 16); }),
            "blk: kernel `add_i32`: argument 1 `a`: expected `*i32`, got "
            "DeviceBuffer<float> (`*f32`)");
  EXPECT_EQ(errorOf([&] { mod->kernel("add_i32").launch(i, i, i); }),
            "blk: kernel `add_i32`: expected 4 argument(s) (a: *i32, b: *i32, "
            "out: *i32, n: i32), got 3");
  // Nothing ran: the output is untouched. A correct launch then works.
  EXPECT_EQ(i.download(), std::vector<int32_t>(16, 7));
  blk::DeviceBuffer<int32_t> out(*ctx, 16);
  mod->kernel("add_i32").launch(i, i, out, 16);
  EXPECT_EQ(out.download(), std::vector<int32_t>(16, 14));
}

TEST_F(Gpu, MisalignedPointersAndHints) {
  blk::DeviceBuffer<float> x(*ctx, 1024), out(*ctx, 1024);
  blk::Kernel k = mod->kernel("double_grid");
  std::string msg = errorOf([&] { k.launch(x.ptr() + 1, out, 1000); });
  EXPECT_NE(msg.find("argument 1 `x`: pointer 0x"), std::string::npos) << msg;
  EXPECT_NE(msg.find("violates the hint @aligned(16)"), std::string::npos)
      << msg;
  msg = errorOf(
      [&] { k.launch(x, blk::DevicePtr<float>(out.address() + 2), 1000); });
  EXPECT_NE(msg.find("is misaligned for `*f32` (needs 4-byte alignment)"),
            std::string::npos)
      << msg;
  EXPECT_EQ(errorOf([&] { mod->kernel("hinted").launch(x, out, 1000); }),
            "blk: kernel `hinted`: argument 3 `n`: value 1000 violates the "
            "hint @multiple_of(16)");
  out.fill(kPoison);
  std::vector<float> host = randomFloats(1024, 3);
  x.upload(host);
  mod->kernel("hinted").launch(x, out, 1024);
  std::vector<float> got = out.download();
  for (int i = 0; i < 1024; ++i)
    ASSERT_EQ(got[i], host[i] + 1.0f);
}

TEST_F(Gpu, WrongArchArtifactIsRefused) {
  std::string dev = "device 0 (" + ctx->device().name + ", sm_" +
                    std::to_string(ctx->device().sm) + ")";
  EXPECT_EQ(errorOf([&] { ctx->load(fixture("kernels_sm80")); }),
            "blk: " + fixture("kernels_sm80") + ": no cubin or PTX usable on " +
                dev + "; the file holds cubin sm_80");
  EXPECT_EQ(errorOf([&] { ctx->load(fixture("kernels_future")); }),
            "blk: " + fixture("kernels_future") +
                ": no cubin or PTX usable on " + dev +
                "; the file holds cubin sm_100, PTX compute_100");
}

TEST_F(Gpu, PtxOnlyAndConstantBankArtifactsRun) {
  const int n = 3000;
  std::vector<float> x = randomFloats(n, 4);
  blk::DeviceBuffer<float> dx(*ctx, x), out(*ctx, n);
  for (const char *name :
       {"kernels_ptx", "kernels_const", "kernels_multi", "kernels_sm90a"}) {
    blk::Module m = ctx->load(fixture(name));
    out.fill(kPoison);
    m.kernel("double_grid").with("BLOCK", 256).launch(dx, out, n);
    std::vector<float> got = out.download();
    for (int i = 0; i < n; ++i)
      ASSERT_EQ(got[i], 2.0f * x[i]) << name << " element " << i;
  }
}

TEST_F(Gpu, CorruptArtifactsAreRefused) {
  std::vector<unsigned char> bytes = blk::readBinaryFile(fixture("kernels"));
  std::vector<unsigned char> half(bytes.begin(),
                                  bytes.begin() + bytes.size() / 2);
  std::string msg =
      errorOf([&] { ctx->loadImage(half.data(), half.size(), "half"); });
  EXPECT_EQ(msg.rfind("blk: half: truncated fatbin", 0), 0u) << msg;
  EXPECT_EQ(errorOf([&] { ctx->load(fixture("kernels_nomanifest")); }),
            "blk: " + fixture("kernels_nomanifest") +
                ": no blk manifest (symbol `__blk_manifest`) in any image; "
                "the file holds cubin sm_90");
  msg = errorOf([&] { ctx->load("/nonexistent.fatbin"); });
  EXPECT_EQ(msg.rfind("blk: /nonexistent.fatbin: cannot open", 0), 0u) << msg;
}

TEST_F(Gpu, ExplicitGridAndKernelsWithoutGrid) {
  blk::DeviceBuffer<int32_t> out(*ctx, 4);
  out.fill(-1);
  blk::Kernel k = mod->kernel("no_grid");
  EXPECT_EQ(errorOf([&] { k.launch(out); }),
            "blk: kernel `no_grid`: the kernel has no @grid: pass a blk::Grid "
            "as the first launch argument");
  k.launch(blk::Grid{4}, out);
  EXPECT_EQ(out.download(), (std::vector<int32_t>{4, 14, 24, 34}));
  EXPECT_EQ(errorOf([&] {
              k.launch(blk::Grid{1, 70000}, out);
            }),
            "blk: kernel `no_grid`: grid dimension y = 70000 is outside [0, "
            "65535]");
  // An explicit grid overrides @grid; an empty grid launches nothing.
  blk::DeviceBuffer<float> x(*ctx, 8), y(*ctx, 8);
  x.fill(1.0f);
  y.fill(kPoison);
  mod->kernel("double_grid").launch(blk::Grid{0}, x, y, 8);
  mod->kernel("double_grid").launch(x, y, 0);
  ctx->synchronize();
  EXPECT_TRUE(std::isnan(y.download()[0]));
}

TEST_F(Gpu, SharedMemoryAbove48KiBIsOptedIn) {
  const int n = 65536 / 4;
  std::vector<float> x = randomFloats(n, 5);
  blk::DeviceBuffer<float> dx(*ctx, x), out(*ctx, 2);
  out.fill(kPoison);
  blk::Kernel k = mod->kernel("big_shared");
  EXPECT_EQ(k.specialization().sharedDynamic, 65536u);
  k.launch(dx, out);
  std::vector<float> got = out.download();
  for (int b = 0; b < 2; ++b) {
    float sum = 0; // same order as the kernel: exact in float
    for (int i = 0; i < n; ++i)
      sum += x[n - 1 - i] + float(b);
    EXPECT_EQ(got[b], sum) << "program " << b;
  }
}

TEST_F(Gpu, ScalarConversionsReachTheKernel) {
  const int n = 1000;
  std::vector<double> x(n);
  for (int i = 0; i < n; ++i)
    x[i] = 0.5 * i - 17.25;
  blk::DeviceBuffer<double> dx(*ctx, x), out(*ctx, n);
  out.fill(std::numeric_limits<double>::quiet_NaN());
  // s: float -> f64, n: int -> i64
  mod->kernel("scale_f64").launch(dx, out, 1.5f, n);
  std::vector<double> got = out.download();
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(got[i], x[i] * 1.5);
}

TEST_F(Gpu, SpecialisationAndKernelLookupErrors) {
  std::string msg =
      errorOf([&] { mod->kernel("double_grid").with("BLOCK", 512); });
  EXPECT_EQ(msg, "blk: kernel `double_grid`: no specialisation with "
                 "BLOCK=512 was compiled (blkc leaves out, with a warning, configs "
                 "over a resource limit of the target); available: BLOCK=1024 num_warps=4 "
                 "num_stages=3; BLOCK=256 num_warps=2 num_stages=3");
  msg = errorOf([&] { mod->kernel("double_grid").with("TILE", 1); });
  EXPECT_EQ(msg, "blk: kernel `double_grid`: no const parameter or option "
                 "`TILE` (const parameters: `BLOCK`; options: `num_warps`, "
                 "`num_stages`, `warp_specialize`, `persistent`)");
  EXPECT_EQ(
      mod->kernel("double_grid").with("num_warps", 2).specialization().entry,
      "double_grid__BLOCK_256__w2");
  msg = errorOf([&] { mod->kernel("triple"); });
  EXPECT_EQ(msg.rfind("blk: " + fixture("kernels") +
                          ": no kernel `triple`; the module has `double_grid`",
                      0),
            0u)
      << msg;
}

TEST_F(Gpu, ModulesAreCachedByContent) {
  blk::Module again = ctx->load(fixture("kernels"));
  EXPECT_EQ(&again.manifest(), &mod->manifest());
  std::vector<unsigned char> bytes = blk::readBinaryFile(fixture("kernels"));
  blk::Module fromMemory = ctx->loadImage(bytes.data(), bytes.size());
  EXPECT_EQ(&fromMemory.manifest(), &mod->manifest());
}

TEST_F(Gpu, SeveralThreadsLaunching) {
  const int threads = 8, rounds = 50;
  std::atomic<int> failures{0};
  std::vector<std::string> errors(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&, t] {
      try {
        // Each thread loads (cache hit or race for the first load), owns a
        // stream and buffers, and launches with its own n.
        blk::Module m = ctx->load(fixture("kernels"));
        blk::Stream stream(*ctx);
        const int n = 1000 + 997 * t;
        std::vector<float> x = randomFloats(n, 100 + t);
        blk::DeviceBuffer<float> dx(*ctx, x), out(*ctx, n);
        blk::Kernel k =
            m.kernel("double_grid").with("BLOCK", t % 2 ? 256 : 1024);
        for (int r = 0; r < rounds; ++r) {
          out.fill(kPoison);
          k.launch(stream, dx, out, n);
          stream.synchronize();
          std::vector<float> got = out.download();
          for (int i = 0; i < n; ++i)
            if (got[i] != 2.0f * x[i]) {
              errors[t] = "thread " + std::to_string(t) + " round " +
                          std::to_string(r) + " element " + std::to_string(i);
              ++failures;
              return;
            }
        }
      } catch (const blk::Error &e) {
        errors[t] = e.what();
        ++failures;
      }
    });
  }
  for (std::thread &th : pool)
    th.join();
  for (const std::string &e : errors)
    EXPECT_EQ(e, "");
  EXPECT_EQ(failures.load(), 0);
}

TEST_F(Gpu, EventsTimeDeviceWork) {
  const int n = 1 << 24;
  blk::DeviceBuffer<float> x(*ctx, n), out(*ctx, n);
  x.fill(1.0f);
  blk::Stream stream(*ctx);
  blk::Event start(*ctx), stop(*ctx);
  start.record(stream);
  mod->kernel("double_grid").launch(stream, x, out, n);
  stop.record(stream);
  stop.synchronize();
  float ms = stop.elapsedMs(start);
  EXPECT_GT(ms, 0.0f);
  EXPECT_LT(ms, 1000.0f);
}

} // namespace
