//===- Fp8Casts.cpp - fp8 conversions on the GPU against the host's -------===//
//
// `blkrt-fp8-casts FP8_CASTS.fatbin` runs tests/gpu/kernels/fp8_casts.blk
// (built for sm_90 by scripts/make-rtdeps.sh) and compares every result
// bit for bit with blk/Support/Fp8.h, the rounding the interpreter, the
// constant folder and the host conversions use: every f16 and bf16 bit
// pattern; f32 and f64 values at, just above and just below each midpoint
// between fp8 neighbours (the ties, and the f64 values that a rounding
// through f32 to nearest would turn into ties), beyond the largest finite
// value, infinities, NaN and random bit patterns; integers; and every fp8
// code back to f32, f16, f64 and to the other format. A NaN result only
// has to be a NaN. Exit 77 without a GPU, 1 on a mismatch.
//
//===----------------------------------------------------------------------===//
#include "blk/Support/Fp8.h"
#include "blk/runtime.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace {

using blk::Fp8Format;

bool isNanCode(Fp8Format f, uint8_t b) {
  return std::isnan(blk::fp8ToDouble(f, b));
}

int failures = 0;

/// GPU codes against the host's for `inputs` (as doubles, exact).
template <class Code>
void compareCodes(const char *what, Fp8Format f, const std::vector<double> &inputs,
                  const std::vector<Code> &got) {
  int bad = 0;
  for (size_t i = 0; i < inputs.size(); ++i) {
    uint8_t want = blk::fp8FromDouble(f, inputs[i]), have = got[i].bits;
    bool ok = std::isnan(inputs[i]) ? isNanCode(f, have) : want == have;
    if (!ok && bad++ < 5)
      std::printf("FAIL: %s %s: %.17g gave 0x%02x, expected 0x%02x\n", what,
                  f == Fp8Format::E4M3 ? "e4m3" : "e5m2", inputs[i], have, want);
  }
  std::printf("%s %s: %zu values, %d mismatches\n", what, f == Fp8Format::E4M3 ? "e4m3" : "e5m2",
              inputs.size(), bad);
  failures += bad;
}

/// Runs `kernel(x, e4, e5, n)` and compares both outputs.
template <class T>
void checkFrom(blk::Context &ctx, blk::Module &mod, const char *kernel,
               const std::vector<T> &x, const std::vector<double> &values) {
  blk::DeviceBuffer<T> dx(ctx, x);
  blk::DeviceBuffer<blk::float8_e4m3> e4(ctx, x.size());
  blk::DeviceBuffer<blk::float8_e5m2> e5(ctx, x.size());
  e4.fill(blk::float8_e4m3{0x55});
  e5.fill(blk::float8_e5m2{0x55});
  mod.kernel(kernel).launch(dx, e4, e5, int32_t(x.size()));
  compareCodes(kernel, Fp8Format::E4M3, values, e4.download());
  compareCodes(kernel, Fp8Format::E5M2, values, e5.download());
}

/// Midpoints between neighbouring fp8 values of `f` (and the largest
/// finite value + half a step), each exactly, a little above and below.
std::vector<double> nearTies(Fp8Format f, double nudge) {
  std::vector<double> finite;
  for (unsigned b = 0; b < 256; ++b) {
    double v = blk::fp8ToDouble(f, uint8_t(b));
    if (std::isfinite(v))
      finite.push_back(v);
  }
  std::sort(finite.begin(), finite.end());
  std::vector<double> out;
  for (size_t i = 0; i + 1 < finite.size(); ++i) {
    double mid = (finite[i] + finite[i + 1]) / 2;
    for (double m : {mid, mid + std::fabs(mid) * nudge, mid - std::fabs(mid) * nudge})
      out.push_back(m);
  }
  return out;
}

