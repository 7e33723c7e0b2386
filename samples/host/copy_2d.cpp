//===- copy_2d.cpp - seed 3.3/3.4: hardcoded vs real strides -------------===//
//
// samples/copy_2d.blk on the seed's base = arange(12).reshape(3, 4) and its
// transposed view t = base.t() (same storage, strides (1, 4)): the
// hardcoded kernel is right on base and wrong on t, the strided one right
// on t, and a 2 x 2 tile of t is [[0, 4], [1, 5]]. Then the strided kernel
// on a random matrix's transpose.
//
//===----------------------------------------------------------------------===//
#include "copy_2d.hpp"
#include "Common.h"

using namespace samples;
using namespace copy_2d_blk;

/// The M x N view of `storage` with strides (sr, sc), copied contiguously.
static std::vector<float> view(const std::vector<float> &storage, int m, int n,
                               int sr, int sc) {
  std::vector<float> v;
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j)
      v.push_back(storage[size_t(i * sr + j * sc)]);
  return v;
}

static const char *pyBool(bool b) { return b ? "True" : "False"; }

int main() {
  return runSample("copy_2d", [](blk::Context &ctx) {
    module mod(ctx, BLK_SAMPLE_FATBIN);
    const copy_2d_strided_config *tile2 = nullptr;
    for (const copy_2d_strided_config &c : copy_2d_strided_configs)
      if (c.BLOCK_M == 2 && c.BLOCK_N == 2)
        tile2 = &c;
    if (!tile2)
      return verdict(false, "copy_2d: no 2x2 config of copy_2d_strided");
    copy_2d_strided_kernel strided2(mod.get(), *tile2);

    std::vector<float> base = arange(12);
    blk::DeviceBuffer<float> dbase(ctx, base);
    auto run = [&](auto &&launch, size_t count) {
      blk::DeviceBuffer<float> out(ctx, count);
      out.fill(kPoison);
      launch(out);
      return out.download();
    };
    std::vector<float> baseView = view(base, 3, 4, 4, 1);
    std::vector<float> t = view(base, 4, 3, 1, 4);

    std::printf("=== Section 3.3: hardcoded strides vs. real strides ===\n");
    auto contig =
        run([&](auto &o) { mod.copy_2d_hardcoded(dbase, o, 3, 4); }, 12);
    auto hard =
        run([&](auto &o) { mod.copy_2d_hardcoded(dbase, o, 4, 3); }, 12);
    auto strided =
        run([&](auto &o) { mod.copy_2d_strided(dbase, o, 4, 3, 1, 4); }, 12);
    std::printf("hardcoded kernel on contiguous base, correct? %s\n",
                pyBool(contig == baseView));
    std::printf("hardcoded kernel on base.t(), correct? %s\n",
                pyBool(hard == t));
    std::printf("stride-aware kernel on base.t(), correct? %s\n",
                pyBool(strided == t));
    std::printf("\n=== Section 3.4: a 2x2 tile of base.t() ===\n");
    auto tile = run([&](auto &o) { strided2(dbase, o, 2, 2, 1, 4); }, 4);
    std::printf("top-left 2x2 tile: %s (expected [[0,4],[1,5]])\n",
                pyMatrix(tile, 2, 2).c_str());

    // The hardcoded kernel reads t's storage as if row-major: base's first
    // 12 elements in order, which is exactly what it must produce.
    bool ok = contig == baseView && hard == base && hard != t && strided == t &&
              tile == std::vector<float>{0, 4, 1, 5};

    // Random storage, 4 x 4 transposed view (the 4 x 4 block covers it).
    std::vector<float> r = randomFloats(16, 21, -10, 10);
    blk::DeviceBuffer<float> dr(ctx, r);
    auto rt = run([&](auto &o) { mod.copy_2d_strided(dr, o, 4, 3, 1, 4); }, 12);
    ok &= rt == view(r, 4, 3, 1, 4);
    return verdict(ok, "copy_2d: seed booleans True/False/True, tile "
                       "[[0,4],[1,5]], random transposed view exact");
  });
}
