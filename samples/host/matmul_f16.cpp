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

/// float -> f16 bits, round to nearest even (inputs here are exact).
uint16_t toHalf(float f) {
  uint32_t x;
  std::memcpy(&x, &f, 4);
  uint32_t sign = (x >> 16) & 0x8000;
  int32_t exp = int32_t((x >> 23) & 0xFF) - 127 + 15;
  uint32_t mant = x & 0x7FFFFF;
  if (exp <= 0) { // subnormal or zero
    if (exp < -10)
      return uint16_t(sign);
    mant |= 0x800000;
    uint32_t shift = uint32_t(14 - exp);
    uint32_t h = mant >> shift, rem = mant & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1)))
      ++h;
    return uint16_t(sign | h);
  }
  if (exp >= 31)
    return uint16_t(sign | 0x7C00);
  uint32_t h = (uint32_t(exp) << 10) | (mant >> 13), rem = mant & 0x1FFF;
  if (rem > 0x1000 || (rem == 0x1000 && (h & 1)))
    ++h;
  return uint16_t(sign | h);
}

double fromHalf(uint16_t h) {
  int exp = (h >> 10) & 0x1F, mant = h & 0x3FF;
  double v = exp == 0 ? std::ldexp(mant, -24)
             : exp == 31 ? (mant ? NAN : INFINITY)
                         : std::ldexp(1024 + mant, exp - 25);
  return (h & 0x8000) ? -v : v;
}

std::vector<blk::half> eighths(size_t n, uint32_t seed, std::vector<double> &exact) {
  std::mt19937 rng(seed);
  std::uniform_int_distribution<int> dist(-16, 16);
  std::vector<blk::half> out(n);
  exact.resize(n);
  for (size_t i = 0; i < n; ++i) {
    int v = dist(rng);
    v = v == 0 ? 1 : v; // never all zeros
    exact[i] = v / 8.0;
    out[i].bits = toHalf(float(exact[i]));
  }
  return out;
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
    std::vector<blk::half> poison(size_t(M) * ldc);
    for (blk::half &h : poison)
      h.bits = 0x7E00; // NaN
    dc.upload(poison);
    matmul_f16_kernel(mod.get(), c)(da, db, dc, M, N, K, K, 1, N, 1, ldc, 1);
    std::vector<blk::half> got = dc.download();
    double worst = 0;
    bool padding = true;
    for (int i = 0; i < M; ++i) {
      for (int j = 0; j < N; ++j) {
        double want = ref[size_t(i) * N + j];
        double g = fromHalf(got[size_t(i) * ldc + j].bits);
        double err = std::fabs(g - want) / (std::fabs(want) * std::ldexp(1.0, -11) + 1e-7);
        worst = err == err ? std::max(worst, err) : INFINITY;
      }
      for (int j = N; j < ldc; ++j)
        padding &= got[size_t(i) * ldc + j].bits == 0x7E00;
    }
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
    std::vector<blk::half> poison(size_t(M) * ldc);
    for (blk::half &h : poison)
      h.bits = 0x7E00;
    dc.upload(poison);
    matmul_f16_at_kernel(mod.get(), c)(da, db, dc, M, N, K, ldc);
    std::vector<blk::half> got = dc.download();
    double worst = 0;
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        double want = ref[size_t(i) * N + j];
        double g = fromHalf(got[size_t(i) * ldc + j].bits);
        double err = std::fabs(g - want) / (std::fabs(want) * std::ldexp(1.0, -11) + 1e-7);
        worst = err == err ? std::max(worst, err) : INFINITY;
      }
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