float toF32(double d) { return float(d); }

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: blkrt-fp8-casts FP8_CASTS.fatbin\n");
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
    std::mt19937_64 rng(8);

    // Every f16 and bf16 bit pattern.
    std::vector<blk::half> h(65536);
    std::vector<blk::bfloat16> bf(65536);
    std::vector<double> hv(65536), bv(65536);
    for (unsigned i = 0; i < 65536; ++i) {
      h[i].bits = uint16_t(i);
      bf[i].bits = uint16_t(i);
      hv[i] = blk::toFloat(h[i]);
      bv[i] = blk::toFloat(bf[i]);
    }
    checkFrom(*ctx, mod, "from_f16", h, hv);
    checkFrom(*ctx, mod, "from_bf16", bf, bv);

    // f32: the f16 values, the near-ties of both formats, specials, random bits.
    std::vector<double> fv = hv;
    for (Fp8Format f : {Fp8Format::E4M3, Fp8Format::E5M2})
      for (double v : nearTies(f, 1e-6))
        fv.push_back(v), fv.push_back(-v);
    for (double v : {double(INFINITY), -double(INFINITY), double(NAN), 448.0, 464.0, 480.0, 57344.0, 61440.0,
                     65536.0, 1e30, -1e30, 0.0, -0.0, 1e-30, -1e-30})
      fv.push_back(v);
    for (int i = 0; i < 65536; ++i) {
      uint32_t bits = uint32_t(rng());
      float f;
      std::memcpy(&f, &bits, 4);
      fv.push_back(f);
    }
    std::vector<float> fx;
    for (double &v : fv) {
      fx.push_back(toF32(v));
      v = fx.back(); // what the kernel reads
    }
    checkFrom(*ctx, mod, "from_f32", fx, fv);

    // f64: near-ties nudged by ~2^-40, which f32 cannot hold (rounding to
    // f32 by nearest would land on the tie), plus random values.
    std::vector<double> dv;
    for (Fp8Format f : {Fp8Format::E4M3, Fp8Format::E5M2})
      for (double v : nearTies(f, 1e-12))
        dv.push_back(v), dv.push_back(-v);
    std::uniform_real_distribution<double> wide(-70000.0, 70000.0), narrow(-2.0, 2.0);
    for (int i = 0; i < 20000; ++i)
      dv.push_back(i % 2 ? wide(rng) : narrow(rng));
    dv.push_back(INFINITY);
    dv.push_back(double(NAN));
    checkFrom(*ctx, mod, "from_f64", dv, dv);

    // Integers (through f32 on the GPU: exact wherever fp8 does not saturate).
    std::vector<int32_t> iv;
    std::vector<double> ivd;
    for (int v = -70000; v <= 70000; v += 7)
      iv.push_back(v);
    for (int32_t v : {INT32_MIN, INT32_MAX, 0, 1, -1, 448, 449, 464, 465})
      iv.push_back(v);
    for (int32_t v : iv)
      ivd.push_back(double(v));
    checkFrom(*ctx, mod, "from_i32", iv, ivd);

    // Every code back, and across formats.
    std::vector<blk::float8_e4m3> c4(256);
    std::vector<blk::float8_e5m2> c5(256);
    for (unsigned i = 0; i < 256; ++i)
      c4[i].bits = c5[i].bits = uint8_t(i);
    blk::DeviceBuffer<blk::float8_e4m3> d4(*ctx, c4), x54(*ctx, 256);
    blk::DeviceBuffer<blk::float8_e5m2> d5(*ctx, c5), x45(*ctx, 256);
    blk::DeviceBuffer<float> f4(*ctx, 256), f5(*ctx, 256);
    blk::DeviceBuffer<blk::half> h4(*ctx, 256);
    blk::DeviceBuffer<double> dd5(*ctx, 256);
    mod.kernel("decode").launch(d4, d5, f4, f5, h4, dd5, x45, x54);
    std::vector<float> g4 = f4.download(), g5 = f5.download();
    std::vector<blk::half> gh = h4.download();
    std::vector<double> gd = dd5.download();
    int bad = 0;
    for (unsigned i = 0; i < 256; ++i) {
      double w4 = blk::fp8ToDouble(Fp8Format::E4M3, uint8_t(i));
      double w5 = blk::fp8ToDouble(Fp8Format::E5M2, uint8_t(i));
      auto same = [](double got, double want) {
        return std::isnan(want) ? std::isnan(got) : got == want;
      };
      if (!same(g4[i], w4) || !same(blk::toFloat(gh[i]), w4) || !same(g5[i], w5) ||
          !same(gd[i], w5)) {
        if (bad++ < 5)
          std::printf("FAIL: decode code 0x%02x: e4m3 %g (f16 %g), e5m2 %g (f64 %g); expected %g, %g\n",
                      i, double(g4[i]), double(blk::toFloat(gh[i])), double(g5[i]), gd[i], w4, w5);
      }
    }
    std::printf("decode: 256 codes of each format, %d mismatches\n", bad);
    failures += bad;
    std::vector<double> v4, v5;
    for (unsigned i = 0; i < 256; ++i) {
      v4.push_back(blk::fp8ToDouble(Fp8Format::E4M3, uint8_t(i)));
      v5.push_back(blk::fp8ToDouble(Fp8Format::E5M2, uint8_t(i)));
    }
    compareCodes("e4m3 -> e5m2", Fp8Format::E5M2, v4, x45.download());
    compareCodes("e5m2 -> e4m3", Fp8Format::E4M3, v5, x54.download());

    // dot on CUDA cores: the host's fmaf in the same k order, exactly.
    std::vector<blk::float8_e4m3> ha(32 * 32);
    std::vector<blk::float8_e5m2> hb(32 * 32);
    std::uniform_real_distribution<float> small(-3.0f, 3.0f);
    for (size_t i = 0; i < ha.size(); ++i) {
      ha[i] = blk::toFloat8E4M3(small(rng));
      hb[i] = blk::toFloat8E5M2(small(rng));
    }
    blk::DeviceBuffer<blk::float8_e4m3> da(*ctx, ha);
    blk::DeviceBuffer<blk::float8_e5m2> db(*ctx, hb);
    blk::DeviceBuffer<float> dc(*ctx, 32 * 32);
    dc.fill(std::numeric_limits<float>::quiet_NaN());
    mod.kernel("dot_fp8").launch(da, db, dc);
    std::vector<float> gc = dc.download();
    int dotBad = 0;
    for (int i = 0; i < 32; ++i)
      for (int j = 0; j < 32; ++j) {
        float want = 0.0f;
        for (int k = 0; k < 32; ++k)
          want = std::fmaf(blk::toFloat(ha[size_t(i * 32 + k)]), blk::toFloat(hb[size_t(k * 32 + j)]),
                           want);
        if (gc[size_t(i * 32 + j)] != want && dotBad++ < 5)
          std::printf("FAIL: dot_fp8 c[%d][%d] = %.9g, expected %.9g\n", i, j,
                      double(gc[size_t(i * 32 + j)]), double(want));
      }
    std::printf("dot_fp8 (FMA path): 1024 outputs, %d mismatches\n", dotBad);
    failures += dotBad;
  } catch (const blk::Error &e) {
    std::printf("FAIL: %s\n", e.what());
    return 1;
  }
  std::printf(failures ? "FAIL: %d mismatches\n" : "ok: all fp8 conversions match\n", failures);
  return failures ? 1 : 0;
}
