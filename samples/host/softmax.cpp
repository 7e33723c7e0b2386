//===- softmax.cpp - row softmax against a float64 reference -------------===//
//
// Rows padded in memory (input and output strides differ from n_cols, the
// padding stays poisoned). No config is chosen here: the launch is tuned
// over the configs whose @requires (n_cols <= BLOCK) hold.
//
//===----------------------------------------------------------------------===//
#include "softmax.hpp"
#include "Common.h"

using namespace samples;
using namespace softmax_blk;

int main() {
  return runSample("softmax", [](blk::Context &ctx) {
    module mod(ctx, BLK_SAMPLE_FATBIN);
    bool ok = true;
    for (int cols : {1000, 3001}) {
      const int rows = 257, inStride = cols + 7, outStride = cols + 3;
      std::vector<float> x = randomFloats(size_t(rows * inStride), 4, -8, 8);
      blk::DeviceBuffer<float> dx(ctx, x), out(ctx, size_t(rows * outStride));
      out.fill(kPoison);
      mod.softmax(out, dx, inStride, outStride, rows, cols);
      std::vector<float> got = out.download();
      std::vector<float> gotRows;
      std::vector<double> ref;
      bool padding = true;
      for (int r = 0; r < rows; ++r) {
        const float *row = &x[size_t(r * inStride)];
        double mx = -INFINITY, den = 0;
        for (int c = 0; c < cols; ++c)
          mx = std::max(mx, double(row[c]));
        for (int c = 0; c < cols; ++c)
          den += std::exp(double(row[c]) - mx);
        for (int c = 0; c < cols; ++c) {
          ref.push_back(std::exp(double(row[c]) - mx) / den);
          gotRows.push_back(got[size_t(r * outStride + c)]);
        }
        for (int c = cols; c < outStride; ++c)
          padding &= std::isnan(got[size_t(r * outStride + c)]);
      }
      double err = maxRelError(gotRows, ref, 1e-30);
      std::printf("rows=%d cols=%d (tuned): max rel error vs float64 %.2e, "
                  "padding %s\n",
                  rows, cols, err,
                  padding ? "untouched" : "WRITTEN");
      ok &= err < 1e-5 && padding;
    }
    return verdict(ok, "softmax: rel error < 1e-5, padding untouched");
  });
}
