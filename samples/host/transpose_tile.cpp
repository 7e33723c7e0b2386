//===- transpose_tile.cpp - seed 5.4: 4 x 6 transpose in 2 x 2 tiles -----===//
//
// samples/transpose_tile.blk on the seed's arange(24).reshape(4, 6) over a
// (2, 3) grid (exact), then a ragged random matrix with the 32 x 32 config.
//
//===----------------------------------------------------------------------===//
#include "transpose_tile.hpp"
#include "Common.h"

using namespace samples;
using namespace transpose_tile_blk;

/// Transposes the row-major M x N `a` on the GPU; true when it equals A.t().
static bool transpose(blk::Context &ctx, const blk::Module &mod,
                      const transpose_tile_config &config,
                      const std::vector<float> &a, int m, int n,
                      std::vector<float> *result) {
  blk::DeviceBuffer<float> da(ctx, a), out(ctx, a.size());
  out.fill(kPoison);
  // out is N x M row-major: strides (M, 1).
  transpose_tile_kernel(mod, config)(da, out, m, n, n, 1, m, 1);
  std::vector<float> got = out.download();
  bool ok = true;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      ok &= got[size_t(j * m + i)] == a[size_t(i * n + j)];
  if (result)
    *result = got;
  return ok;
}

int main() {
  return runSample("transpose_tile", [](blk::Context &ctx) {
    module mod(ctx, BLK_SAMPLE_FATBIN);
    const int m = 4, n = 6;
    const transpose_tile_config &small = transpose_tile_configs[0];
    int gm = (m + small.BLOCK_M - 1) / small.BLOCK_M;
    int gn = (n + small.BLOCK_N - 1) / small.BLOCK_N;
    std::printf("=== Section 5.4: SPMD block transpose, one program per tile "
                "===\n");
    std::printf("grid (programs): (%d, %d) = %d programs total\n", gm, gn,
                gm * gn);
    std::vector<float> a = arange(size_t(m * n)), t;
    bool ok = transpose(ctx, mod.get(), small, a, m, n, &t);
    std::printf("A = %s\n", pyMatrix(a, m, n).c_str());
    std::printf("out_t = %s\n", pyMatrix(t, n, m).c_str());
    std::printf("matches A.t()? %s\n", ok ? "True" : "False");
    for (const transpose_tile_config &c : transpose_tile_configs)
      ok &= transpose(ctx, mod.get(), c, randomFloats(size_t(97 * 45), 9), 97,
                      45, nullptr);
    return verdict(ok, "transpose_tile: exact on the seed's 4x6 and on a "
                       "random 97x45 for every config");
  });
}
