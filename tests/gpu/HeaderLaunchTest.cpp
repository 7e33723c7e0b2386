//===- HeaderLaunchTest.cpp - generated launchers on the GPU --------------===//
//
// Uses the header blkrt-emit-header generated for the fixture artifact:
// typed launchers, configs as constants, module loaded by the path
// KERNELS_BLK_FATBIN_PATH overrides (CMakeLists.txt; the header's default
// is the relative `kernels.fatbin`). Exit 77 (skipped) without a GPU.
//
//===----------------------------------------------------------------------===//
#include "kernels.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>

int main() {
  // Checked before the GPU is looked for, so also where the test skips.
  if (std::strcmp(kernels_blk::kFatbinPath, KERNELS_BLK_FATBIN_PATH) != 0 ||
      kernels_blk::kFatbinPath[0] != '/') {
    std::printf("FAIL: kFatbinPath is `%s`, not the macro's absolute path\n",
                kernels_blk::kFatbinPath);
    return 1;
  }
  std::optional<blk::Context> ctx;
  try {
    ctx.emplace();
  } catch (const blk::Error &e) {
    std::printf("SKIP: no usable GPU: %s\n", e.what());
    return 77;
  }
  try {
    kernels_blk::module m(*ctx);
    const int n = 4099;
    std::mt19937 rng(7);
    std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
    std::vector<float> x(n);
    for (float &v : x)
      v = dist(rng);
    blk::DeviceBuffer<float> dx(*ctx, x), out(*ctx, n);
    int failures = 0;
    for (const auto &config : kernels_blk::double_grid_configs) {
      out.fill(std::numeric_limits<float>::quiet_NaN());
      kernels_blk::double_grid_kernel k(m.get(), config);
      k(dx, out, n);
      std::vector<float> got = out.download();
      for (int i = 0; i < n; ++i)
        if (got[i] != 2.0f * x[i]) {
          std::printf("FAIL: BLOCK=%d element %d: %g != %g\n", config.BLOCK, i,
                      double(got[i]), double(2.0f * x[i]));
          ++failures;
          break;
        }
    }
    blk::DeviceBuffer<int32_t> ids(*ctx, 3);
    m.no_grid(blk::Grid{3}, ids);
    std::vector<int32_t> got = ids.download();
    if (got != std::vector<int32_t>{3, 13, 23}) {
      std::printf("FAIL: no_grid wrote %d %d %d\n", got[0], got[1], got[2]);
      ++failures;
    }
    if (failures)
      return 1;
    std::printf("generated launchers: double_grid (%zu configs) and no_grid "
                "correct\n",
                sizeof kernels_blk::double_grid_configs /
                    sizeof kernels_blk::double_grid_configs[0]);
  } catch (const blk::Error &e) {
    std::printf("FAIL: %s\n", e.what());
    return 1;
  }
  return 0;
}
