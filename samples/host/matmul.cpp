//===- matmul.cpp - C = A x B (f32, CUDA cores) vs float64 ---------------===//
//
// Ragged sizes, B read through column-major strides, C written with a row
// pitch wider than N (the gap stays poisoned). Error is |C - ref| over
// sum_k |a_ik b_kj|, the scale of f32 accumulation error; 1e-5 also
// rules out TF32 (~1e-3).
//
//===----------------------------------------------------------------------===//
#include "matmul.hpp"
#include "Common.h"

using namespace samples;
using namespace matmul_blk;

int main() {
  return runSample("matmul", [](blk::Context &ctx) {
    module mod(ctx, BLK_SAMPLE_FATBIN);
    const int M = 301, N = 203, K = 257, ldc = N + 5;
    std::vector<float> a = randomFloats(size_t(M * K), 31);  // row-major
    std::vector<float> bT = randomFloats(size_t(N * K), 32); // B column-major
    blk::DeviceBuffer<float> da(ctx, a), db(ctx, bT), dc(ctx, size_t(M * ldc));
    std::vector<double> ref(size_t(M * N)), scale(size_t(M * N));
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        double s = 0, mag = 0;
        for (int k = 0; k < K; ++k) {
          double p =
              double(a[size_t(i * K + k)]) * double(bT[size_t(j * K + k)]);
          s += p;
          mag += std::fabs(p);
        }
        ref[size_t(i * N + j)] = s;
        scale[size_t(i * N + j)] = mag;
      }
    // Checks C after `launch` (the tuned launch first, then every config).
    auto check = [&](const std::string &label, auto launch) {
      dc.fill(kPoison);
      launch();
      std::vector<float> got = dc.download();
      double err = 0;
      bool padding = true;
      for (int i = 0; i < M; ++i) {
        for (int j = 0; j < N; ++j) {
          double e = std::fabs(double(got[size_t(i * ldc + j)]) -
                               ref[size_t(i * N + j)]) /
                     scale[size_t(i * N + j)];
          err = e == e ? std::max(err, e) : INFINITY;
        }
        for (int j = N; j < ldc; ++j)
          padding &= std::isnan(got[size_t(i * ldc + j)]);
      }
      std::printf("M=%d N=%d K=%d %s: max error/sum|ab| %.2e, padding %s\n", M, N, K,
                  label.c_str(), err, padding ? "untouched" : "WRITTEN");
      return err < 1e-5 && padding;
    };
    // No config chosen: tuned on this first launch.
    bool ok = check("tuned", [&] { mod.matmul(da, db, dc, M, N, K, K, 1, 1, K, ldc, 1); });
    for (const matmul_config &c : matmul_configs)
      ok &= check("BM=" + std::to_string(c.BM) + " BN=" + std::to_string(c.BN) +
                      " BK=" + std::to_string(c.BK),
                  [&] { matmul_kernel(mod.get(), c)(da, db, dc, M, N, K, K, 1, 1, K, ldc, 1); });
    return verdict(ok, "matmul: error < 1e-5 of sum|a*b|, tuned and for every config");
  });
}
