//===- VariantTest.cpp - value variants (@specialize): manifest and launch ===//
//
// The manifest fields of docs/manifest.md "Value variants" (parsing and
// refusal of malformed ones), and launches over the fake driver that must
// pick the variant whose `when` matches the classes of the arguments
// (fixture kernels_variants: fixtures/variants.json + variants.cu).
//
//===----------------------------------------------------------------------===//
#include "FakeDriver.h"
#include "FixtureUtil.h"

#include "blk/runtime.h"

#include <dlfcn.h>

#include <atomic>
#include <map>
#include <thread>

using namespace blk;
using namespace blk::test;

namespace {

/// A manifest of one kernel k(x: *f32, m: i32, n: u64, s: f32) with the
/// given `specialize` list (JSON, empty for none) and variants of its one
/// specialisation.
std::string kernelWith(const std::string &specialize,
                       const std::string &variants) {
  return R"({"schema": 1, "kernels": [{"name": "k", "params": [
      {"name": "x", "type": "*f32"}, {"name": "m", "type": "i32"},
      {"name": "n", "type": "u64"}, {"name": "s", "type": "f32"}],)" +
         (specialize.empty() ? "" : R"("specialize": )" + specialize + ",") +
         R"("specializations": [{"entry": "k__w4")" +
         (variants.empty() ? "" : R"(, "variants": )" + variants) + "}]}]}";
}

TEST(ValueClass, OneMultipleOfSixteenOrAny) {
  EXPECT_EQ(valueClass(1), 1);
  EXPECT_EQ(valueClass(0), 16);
  EXPECT_EQ(valueClass(16), 16);
  EXPECT_EQ(valueClass(4096), 16);
  EXPECT_EQ(valueClass(-32), 16);
  EXPECT_EQ(valueClass(17), 0);
  EXPECT_EQ(valueClass(-1), 0);
  EXPECT_EQ(valueClass(8), 0);
}

TEST(VariantManifest, ParsesSpecializeAndVariants) {
  Manifest m =
      parseManifest(kernelWith("[1, 2]",
                               R"([{"entry": "k__w4__v1d", "when": [1, 16],
                      "shared_static": 16384, "shared_dynamic": 70000},
                     {"entry": "k__w4__vx1", "when": [0, 1]}])"),
                    "m.fatbin");
  const KernelDesc &k = m.kernels[0];
  EXPECT_EQ(k.specialize, (std::vector<uint32_t>{1, 2}));
  const std::vector<Variant> &vs = k.specializations[0].variants;
  ASSERT_EQ(vs.size(), 2u);
  EXPECT_EQ(vs[0].entry, "k__w4__v1d");
  EXPECT_EQ(vs[0].when, (std::vector<int>{1, 16}));
  EXPECT_EQ(vs[0].sharedStatic, 16384u);
  EXPECT_EQ(vs[0].sharedDynamic, 70000u);
  EXPECT_EQ(vs[1].when, (std::vector<int>{0, 1}));
  EXPECT_EQ(vs[1].sharedStatic, 0u);
  EXPECT_EQ(vs[1].sharedDynamic, 0u);
}

TEST(VariantManifest, OldManifestsHaveNoVariants) {
  Manifest m = parseManifest(kernelWith("", ""), "m.fatbin");
  EXPECT_TRUE(m.kernels[0].specialize.empty());
  EXPECT_TRUE(m.kernels[0].specializations[0].variants.empty());
  // `specialize` without variants is valid: every launch takes the entry.
  m = parseManifest(kernelWith("[1]", "[]"), "m.fatbin");
  EXPECT_EQ(m.kernels[0].specialize, std::vector<uint32_t>{1});
}

TEST(VariantManifest, RefusesBadSpecializeLists) {
  const std::string at = "blk: m.fatbin: bad manifest: kernels[0] (`k`)";
  EXPECT_EQ(parseError(kernelWith("[4]", "")),
            at + ".specialize[0]: parameter index 4 out of range");
  EXPECT_EQ(parseError(kernelWith("[-1]", "")),
            at + ".specialize[0]: parameter index -1 out of range");
  EXPECT_EQ(parseError(kernelWith("[0]", "")),
            at + ".specialize[0]: parameter `x` is not a scalar integer");
  EXPECT_EQ(parseError(kernelWith("[3]", "")),
            at + ".specialize[0]: parameter `s` is not a scalar integer");
  EXPECT_EQ(parseError(kernelWith("[1, 2, 1]", "")),
            at + ".specialize[2]: parameter `m` specialised twice");
  EXPECT_EQ(parseError(kernelWith("[1, 2, 1, 2, 1]", "")),
            at + ".specialize: 5 parameters; at most 4 may be specialised");
  EXPECT_EQ(parseError(kernelWith("\"m\"", "")),
            at + ".specialize: expected an array of parameter indices");
  EXPECT_EQ(parseError(kernelWith("[\"m\"]", "")),
            at + ".specialize[0]: expected a parameter index");
}

