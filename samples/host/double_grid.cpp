//===- double_grid.cpp - seed 5.2: n = 10, BLOCK = 8, grid (2,) ----------===//
//
// samples/double_grid.blk on the seed's arange(10) with BLOCK = 8 (exact
// output), then every compiled config on random inputs of ragged sizes.
//
//===----------------------------------------------------------------------===//
#include "double_grid.hpp"
#include "Common.h"

using namespace samples;
using namespace double_grid_blk;

static bool runOnce(blk::Context &ctx, const blk::Module &mod,
                    const double_grid_config &config,
                    const std::vector<float> &x, std::vector<float> *result) {
  int n = int(x.size());
  blk::DeviceBuffer<float> dx(ctx, x), out(ctx, x.size());
  out.fill(kPoison);
  double_grid_kernel(mod, config)(dx, out, n);
  std::vector<float> got = out.download();
  bool ok = true;
  for (size_t i = 0; i < x.size(); ++i)
    ok &= got[i] == 2.0f * x[i];
  if (result)
    *result = got;
  return ok;
}

int main() {
  return runSample("double_grid", [](blk::Context &ctx) {
    module mod(ctx, BLK_SAMPLE_FATBIN);
    const int n = 10, block = 8;
    const double_grid_config *block8 = nullptr;
    for (const double_grid_config &c : double_grid_configs)
      if (c.BLOCK == block)
        block8 = &c;
    if (!block8)
      return verdict(false, "double_grid: no BLOCK=8 config");
    std::printf("=== Section 5.2: one masked kernel handles the 'remainder' "
                "automatically ===\n");
    std::vector<float> got;
    bool seedOk = runOnce(ctx, mod.get(), *block8, arange(n), &got);
    std::printf("n=%d, BLOCK=%d, grid=(%d,) -> one kernel, no separate "
                "remainder kernel\n",
                n, block, (n + block - 1) / block);
    std::printf("result: %s correct? %s\n", pyList(got).c_str(),
                seedOk ? "True" : "False");
    bool ok = seedOk;
    for (const double_grid_config &c : double_grid_configs)
      for (size_t size : {size_t(1), size_t(1000), size_t(1) << 20 | 3})
        ok &=
            runOnce(ctx, mod.get(), c, randomFloats(size, 7, -50, 50), nullptr);
    return verdict(ok, "double_grid: exact on arange(10) and on random "
                       "n = 1, 1000, 1048579 for every config");
  });
}
