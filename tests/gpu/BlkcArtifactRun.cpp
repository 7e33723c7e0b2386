//===- BlkcArtifactRun.cpp - run a blkc-built double_grid on the GPU ------===//
//
// `blkrt-run-double ARTIFACT.fatbin` loads an artifact made by
// `blkc build` from a kernel `double_grid(x: *f32, out: *f32, n: i32,
// const BLOCK)` (tests/package/module-project/kernels/double.blk,
// samples/double.blk...) and checks every specialisation on random input
// with a poisoned output. Checks the compiler/runtime contract end to end.
// Exit 77 without a GPU, 1 on a wrong result or error.
//
//===----------------------------------------------------------------------===//
#include "blk/runtime.h"

#include <cstdio>
#include <limits>
#include <optional>
#include <random>

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: blkrt-run-double ARTIFACT.fatbin\n");
    return 2;
  }
  std::optional<blk::Context> ctx;
  try {
    ctx.emplace();
  } catch (const blk::Error &e) {
    std::printf("SKIP: no usable GPU: %s\n", e.what());
    return 77;
  }
  try {
    blk::Module mod = ctx->load(argv[1]);
    const blk::KernelDesc *desc = mod.manifest().findKernel("double_grid");
    if (!desc) {
      std::printf("FAIL: %s has no double_grid\n", argv[1]);
      return 1;
    }
    std::mt19937 rng(11);
    std::uniform_real_distribution<float> dist(-10.0f, 10.0f);
    for (int n : {1, 1000, 4097, 1 << 20}) {
      std::vector<float> x(static_cast<size_t>(n));
      for (float &v : x)
        v = dist(rng);
      blk::DeviceBuffer<float> dx(*ctx, x), out(*ctx, x.size());
      for (const blk::Specialization &spec : desc->specializations) {
        out.fill(std::numeric_limits<float>::quiet_NaN());
        blk::Kernel k = mod.kernel("double_grid");
        for (const blk::ConfigValue &v : spec.config)
          k = k.with(v.name, v.intValue);
        k = k.with("num_warps", spec.numWarps);
        k.launch(dx, out, n);
        std::vector<float> got = out.download();
        for (int i = 0; i < n; ++i)
          if (got[size_t(i)] != 2.0f * x[size_t(i)]) {
            std::printf("FAIL: %s n=%d element %d: %g, expected %g\n",
                        spec.entry.c_str(), n, i, double(got[size_t(i)]),
                        double(2.0f * x[size_t(i)]));
            return 1;
          }
        std::printf("ok: %s n=%d\n", spec.entry.c_str(), n);
      }
    }
  } catch (const blk::Error &e) {
    std::printf("FAIL: %s\n", e.what());
    return 1;
  }
  return 0;
}