TEST(VariantManifest, RefusesMalformedVariants) {
  const std::string at = "blk: m.fatbin: bad manifest: kernels[0] "
                         "(`k`).specializations[0]";
  EXPECT_EQ(parseError(kernelWith("", R"([{"entry": "v", "when": []}])")),
            at + ".variants: value variants but the kernel has no "
                 "\"specialize\" list");
  EXPECT_EQ(
      parseError(kernelWith("[1, 2]", R"([{"entry": "v", "when": [1]}])")),
      at + ".variants[0].when: expected 2 classes, one per specialised "
           "parameter");
  EXPECT_EQ(parseError(kernelWith("[1]", R"([{"entry": "v", "when": [8]}])")),
            at + ".variants[0].when[0]: class 8 is not 1, 16 or 0");
  EXPECT_EQ(parseError(kernelWith("[1]", R"([{"entry": "v", "when": ["1"]}])")),
            at + ".variants[0].when[0]: class \"1\" is not 1, 16 or 0");
  EXPECT_EQ(parseError(kernelWith("[1]", R"([{"entry": "", "when": [1]}])")),
            at + ".variants[0].entry: empty entry name");
  EXPECT_EQ(parseError(kernelWith("[1]", R"([{"when": [1]}])")),
            at + ".variants[0]: missing \"entry\"");
  EXPECT_EQ(parseError(kernelWith("[1]", R"([{"entry": "v"}])")),
            at + ".variants[0]: missing \"when\"");
  EXPECT_EQ(parseError(kernelWith("[1]", R"([{"entry": "v", "when": [0]}])")),
            at + ".variants[0].when: all classes 0: that is the "
                 "specialisation's own entry, not a variant");
  EXPECT_EQ(parseError(kernelWith("[1]", R"([{"entry": "a", "when": [1]},
                                             {"entry": "b", "when": [1]}])")),
            at + ".variants[1].when: the same classes as variant `a`");
  EXPECT_EQ(parseError(kernelWith("[1]", R"([{"entry": "a", "when": [1]},
                                             {"entry": "a", "when": [16]}])")),
            at + ".variants[1].entry: entry `a` listed twice");
  EXPECT_EQ(
      parseError(kernelWith("[1]", R"([{"entry": "k__w4", "when": [1]}])")),
      at + ".variants[0].entry: repeats the specialisation's own entry");
  EXPECT_EQ(
      parseError(kernelWith(
          "[1]", R"([{"entry": "v", "when": [1], "shared_dynamic": -1}])")),
      at + ".variants[0]: bad shared memory size");
  EXPECT_EQ(parseError(kernelWith("[1]", R"({"entry": "v"})")),
            at + ".variants: expected an array");
}

/// kernelWith's kernel with `assumed` (JSON) on its one specialisation.
std::string kernelAssuming(const std::string &assumed) {
  std::string m = kernelWith("", "");
  std::string entry = R"("entry": "k__w4")";
  return m.replace(m.find(entry), entry.size(), entry + R"(, "assumed": )" + assumed);
}

TEST(AssumedManifest, ParsesAssumedVariants) {
  Manifest m = parseManifest(
      kernelAssuming(R"([{"entry": "k__w4__auto", "assume": [{"param": 0, "aligned": 16},
                          {"param": 1, "equals": 1}, {"param": 2, "multiple_of": 16}],
                          "shared_dynamic": 4096}])"),
      "m.fatbin");
  const std::vector<AssumedVariant> &as = m.kernels[0].specializations[0].assumed;
  ASSERT_EQ(as.size(), 1u);
  EXPECT_EQ(as[0].entry, "k__w4__auto");
  EXPECT_EQ(as[0].sharedDynamic, 4096u);
  ASSERT_EQ(as[0].assume.size(), 3u);
  EXPECT_EQ(as[0].assume[0].param, 0u);
  EXPECT_EQ(as[0].assume[0].kind, Assumption::Kind::Aligned);
  EXPECT_EQ(as[0].assume[0].value, 16);
  EXPECT_EQ(as[0].assume[1].kind, Assumption::Kind::Equals);
  EXPECT_EQ(as[0].assume[1].value, 1);
  EXPECT_EQ(as[0].assume[2].kind, Assumption::Kind::MultipleOf);
  EXPECT_EQ(as[0].assume[2].param, 2u);
  // A manifest without the field has none (older blkc, or nothing to assume).
  EXPECT_TRUE(parseManifest(kernelWith("", ""), "m.fatbin")
                  .kernels[0].specializations[0].assumed.empty());
}

