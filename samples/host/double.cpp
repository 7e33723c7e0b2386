//===- double.cpp - seed 5.1: double_kernel with BLOCK = 8, n = 7 ---------===//
//
// Runs samples/double.blk on the seed's arange(7) (exact output) and on
// random input, each time into a poisoned buffer of exactly n elements.
//
//===----------------------------------------------------------------------===//
#include "double.hpp"
#include "Common.h"

using namespace samples;

int main() {
  return runSample("double", [](blk::Context &ctx) {
    double_blk::module mod(ctx, BLK_SAMPLE_FATBIN);
    const int n = 7;
    std::printf("=== Section 5.1: BLOCK must be a power of 2 ===\n");
    bool ok = true;
    for (bool seed : {true, false}) {
      std::vector<float> x = seed ? arange(n) : randomFloats(n, 5, -100, 100);
      blk::DeviceBuffer<float> dx(ctx, x), out(ctx, n);
      out.fill(kPoison);
      mod.double_kernel(dx, out, n);
      std::vector<float> got = out.download();
      for (int i = 0; i < n; ++i)
        ok &= got[size_t(i)] == 2.0f * x[size_t(i)];
      if (seed)
        std::printf("BLOCK=8 (next power of 2, masked down to n=7): %s\n",
                    pyList(got).c_str());
    }
    return verdict(ok, "double: out == 2*x exactly (arange and random, n=7)");
  });
}
