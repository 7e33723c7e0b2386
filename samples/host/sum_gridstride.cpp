//===- sum_gridstride.cpp - seed 5.3: accumulate wide, reduce narrow -----===//
//
// samples/sum_gridstride.blk: the seed's arange(1000) must sum to 499500
// exactly (every partial sum is an integer below 2^24), then random input
// against a float64 reference.
//
//===----------------------------------------------------------------------===//
#include "sum_gridstride.hpp"
#include "Common.h"

using namespace samples;

int main() {
  return runSample("sum_gridstride", [](blk::Context &ctx) {
    sum_gridstride_blk::module mod(ctx, BLK_SAMPLE_FATBIN);
    const int n = 1000, block = 128, chunks = (n + block - 1) / block;
    auto sum = [&](const std::vector<float> &x) {
      blk::DeviceBuffer<float> dx(ctx, x), out(ctx, 1);
      out.fill(kPoison);
      mod.sum_gridstride(dx, out, int(x.size()));
      return out.download()[0];
    };
    std::printf("=== Section 5.3: accumulate wide, reduce narrow ===\n");
    std::printf("N=%d, BLOCK=%d, NUM_CHUNKS=%d\n", n, block, chunks);
    std::vector<float> x = arange(n);
    float got = sum(x);
    double ref = 0;
    for (float v : x)
      ref += v;
    std::printf("triton sum: %s torch sum: %s\n", py(got).c_str(),
                py(float(ref)).c_str());
    bool ok = double(got) == ref;

    std::vector<float> r = randomFloats(n, 3, -1, 1);
    double rref = 0, rabs = 0;
    for (float v : r) {
      rref += v;
      rabs += std::fabs(v);
    }
    float rgot = sum(r);
    // Relative to sum|x|: the sum itself may cancel to almost nothing.
    double err = std::fabs(double(rgot) - rref) / rabs;
    std::printf("random: sum %.7g, float64 reference %.7g, error/sum|x| %.2e\n",
                double(rgot), rref, err);
    ok &= err < 1e-6;
    return verdict(ok, "sum_gridstride: 499500 exactly, random within 1e-6");
  });
}