TEST(AssumedManifest, RefusesMalformedAssumptions) {
  const std::string at = "blk: m.fatbin: bad manifest: kernels[0] "
                         "(`k`).specializations[0].assumed";
  auto bad = [](const std::string &assume) {
    return parseError(kernelAssuming(R"([{"entry": "v", "assume": )" + assume + "}]"));
  };
  EXPECT_EQ(parseError(kernelAssuming(R"({"entry": "v"})")), at + ": expected an array");
  EXPECT_EQ(parseError(kernelAssuming(R"([{"entry": "v"}])")),
            at + "[0]: missing \"assume\"");
  EXPECT_EQ(bad("[]"), at + "[0].assume: expected 1 to 3 tests per parameter");
  EXPECT_EQ(bad(R"([{"param": 9, "equals": 1}])"),
            at + "[0].assume[0].param: 9 is out of range (0 to 3)");
  EXPECT_EQ(bad(R"([{"param": 1}])"),
            at + "[0].assume[0]: expected exactly one of \"aligned\", \"equals\", "
                 "\"multiple_of\"");
  EXPECT_EQ(bad(R"([{"param": 1, "equals": 1, "multiple_of": 16}])"),
            at + "[0].assume[0]: expected exactly one of \"aligned\", \"equals\", "
                 "\"multiple_of\"");
  EXPECT_EQ(bad(R"([{"param": 1, "aligned": 16}])"),
            at + "[0].assume[0]: a test that parameter `m` of type i32 cannot take");
  EXPECT_EQ(bad(R"([{"param": 0, "equals": 1}])"),
            at + "[0].assume[0]: a test that parameter `x` of type *f32 cannot take");
  EXPECT_EQ(bad(R"([{"param": 3, "equals": 1}])"),
            at + "[0].assume[0]: a test that parameter `s` of type f32 cannot take");
  EXPECT_EQ(bad(R"([{"param": 1, "multiple_of": 0}])"),
            at + "[0].assume[0]: divisor 0 out of range (1 to 2^20)");
  EXPECT_EQ(parseError(kernelAssuming(
                R"([{"entry": "k__w4", "assume": [{"param": 1, "equals": 1}]}])")),
            at + "[0].entry: repeats the specialisation's own entry");
}

/// Context and Module on the fake driver with the variant fixture.
class Variants : public ::testing::Test {
protected:
  void SetUp() override {
    handle = dlopen(BLK_FAKE_CUDA, RTLD_NOW);
    ASSERT_NE(handle, nullptr) << dlerror();
    lastLaunch = reinterpret_cast<BlkFakeLastLaunchFn>(
        dlsym(handle, "blkFakeLastLaunch"));
    sharedAttribute = reinterpret_cast<BlkFakeSharedAttributeFn>(
        dlsym(handle, "blkFakeSharedAttribute"));
    launchCount = reinterpret_cast<BlkFakeLaunchCountFn>(
        dlsym(handle, "blkFakeLaunchCount"));
    ASSERT_NE(launchCount, nullptr);
  }
  void TearDown() override { dlclose(handle); }
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

  void *handle = nullptr;
  BlkFakeLastLaunchFn lastLaunch = nullptr;
  BlkFakeSharedAttributeFn sharedAttribute = nullptr;
  BlkFakeLaunchCountFn launchCount = nullptr;
};

const char *const kGeneric = "tile_copy__BLOCK_128__w4";

