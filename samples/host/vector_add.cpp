//===- vector_add.cpp - out = x + y, every config ------------------------===//
#include "vector_add.hpp"
#include "Common.h"

using namespace samples;
using namespace vector_add_blk;

int main() {
  return runSample("vector_add", [](blk::Context &ctx) {
    module mod(ctx, BLK_SAMPLE_FATBIN);
    bool ok = true;
    for (int n : {1, 98432, (1 << 22) + 5}) {
      std::vector<float> x = randomFloats(size_t(n), 1),
                         y = randomFloats(size_t(n), 2);
      blk::DeviceBuffer<float> dx(ctx, x), dy(ctx, y), out(ctx, size_t(n));
      std::vector<double> ref(x.size());
      for (size_t i = 0; i < ref.size(); ++i)
        ref[i] = double(x[i]) + double(y[i]);
      for (const vector_add_config &c : vector_add_configs) {
        out.fill(kPoison);
        vector_add_kernel(mod.get(), c)(dx, dy, out, n);
        std::vector<float> got = out.download();
        // One f32 rounding of the exact sum: the result equals x + y in f32.
        bool exact = true;
        for (size_t i = 0; i < got.size(); ++i)
          exact &= got[i] == x[i] + y[i];
        double err = maxRelError(got, ref);
        std::printf("n=%d BLOCK=%d: max rel error vs float64 %.2e, %s\n", n,
                    c.BLOCK, err, exact ? "bit-exact" : "NOT bit-exact");
        ok &= exact && err < 1e-6;
      }
    }
    return verdict(ok,
                   "vector_add: bit-exact f32 sums for every size and config");
  });
}
