//===- TensorMapLaunchTest.cpp - launches with tensor maps (fake driver) --===//
//
// Entries with `tensor_maps` (fixture kernels_tma: fixtures/tma.json +
// tma.cu) launched over the fake driver, whose cuTensorMapEncodeTiled
// records its arguments in the map (BlkFakeTensorMap): the maps follow the
// kernel's parameters in manifest order, are encoded from the arguments
// with the fixed choices of docs/manifest.md, are re-encoded only when
// their inputs change, and belong to the entry launched (specialisation,
// value variant or assumed variant).
//
//===----------------------------------------------------------------------===//
#include "FakeDriver.h"
#include "FixtureUtil.h"

#include "blk/runtime.h"

#include <cuda.h>
#include <dlfcn.h>

#include <atomic>
#include <thread>

using namespace blk;
using namespace blk::test;

namespace {

/// What the last launch of a fixture kernel passed after its parameters.
struct Seen {
  std::string function;
  unsigned maps = 0;
  BlkFakeTensorMap map[2] = {};
  uint64_t a = 0; ///< the first parameter (a pointer)
  int32_t rows = 0;
};
Seen seen;
/// Launches whose maps disagreed with their own arguments (threads test).
std::atomic<int> mismatches{0};

void readMaps(const char *function, void **params) {
  std::string name = function;
  seen = Seen{};
  seen.function = name;
  std::memcpy(&seen.a, params[0], 8);
  // tma_auto__w4 and tma_var__w4 are the plain entries: no maps.
  if (name == "tma_add__w4" || name == "tma_auto__w4__auto" ||
      name == "tma_var__w4__vd") {
    seen.maps = 2;
    std::memcpy(&seen.rows, params[3], 4);
    std::memcpy(&seen.map[0], params[8], sizeof(BlkFakeTensorMap));
    std::memcpy(&seen.map[1], params[9], sizeof(BlkFakeTensorMap));
    uint64_t b = 0;
    std::memcpy(&b, params[1], 8);
    if (seen.map[0].base != seen.a || seen.map[1].base != b ||
        seen.map[0].dims[1] != uint64_t(seen.rows))
      ++mismatches;
  } else if (name == "wide__w1") {
    seen.maps = 1;
    std::memcpy(&seen.map[0], params[65], sizeof(BlkFakeTensorMap));
  }
}

class TensorMapLaunch : public ::testing::Test {
protected:
  void SetUp() override {
    handle = dlopen(BLK_FAKE_CUDA, RTLD_NOW);
    ASSERT_NE(handle, nullptr) << dlerror();
    setEffect = reinterpret_cast<BlkFakeSetKernelEffectFn>(
        dlsym(handle, "blkFakeSetKernelEffect"));
    encodes = reinterpret_cast<BlkFakeTensorMapEncodesFn>(
        dlsym(handle, "blkFakeTensorMapEncodes"));
    failNextEncode = reinterpret_cast<BlkFakeFailNextEncodeFn>(
        dlsym(handle, "blkFakeFailNextEncode"));
    ASSERT_NE(failNextEncode, nullptr);
    setEffect(readMaps);
  }
  void TearDown() override {
    setEffect(nullptr); // other tests' kernels have other parameters
    dlclose(handle);
  }
  static Context open() {
    ContextOptions options;
    options.driverLibrary = BLK_FAKE_CUDA;
    return Context(options);
  }