TEST_F(Variants, EachClassLaunchesItsEntry) {
  BLK_REQUIRE_FIXTURE("kernels_variants");
  Context ctx = open();
  Module mod = ctx.load(fixturePath("kernels_variants"));
  Kernel k = mod.kernel("tile_copy");
  ASSERT_EQ(k.desc().specialize, (std::vector<uint32_t>{2, 3}));
  DeviceBuffer<float> x(ctx, 64), out(ctx, 64);
  struct Case {
    int32_t m;
    int64_t n;
    const char *suffix; ///< "" for the generic entry
    unsigned shared;
  } cases[] = {
      {1, 1, "__v11", 0},     {1, 32, "__v1d", 1024},
      {1, 7, "__v1x", 2048},  {48, 1, "__vd1", 3072},
      {0, 0, "__vdd", 65536}, {-16, 33, "__vdx", 5120},
      {17, 1, "__vx1", 6144}, {5, -4096, "__vxd", 7168},
      {3, 5, "", 0},          {-1, 9, "", 0},
  };
  for (const Case &c : cases) {
    k.launch(x, out, c.m, c.n);
    BlkFakeLaunch l = last();
    EXPECT_EQ(std::string(l.function), kGeneric + std::string(c.suffix))
        << "m=" << c.m << " n=" << c.n;
    EXPECT_EQ(l.sharedBytes, c.shared) << "m=" << c.m << " n=" << c.n;
    EXPECT_EQ(l.block[0], 128u); // a variant keeps its specialisation's shape
  }
  // Classes come from the converted value: an int64 48 for the i32 `m`, a
  // uint8 1 for the i64 `n`.
  k.launch(x, out, int64_t(48), uint8_t(1));
  EXPECT_STREQ(last().function, "tile_copy__BLOCK_128__w4__vd1");
  // An explicit grid still selects by value.
  k.launch(Grid{3}, x, out, 1, 16);
  EXPECT_STREQ(last().function, "tile_copy__BLOCK_128__w4__v1d");
  EXPECT_EQ(last().grid[0], 3u);
}

TEST_F(Variants, TablesArePerSpecialisation) {
  BLK_REQUIRE_FIXTURE("kernels_variants");
  Context ctx = open();
  Module mod = ctx.load(fixturePath("kernels_variants"));
  Kernel k = mod.kernel("tile_copy").with("BLOCK", 64);
  DeviceBuffer<float> x(ctx, 64), out(ctx, 64);
  k.launch(x, out, 1, 7);
  EXPECT_STREQ(last().function, "tile_copy__BLOCK_64__w2__v1x");
  EXPECT_EQ(last().block[0], 64u);
  // No variant for (1, 16) in this specialisation: the generic entry.
  k.launch(x, out, 1, 16);
  EXPECT_STREQ(last().function, "tile_copy__BLOCK_64__w2");
  k.launch(x, out, 16, 16);
  EXPECT_STREQ(last().function, "tile_copy__BLOCK_64__w2");
}

TEST_F(Variants, KernelWithoutVariantsIsUnchanged) {
  BLK_REQUIRE_FIXTURE("kernels_variants");
  Context ctx = open();
  Module mod = ctx.load(fixturePath("kernels_variants"));
  DeviceBuffer<float> x(ctx, 64), out(ctx, 64);
  for (int32_t m : {1, 16, 17}) {
    mod.kernel("plain").launch(x, out, m, int64_t(m));
    EXPECT_STREQ(last().function, "plain__w4");
  }
}

TEST_F(Variants, SharedMemoryOptInIsPerVariantAndLazy) {
  BLK_REQUIRE_FIXTURE("kernels_variants");
  Context ctx = open();
  Module mod = ctx.load(fixturePath("kernels_variants"));
  // Variants are looked up on first use, so nothing is opted in at load.
  EXPECT_EQ(sharedAttribute("tile_copy__BLOCK_128__w4__vdd"), -1);
  DeviceBuffer<float> x(ctx, 64), out(ctx, 64);
  mod.kernel("tile_copy").launch(x, out, 32, 64);
  EXPECT_STREQ(last().function, "tile_copy__BLOCK_128__w4__vdd");
  EXPECT_EQ(sharedAttribute("tile_copy__BLOCK_128__w4__vdd"), 65536);
  EXPECT_EQ(sharedAttribute(kGeneric), -1); // small: no opt-in
  EXPECT_EQ(sharedAttribute("tile_copy__BLOCK_128__w4__v1d"), -1);
}

TEST_F(Variants, MissingVariantEntryIsReportedAtLaunch) {
  BLK_REQUIRE_FIXTURE("kernels_variants");
  Context ctx = open();
  Module mod = ctx.load(fixturePath("kernels_variants"));
  DeviceBuffer<float> x(ctx, 64), out(ctx, 64);
  Kernel k = mod.kernel("lost");
  k.launch(x, out, 2, 0); // generic entry: fine
  EXPECT_STREQ(last().function, "lost__w4");
  for (int attempt = 0; attempt < 2; ++attempt) {
    try {
      k.launch(x, out, 1, 0);
      FAIL() << "no error";
    } catch (const Error &e) {
      EXPECT_EQ(std::string(e.what()),
                "blk: kernel `lost`: " + fixturePath("kernels_variants") +
                    ": value variant `lost__w4__v1` named by the manifest is "
                    "not in the module: CUDA_ERROR_NOT_FOUND (named symbol "
                    "not found)");
      EXPECT_EQ(e.kernel(), "lost");
    }
  }
}

