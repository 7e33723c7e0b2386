//===- matmul_f16.cpp - C = A x B in f16 on tensor cores vs float64 -------===//
//
// Inputs are multiples of 1/8 in [-2, 2] (exact in f16, their products and
// sums exact in f32), so the only error is C's rounding to f16: |C - ref|
// <= 2^-11 |ref| plus f16's subnormal step. Ragged sizes exercise every
// mask (rows, columns, the K tail); a multiple-of-16 size runs the unit-
// stride, unmasked-K variant; C is written with a row pitch wider than N
// (the gap stays poisoned). matmul_f16_at computes Aᵀ·B from A stored
// [K, M]: its operand reaches the tensor cores M-major.
//
//===----------------------------------------------------------------------===//
#include "matmul_f16.hpp"
#include "Common.h"

#include <cstring>

using namespace samples;
using namespace matmul_f16_blk;

namespace {


std::vector<blk::half> eighths(size_t n, uint32_t seed, std::vector<double> &exact) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(-16, 16);
  std::vector<blk::half> out(n);
  exact.resize(n);
  for (size_t i = 0; i < n; ++i) {
    int v = dist(rng);
    v = v == 0 ? 1 : v; // never all zeros
    exact[i] = v / 8.0;
    out[i] = blk::toHalf(float(exact[i]));
  }
  return out;
}

/// Poisons C (NaN everywhere, padding included) before a launch.
void poison(blk::DeviceBuffer<blk::half> &dc, size_t count) {
  std::vector<blk::half> nan(count);
  for (blk::half &h : nan)
    h.bits = 0x7E00;
  dc.upload(nan);
}

/// The largest error of C [M, N] (row pitch ldc) against `ref`, in halves
/// of an f16 ulp of the reference (NaN counts as infinite); `padding`: the
/// columns past N are still the poison.
double worstError(const std::vector<blk::half> &got, const std::vector<double> &ref, int M, int N,
                  int ldc, bool &padding) {
  double worst = 0;
  padding = true;
  for (int i = 0; i < M; ++i) {
    for (int j = 0; j < N; ++j) {
      double want = ref[size_t(i) * N + j];
      double g = blk::toFloat(got[size_t(i) * ldc + j]);
      double err = std::fabs(g - want) / (std::fabs(want) * std::ldexp(1.0, -11) + 1e-7);
      worst = err == err ? std::max(worst, err) : INFINITY;
    }
    for (int j = N; j < ldc; ++j)
      padding &= got[size_t(i) * ldc + j].bits == 0x7E00;
  }
  return worst;
}

/// Runs every config on one shape; true when every element is within the
/// f16 rounding of the float64 product and the row padding is untouched.
bool runShape(blk::Context &ctx, const module &mod, int M, int N, int K) {
  const int ldc = N + 8;
  std::vector<double> ea, eb;
  std::vector<blk::half> a = eighths(size_t(M) * K, 41 + M, ea);
  std::vector<blk::half> b = eighths(size_t(K) * N, 43 + N, eb);
  blk::DeviceBuffer<blk::half> da(ctx, a), db(ctx, b), dc(ctx, size_t(M) * ldc);
  std::vector<double> ref(size_t(M) * N, 0.0);
  for (int i = 0; i < M; ++i)
    for (int k = 0; k < K; ++k) {
      double x = ea[size_t(i) * K + k];
      for (int j = 0; j < N; ++j)
        ref[size_t(i) * N + j] += x * eb[size_t(k) * N + j];
    }
  bool ok = true;
  for (const matmul_f16_config &c : matmul_f16_configs) {
    poison(dc, size_t(M) * ldc);
    matmul_f16_kernel(mod.get(), c)(da, db, dc, M, N, K, K, 1, N, 1, ldc, 1);
    bool padding = true;
    double worst = worstError(dc.download(), ref, M, N, ldc, padding);
    std::printf("M=%d N=%d K=%d BM=%d BN=%d BK=%d warps %d: max error %.2f f16 ulps/2, padding %s\n",
                M, N, K, c.BM, c.BN, c.BK, c.num_warps, worst, padding ? "untouched" : "WRITTEN");
    ok &= worst <= 1.0 && padding;
  }
  return ok;
}

/// C = Aᵀ·B, A stored [K, M] row-major, every config of matmul_f16_at.
bool runShapeTransposedA(blk::Context &ctx, const module &mod, int M, int N, int K) {
  const int ldc = N + 8;
  std::vector<double> ea, eb;
  std::vector<blk::half> a = eighths(size_t(K) * M, 47 + M, ea); // [K, M]
  std::vector<blk::half> b = eighths(size_t(K) * N, 53 + N, eb); // [K, N]
  blk::DeviceBuffer<blk::half> da(ctx, a), db(ctx, b), dc(ctx, size_t(M) * ldc);
  std::vector<double> ref(size_t(M) * N, 0.0);
  for (int k = 0; k < K; ++k)
    for (int i = 0; i < M; ++i) {
      double x = ea[size_t(k) * M + i];
      for (int j = 0; j < N; ++j)
        ref[size_t(i) * N + j] += x * eb[size_t(k) * N + j];
    }
  bool ok = true;
  for (const matmul_f16_at_config &c : matmul_f16_at_configs) {
    poison(dc, size_t(M) * ldc);
    matmul_f16_at_kernel(mod.get(), c)(da, db, dc, M, N, K, ldc);
    bool padding = true;
    double worst = worstError(dc.download(), ref, M, N, ldc, padding);
    std::printf("A^T: M=%d N=%d K=%d BM=%d BN=%d BK=%d warps %d: max error %.2f f16 ulps/2\n", M,
                N, K, c.BM, c.BN, c.BK, c.num_warps, worst);
    ok &= worst <= 1.0;
  }
  return ok;
}

} // namespace

int main() {
  return runSample("matmul_f16", [](blk::Context &ctx) {
    module mod(ctx, BLK_SAMPLE_FATBIN);
    bool ok = runShape(ctx, mod, 301, 203, 100); // ragged: every mask
    ok &= runShape(ctx, mod, 256, 384, 512);     // multiples of 16: unmasked K
    ok &= runShape(ctx, mod, 64, 64, 16);        // one tile, one k16 step
    ok &= runShapeTransposedA(ctx, mod, 192, 208, 100);
    ok &= runShapeTransposedA(ctx, mod, 64, 64, 16);
    return verdict(ok, "matmul_f16: every element within f16 rounding of float64 for every config");
  });
}
