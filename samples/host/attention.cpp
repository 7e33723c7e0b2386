//===- attention.cpp - fused attention forward vs a float64 reference -----===//
//
// O = softmax(Q·Kᵀ·scale)·V and the per-row log-sum-exp (base 2, as the
// kernel stores it) for contiguous [Z, H, N, D] tensors, f16 and bf16,
// causal and not, head dims 64 and 128, on a ragged sequence length (every
// mask of the kernel's second phase). The launches are unpinned: each one
// takes the first config whose @requires (causal, head_dim) hold. O's error
// is absolute (a convex combination of V's rows, |v| < 1): P is rounded to
// the input type before P·V and O is stored in it; O is poisoned first.
//
//===----------------------------------------------------------------------===//
#include "attention.hpp"
#include "Common.h"

using namespace samples;
using namespace attention_blk;

namespace {

struct Reference {
  std::vector<double> o, lse;
};

Reference reference(const std::vector<float> &q, const std::vector<float> &k,
                    const std::vector<float> &v, int heads, int n, int d, bool causal,
                    double scale) {
  Reference r{std::vector<double>(q.size()), std::vector<double>(size_t(heads) * n)};
  std::vector<double> s(static_cast<size_t>(n));
  for (int h = 0; h < heads; ++h) {
    size_t base = size_t(h) * n * d;
    for (int i = 0; i < n; ++i) {
      int cols = causal ? i + 1 : n;
      double m = -INFINITY;
      for (int j = 0; j < cols; ++j) {
        double acc = 0;
        for (int x = 0; x < d; ++x)
          acc += double(q[base + size_t(i) * d + x]) * double(k[base + size_t(j) * d + x]);
        s[size_t(j)] = acc * scale;
        m = std::max(m, s[size_t(j)]);
      }
      double l = 0;
      for (int j = 0; j < cols; ++j) {
        double p = std::exp(s[size_t(j)] - m);
        l += p;
        for (int x = 0; x < d; ++x)
          r.o[base + size_t(i) * d + x] += p * double(v[base + size_t(j) * d + x]);
      }
      for (int x = 0; x < d; ++x)
        r.o[base + size_t(i) * d + x] /= l;
      r.lse[size_t(h) * n + i] = (m + std::log(l)) / std::log(2.0);
    }
  }
  return r;
}

template <class T> T convert(float f);
template <> blk::half convert<blk::half>(float f) { return blk::toHalf(f); }
template <> blk::bfloat16 convert<blk::bfloat16>(float f) { return blk::toBfloat16(f); }

/// One shape: inputs rounded to T, the kernel `Launch` (f16 or bf16) run
/// unpinned, every element of O and lse checked.
template <class T, class Launch>
bool runShape(blk::Context &ctx, const module &mod, const char *type, int n, int d, bool causal,
              double tolO) {
  const int z = 1, h = 2, heads = z * h;
  const size_t count = size_t(heads) * n * d;
  std::vector<float> fq = randomFloats(count, 7 + d, -3.f, 3.f);
  std::vector<float> fk = randomFloats(count, 11 + d), fv = randomFloats(count, 13 + d);
  std::vector<T> hq(count), hk(count), hv(count);
  for (size_t i = 0; i < count; ++i) {
    hq[i] = convert<T>(fq[i]);
    hk[i] = convert<T>(fk[i]);
    hv[i] = convert<T>(fv[i]);
    fq[i] = blk::toFloat(hq[i]);
    fk[i] = blk::toFloat(hk[i]);
    fv[i] = blk::toFloat(hv[i]);
  }
  const float scale = 1.0f / std::sqrt(float(d));
  Reference ref = reference(fq, fk, fv, heads, n, d, causal, scale);
  blk::DeviceBuffer<T> q(ctx, hq), k(ctx, hk), v(ctx, hv), o(ctx, count);
  blk::DeviceBuffer<float> lse(ctx, size_t(heads) * n);
  o.fill(convert<T>(NAN));
  lse.fill(NAN);
  Launch(mod.get())(q, k, v, o, lse, scale, z, h, n, d, causal);
  std::vector<T> got = o.download();
  std::vector<float> gotLse = lse.download();
  double errO = 0, errLse = 0;
  for (size_t i = 0; i < count; ++i) {
    double e = std::fabs(double(blk::toFloat(got[i])) - ref.o[i]);
    errO = e == e ? std::max(errO, e) : INFINITY;
  }
  for (size_t i = 0; i < gotLse.size(); ++i) {
    double e = std::fabs(double(gotLse[i]) - ref.lse[i]);
    errLse = e == e ? std::max(errLse, e) : INFINITY;
  }
  bool ok = errO <= tolO && errLse <= 1e-3;
  std::printf("%s N=%d D=%d %s: max |O err| %.3g (tol %.1g), max |lse err| %.3g %s\n", type, n,
              d, causal ? "causal" : "full", errO, tolO, errLse, ok ? "ok" : "FAIL");
  return ok;
}

} // namespace

int main() {
  return runSample("attention", [](blk::Context &ctx) {
    module mod(ctx, BLK_SAMPLE_FATBIN);
    bool ok = true;
    for (int d : {64, 128})
      for (bool causal : {false, true}) {
        ok &= runShape<blk::half, attention_fwd_kernel>(ctx, mod, "f16", 300, d, causal, 2e-3);
        ok &= runShape<blk::bfloat16, attention_fwd_bf16_kernel>(ctx, mod, "bf16", 300, d,
                                                                  causal, 1.6e-2);
      }
    return verdict(ok, "attention: O and lse within the inputs' rounding of float64");
  });
}