// 8 threads, each with its own argument classes, launch at once; the first
// launches race to resolve the variants. Every launch must reach its entry.
TEST_F(Variants, ThreadsPickTheirVariantsConcurrently) {
  BLK_REQUIRE_FIXTURE("kernels_variants");
  Context ctx = open();
  DeviceBuffer<float> x(ctx, 64), out(ctx, 64);
  struct Case {
    int32_t m;
    int64_t n;
    const char *entry;
  } cases[8] = {
      {1, 1, "tile_copy__BLOCK_128__w4__v11"},
      {1, 16, "tile_copy__BLOCK_128__w4__v1d"},
      {16, 16, "tile_copy__BLOCK_128__w4__vdd"},
      {16, 1, "tile_copy__BLOCK_128__w4__vd1"},
      {3, 16, "tile_copy__BLOCK_128__w4__vxd"},
      {3, 3, "tile_copy__BLOCK_128__w4"},
      {1, 16, "tile_copy__BLOCK_128__w4__v1d"},
      {32, 5, "tile_copy__BLOCK_128__w4__vdx"},
  };
  constexpr int kLaunches = 1000;
  std::map<std::string, uint64_t> before, expected;
  for (const Case &c : cases) {
    before[c.entry] = launchCount(c.entry);
    expected[c.entry] += kLaunches;
  }
  Module mod = ctx.load(fixturePath("kernels_variants"));
  std::atomic<int> failures{0}, ready{0};
  std::vector<std::thread> pool;
  for (const Case &c : cases)
    pool.emplace_back([&, c] {
      try {
        Kernel k = mod.kernel("tile_copy");
        ++ready;
        while (ready.load() < 8) {
        }
        for (int i = 0; i < kLaunches; ++i)
          k.launch(x, out, c.m, c.n);
      } catch (const Error &) {
        ++failures;
      }
    });
  for (std::thread &th : pool)
    th.join();
  EXPECT_EQ(failures.load(), 0);
  for (const auto &[entry, count] : expected)
    EXPECT_EQ(launchCount(entry.c_str()) - before[entry], count) << entry;
  EXPECT_EQ(sharedAttribute("tile_copy__BLOCK_128__w4__vdd"), 65536);
}

} // namespace

TEST_F(Variants, AssumedVariantWhenEveryTestHolds) {
  BLK_REQUIRE_FIXTURE("kernels_variants");
  Context ctx = open();
  Module mod = ctx.load(fixturePath("kernels_variants"));
  Kernel k = mod.kernel("auto_copy");
  float *aligned = reinterpret_cast<float *>(uintptr_t(0x10000));
  float *off4 = reinterpret_cast<float *>(uintptr_t(0x10004));
  DeviceBuffer<float> out(ctx, 64);
  struct Case {
    float *x;
    int32_t m;
    int64_t n;
    const char *entry;
    unsigned shared;
  } cases[] = {
      // x 16-byte aligned, n == 1, m % 16 == 0: the first variant.
      {aligned, 32, 1, "auto_copy__w4__auto", 1024},
      {aligned, 0, 1, "auto_copy__w4__auto", 1024},
      {aligned, -16, 1, "auto_copy__w4__auto", 1024},
      // One test fails: the next variant (m == 1) or the generic entry.
      {off4, 32, 1, "auto_copy__w4", 0},
      {aligned, 33, 1, "auto_copy__w4", 0},
      {aligned, 32, 2, "auto_copy__w4", 0},
      {off4, 1, 5, "auto_copy__w4__auto_bt", 2048},
      {aligned, 1, 7, "auto_copy__w4__auto_bt", 2048},
  };
  for (const Case &c : cases) {
    k.launch(c.x, out, c.m, c.n);
    EXPECT_STREQ(last().function, c.entry) << "m=" << c.m << " n=" << c.n;
    EXPECT_EQ(last().sharedBytes, c.shared) << "m=" << c.m << " n=" << c.n;
    EXPECT_EQ(last().block[0], 128u);
  }
  // The tests read the converted argument: an int64 48 for the i32 `m`.
  k.launch(aligned, out, int64_t(48), uint8_t(1));
  EXPECT_STREQ(last().function, "auto_copy__w4__auto");
}
