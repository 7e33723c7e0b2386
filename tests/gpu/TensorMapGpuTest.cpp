//===- TensorMapGpuTest.cpp - tensor-map kernel parameters on a GPU -------===//
//
// The fixture kernels_tma (tests/unit/Runtime/fixtures/tma.cu + tma.json)
// loads tiles with cp.async.bulk.tensor through the CUtensorMaps libblkrt
// encodes from the manifest's `tensor_maps` and appends to the parameters:
// out = a + 2 b, tile by tile, with `b` 128-byte swizzled, and positions
// past rows/cols written from TMA's out-of-bounds zeros. Needs sm_90+.
//
//===----------------------------------------------------------------------===//
#include "blk/runtime.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace {

std::string fixture(const std::string &name) {
  return std::string(BLK_RT_FIXTURE_DIR) + "/" + name + ".fatbin";
}

/// A rows x ld matrix of distinct values (ld >= cols; the padding is NaN,
/// which must never reach the output).
std::vector<float> matrix(int rows, int cols, int64_t ld, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(-1000, 1000);
  std::vector<float> m(size_t(rows * ld), std::nanf(""));
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      m[size_t(r * ld + c)] = float(dist(rng));
  return m;
}

/// Runs `kernel` of the fixture over rows x cols and checks every position
/// of the padded output (tiles of 16 x 32).
void checkAdd(const std::string &kernel, int rows, int cols, int64_t lda,
              int64_t ldb) {
  blk::Context ctx;
  if (ctx.device().sm < 90)
    GTEST_SKIP() << "TMA needs sm_90; this is sm_" << ctx.device().sm;
  blk::Module mod = ctx.load(fixture("kernels_tma"));
  int paddedRows = (rows + 15) / 16 * 16, ldo = (cols + 31) / 32 * 32;
  std::vector<float> a = matrix(rows, cols, lda, 1),
                     b = matrix(rows, cols, ldb, 2);
  blk::DeviceBuffer<float> da(ctx, a), db(ctx, b),
      out(ctx, size_t(paddedRows * ldo));
  out.fill(std::nanf(""));
  mod.kernel(kernel).launch(da, db, out, rows, cols, lda, ldb, int64_t(ldo));
  std::vector<float> got = out.download();
  for (int r = 0; r < paddedRows; ++r)
    for (int c = 0; c < ldo; ++c) {
      bool in = r < rows && c < cols;
      float want =
          in ? a[size_t(r * lda + c)] + 2 * b[size_t(r * ldb + c)] : 0.0f;
      ASSERT_EQ(got[size_t(r * ldo + c)], want)
          << kernel << " at (" << r << ", " << c << ")";
    }
}

TEST(TensorMapGpu, TmaLoadsThroughEncodedMaps) {
  checkAdd("tma_add", 50, 70, 72, 80);
  checkAdd("tma_add", 16, 32, 32, 32); // whole tiles: no out-of-bounds part
}

TEST(TensorMapGpu, AssumedVariantWithMapsAgreesWithTheGenericEntry) {
  checkAdd("tma_auto", 37, 100, 100, 104); // every assumption holds: TMA
  checkAdd("tma_auto", 37, 100, 101, 104); // lda % 4 != 0: plain loads
}

TEST(TensorMapGpu, ArgumentsTmaCannotTakeAreRefused) {
  blk::Context ctx;
  if (ctx.device().sm < 90)
    GTEST_SKIP() << "TMA needs sm_90; this is sm_" << ctx.device().sm;
  blk::Module mod = ctx.load(fixture("kernels_tma"));
  blk::DeviceBuffer<float> a(ctx, 4096), out(ctx, 4096);
  try {
    mod.kernel("tma_add").launch(a, a, out, 8, 8, int64_t(9), int64_t(8),
                                 int64_t(32));
    FAIL() << "no error";
  } catch (const blk::Error &e) {
    EXPECT_STREQ(e.what(),
                 "blk: kernel `tma_add`: tensor map of `a`: stride of dim 1 "
                 "(`lda`) is 36 bytes, not a multiple of 16");
  }
  ctx.synchronize();
}

} // namespace