  void *handle = nullptr;
  BlkFakeSetKernelEffectFn setEffect = nullptr;
  BlkFakeTensorMapEncodesFn encodes = nullptr;
  BlkFakeFailNextEncodeFn failNextEncode = nullptr;
};

float *at(uintptr_t address) { return reinterpret_cast<float *>(address); }

TEST_F(TensorMapLaunch, MapsFollowTheParametersInManifestOrder) {
  BLK_REQUIRE_FIXTURE("kernels_tma");
  Context ctx = open();
  Module mod = ctx.load(fixturePath("kernels_tma"));
  mod.kernel("tma_add").launch(at(0x10000), at(0x20000), at(0x30000), 50, 70,
                               int64_t(72), int64_t(80), int64_t(96));
  ASSERT_EQ(seen.function, "tma_add__w4");
  ASSERT_EQ(seen.maps, 2u);
  const BlkFakeTensorMap &a = seen.map[0], &b = seen.map[1];
  EXPECT_EQ(a.base, 0x10000u);
  EXPECT_EQ(a.rank, 2u);
  EXPECT_EQ(a.dataType, unsigned(CU_TENSOR_MAP_DATA_TYPE_FLOAT32));
  EXPECT_EQ(a.dims[0], 70u);        // cols, innermost first
  EXPECT_EQ(a.dims[1], 50u);        // rows
  EXPECT_EQ(a.strides[0], 72u * 4); // lda in bytes
  EXPECT_EQ(a.box[0], 32u);
  EXPECT_EQ(a.box[1], 16u);
  EXPECT_EQ(a.elementStrides[0], 1u);
  EXPECT_EQ(a.elementStrides[1], 1u);
  EXPECT_EQ(a.swizzle, unsigned(CU_TENSOR_MAP_SWIZZLE_NONE));
  EXPECT_EQ(a.interleave, unsigned(CU_TENSOR_MAP_INTERLEAVE_NONE));
  EXPECT_EQ(a.l2Promotion, unsigned(CU_TENSOR_MAP_L2_PROMOTION_L2_128B));
  EXPECT_EQ(a.oobFill, unsigned(CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  EXPECT_EQ(b.base, 0x20000u);
  EXPECT_EQ(b.dims[0], 70u); // cols - 0
  EXPECT_EQ(b.strides[0], 80u * 4);
  EXPECT_EQ(b.swizzle, unsigned(CU_TENSOR_MAP_SWIZZLE_128B));
}

TEST_F(TensorMapLaunch, EncodesOnlyWhenInputsChange) {
  BLK_REQUIRE_FIXTURE("kernels_tma");
  Context ctx = open();
  Module mod = ctx.load(fixturePath("kernels_tma"));
  Kernel k = mod.kernel("tma_add");
  uint64_t before = encodes();
  k.launch(at(0x10000), at(0x20000), at(0x30000), 50, 70, int64_t(72),
           int64_t(80), int64_t(96));
  EXPECT_EQ(encodes() - before, 2u);
  // Same inputs (another output, another ldo): the cached maps.
  k.launch(at(0x10000), at(0x20000), at(0x40000), 50, 70, int64_t(72),
           int64_t(80), int64_t(8));
  EXPECT_EQ(encodes() - before, 2u);
  EXPECT_EQ(seen.map[0].base, 0x10000u);
  // Another `a`: only its map.
  k.launch(at(0x11000), at(0x20000), at(0x30000), 50, 70, int64_t(72),
           int64_t(80), int64_t(96));
  EXPECT_EQ(encodes() - before, 3u);
  EXPECT_EQ(seen.map[0].base, 0x11000u);
  EXPECT_EQ(seen.map[1].base, 0x20000u);
  // Another row count: both.
  k.launch(at(0x11000), at(0x20000), at(0x30000), 51, 70, int64_t(72),
           int64_t(80), int64_t(96));
  EXPECT_EQ(encodes() - before, 5u);
  EXPECT_EQ(seen.map[1].dims[1], 51u);
  // An empty grid launches nothing and encodes nothing (no map has 0 rows).
  k.launch(at(0x12000), at(0x20000), at(0x30000), 0, 70, int64_t(72),
           int64_t(80), int64_t(96));
  EXPECT_EQ(encodes() - before, 5u);
}

TEST_F(TensorMapLaunch, ArgumentErrorsNameTheParameter) {
  BLK_REQUIRE_FIXTURE("kernels_tma");
  Context ctx = open();
  Module mod = ctx.load(fixturePath("kernels_tma"));
  Kernel k = mod.kernel("tma_add");
  auto launchError = [&](float *a, int64_t lda) -> std::string {
    try {
      k.launch(a, at(0x20000), at(0x30000), 50, 70, lda, int64_t(80),
               int64_t(96));
    } catch (const Error &e) {
      EXPECT_EQ(e.kernel(), "tma_add");
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(launchError(at(0x10000), 70),
            "blk: kernel `tma_add`: tensor map of `a`: stride of dim 1 (`lda`) "
            "is 280 bytes, "
            "not a multiple of 16");
  EXPECT_EQ(launchError(at(0x10004), 72),
            "blk: kernel `tma_add`: tensor map of `a`: base address 0x10004 is "
            "not 16-byte "
            "aligned");
  failNextEncode(CUDA_ERROR_INVALID_VALUE);
  EXPECT_EQ(launchError(at(0x10000), 72),
            "blk: kernel `tma_add`: encoding the tensor map of `a` (base "
            "0x10000, dims [70, "
            "50], strides [288] bytes, box [32, 16], swizzle 0): "
            "CUDA_ERROR_INVALID_VALUE "
            "(invalid argument)");
  // The failure cached nothing: the same launch encodes and runs.
  uint64_t before = encodes();
  EXPECT_EQ(launchError(at(0x10000), 72), "");
  EXPECT_EQ(encodes() - before, 2u);
  EXPECT_EQ(seen.map[0].base, 0x10000u);
}

TEST_F(TensorMapLaunch, VariantsTakeTheirOwnMaps) {
  BLK_REQUIRE_FIXTURE("kernels_tma");
  Context ctx = open();
  Module mod = ctx.load(fixturePath("kernels_tma"));
  uint64_t before = encodes();
  // Assumed variant: every test holds -> its entry and maps.
  Kernel a = mod.kernel("tma_auto");
  a.launch(at(0x10000), at(0x20000), at(0x30000), 50, 70, int64_t(72),
           int64_t(80), int64_t(96));
  EXPECT_EQ(seen.function, "tma_auto__w4__auto");
  EXPECT_EQ(seen.maps, 2u);
  EXPECT_EQ(seen.map[0].strides[0], 288u);
  EXPECT_EQ(encodes() - before, 2u);
  // lda = 71 breaks `multiple_of: 4`: the generic entry, which takes none.
  a.launch(at(0x10000), at(0x20000), at(0x30000), 50, 70, int64_t(71),
           int64_t(80), int64_t(96));
  EXPECT_EQ(seen.function, "tma_auto__w4");
  EXPECT_EQ(seen.maps, 0u);
  EXPECT_EQ(encodes() - before, 2u);
  // Value variant of lda's class 16.
  Kernel v = mod.kernel("tma_var");
  v.launch(at(0x10000), at(0x20000), at(0x30000), 50, 70, int64_t(64),
           int64_t(80), int64_t(96));
  EXPECT_EQ(seen.function, "tma_var__w4__vd");
  EXPECT_EQ(seen.maps, 2u);
  EXPECT_EQ(seen.map[0].strides[0], 256u);
  v.launch(at(0x10000), at(0x20000), at(0x30000), 50, 70, int64_t(72),
           int64_t(80), int64_t(96));
  EXPECT_EQ(seen.function, "tma_var__w4");
  EXPECT_EQ(seen.maps, 0u);
}

TEST_F(TensorMapLaunch, ManyParametersTakeTheHeapPath) {
  BLK_REQUIRE_FIXTURE("kernels_tma");
  Context ctx = open();
  Module mod = ctx.load(fixturePath("kernels_tma"));
  std::vector<ArgValue> args{ArgTraits<float *>::make(at(0x10000))};
  for (int i = 0; i < 64; ++i)
    args.push_back(ArgTraits<int32_t>::make(i == 0 ? 40 : i));
  mod.kernel("wide").launchValues(args);
  EXPECT_EQ(seen.function, "wide__w1");
  ASSERT_EQ(seen.maps, 1u);
  EXPECT_EQ(seen.map[0].base, 0x10000u);
  EXPECT_EQ(seen.map[0].rank, 1u);
  EXPECT_EQ(seen.map[0].dims[0], 40u); // p00
  EXPECT_EQ(seen.map[0].box[0], 4u);
}

// Threads launch the same entry with different arguments: each launch must
// pass maps encoded from its own arguments, whatever the cache holds.
TEST_F(TensorMapLaunch, ThreadsGetMapsOfTheirOwnArguments) {
  BLK_REQUIRE_FIXTURE("kernels_tma");
  Context ctx = open();
  Module mod = ctx.load(fixturePath("kernels_tma"));
  mismatches = 0;
  std::atomic<int> failures{0};
  std::vector<std::thread> pool;
  for (int t = 0; t < 6; ++t)
    pool.emplace_back([&, t] {
      try {
        Kernel k = mod.kernel("tma_add");
        for (int i = 0; i < 300; ++i)
          k.launch(at(0x10000 + 0x100 * t), at(0x20000), at(0x30000), 10 + t,
                   70, int64_t(72), int64_t(80), int64_t(96));
      } catch (const Error &) {
        ++failures;
      }
    });
  for (std::thread &th : pool)
    th.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(mismatches.load(), 0);
}

} // namespace
