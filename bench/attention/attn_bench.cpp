//===- attn_bench.cpp - time blk's fused attention through libblkrt -------===//
//
// `attn-bench FATBIN CASES MODE OUT.json` runs every specialisation of
// samples/attention.blk's forward kernels (built by blkc into FATBIN) whose
// @requires hold on the shapes of CASES (cases.txt) whose set is MODE. Per
// shape: random Q, K, V (fixed seeds), O and lse poisoned with NaN, one
// launch, every element checked to be written, sampled rows (the first and
// last of the sequence included) checked against a float64
// softmax(Q·Kᵀ·scale)·V, then timed as bench/common/DoBench.h says.
// TFLOP/s counts 4·Z·H·N²·D (half of it causal), as Triton's tutorial.
// Writes one JSON record per specialisation and shape for attn_ref.py.
//
//===----------------------------------------------------------------------===//
#include "blk/runtime.h"
#include "../common/DoBench.h"

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace blkbench;
constexpr int kSampleRows = 96;

struct Shape {
  std::string dtype; ///< f16 or bf16
  int Z = 0, H = 0, N = 0, D = 0;
  bool causal = false;
  bool backward = false; ///< time forward + backward (cases.txt's `fwdbwd`)
  std::string label() const {
    return dtype + " Z" + std::to_string(Z) + " H" + std::to_string(H) + " N" +
           std::to_string(N) + " D" + std::to_string(D) + (causal ? " causal" : "") +
           (backward ? " fwd+bwd" : "");
  }
  /// The tutorial's count: 4·Z·H·N²·D forward (half of it causal), the
  /// backward 2.5 times that.
  double flops() const {
    return 4.0 * Z * H * double(N) * N * D * (causal ? 0.5 : 1.0) * (backward ? 3.5 : 1.0);
  }
};

struct Record {
  std::string shape, kernel, config, error;
  double ms = 0, tflops = 0, errO = 0, errLse = 0;
  int runs = 0;
  bool ok = false;
};

template <class T> T fromFloat(float f);
template <> blk::half fromFloat<blk::half>(float f) { return blk::toHalf(f); }
template <> blk::bfloat16 fromFloat<blk::bfloat16>(float f) { return blk::toBfloat16(f); }

/// One checked row: O's row and lse in float64.
struct RowRef {
  int zh = 0, i = 0;
  std::vector<double> o;
  double lse = 0;
};

std::vector<RowRef> reference(const Shape &s, const std::vector<float> &q,
                              const std::vector<float> &k, const std::vector<float> &v,
                              double scale) {
  const int N = s.N, D = s.D;
  uint64_t rng = 0xA77E0000ull + uint64_t(N) * 131 + uint64_t(D);
  std::vector<std::pair<int, int>> rows = {{0, 0}, {0, N - 1}, {s.Z * s.H - 1, N - 1}};
  while (int(rows.size()) < kSampleRows)
    rows.push_back({int(splitmix(rng) % uint64_t(s.Z * s.H)), int(splitmix(rng) % uint64_t(N))});
  std::vector<RowRef> out;
  std::vector<double> sc(static_cast<size_t>(N));
  for (auto [zh, i] : rows) {
    size_t base = size_t(zh) * size_t(N) * size_t(D);
    int cols = s.causal ? i + 1 : N;
    double m = -INFINITY;
    for (int j = 0; j < cols; ++j) {
      double acc = 0;
      for (int d = 0; d < D; ++d)
        acc += double(q[base + size_t(i) * D + d]) * double(k[base + size_t(j) * D + d]);
      sc[size_t(j)] = acc * scale;
      m = std::max(m, sc[size_t(j)]);
    }
    RowRef r{zh, i, std::vector<double>(size_t(D)), 0};
    double l = 0;
    for (int j = 0; j < cols; ++j) {
      double p = std::exp(sc[size_t(j)] - m);
      l += p;
      for (int d = 0; d < D; ++d)
        r.o[size_t(d)] += p * double(v[base + size_t(j) * D + d]);
    }
    for (double &x : r.o)
      x /= l;
    r.lse = (m + std::log(l)) / std::log(2.0);
    out.push_back(std::move(r));
  }
  return out;
}

int64_t configValue(const blk::Specialization &spec, const std::string &name) {
  for (const blk::ConfigValue &v : spec.config)
    if (v.name == name)
      return v.intValue;
  return -1;
}

// Tolerances: O is a convex combination of V's rows (|v| < 1), so its error
// is absolute; P is rounded to the input type before P·V (f16 2^-11, bf16
// 2^-8 relative) and O is stored in it. lse is f32 throughout.
double tolO(const std::string &dtype) { return dtype == "bf16" ? 1.6e-2 : 2e-3; }
constexpr double kTolLse = 1e-3;

template <class T>
void runShape(const blk::Context &ctx, const blk::Module &mod, const std::string &kname,
              const Shape &s, blk::DeviceBuffer<int32_t> &flush, std::vector<Record> &out) {
  const size_t n = size_t(s.Z) * s.H * s.N * s.D, rows = size_t(s.Z) * s.H * s.N;
  std::vector<float> fq(n), fk(n), fv(n);
  randomFill(fq, 21, -3.f, 3.f);
  randomFill(fk, 22, -1.f, 1.f);
  randomFill(fv, 23, -1.f, 1.f);
  std::vector<T> hq(n), hk(n), hv(n);
  for (size_t i = 0; i < n; ++i) {
    hq[i] = fromFloat<T>(fq[i]);
    hk[i] = fromFloat<T>(fk[i]);
    hv[i] = fromFloat<T>(fv[i]);
    fq[i] = blk::toFloat(hq[i]);
    fk[i] = blk::toFloat(hk[i]);
    fv[i] = blk::toFloat(hv[i]);
  }
  const float scale = 1.0f / std::sqrt(float(s.D));
  std::vector<RowRef> refs = reference(s, fq, fk, fv, scale);
  blk::DeviceBuffer<T> q(ctx, hq), k(ctx, hk), v(ctx, hv), o(ctx, n);
  blk::DeviceBuffer<float> lse(ctx, rows);
  auto launch = [&](const blk::Kernel &kern) {
    kern.launch(q, k, v, o, lse, scale, s.Z, s.H, s.N, s.D, s.causal);
  };
  const blk::KernelDesc *desc = mod.manifest().findKernel(kname);
  if (!desc)
    throw blk::Error("kernel `" + kname + "` is not in the fatbin");
  for (const blk::Specialization &spec : desc->specializations) {
    if (configValue(spec, "HEAD_DIM") != s.D || configValue(spec, "CAUSAL") != int64_t(s.causal))
      continue;
    Record r;
    r.shape = s.label();
    r.kernel = kname;
    r.config = blk::configKey(spec);
    try {
      blk::Kernel kern = mod.kernel(kname);
      for (const blk::ConfigValue &cv : spec.config)
        kern = kern.with(cv.name, cv.intValue);
      kern = kern.with("num_warps", spec.numWarps);
      o.fill(fromFloat<T>(NAN));
      lse.fill(NAN);
      launch(kern);
      ctx.synchronize();
      std::vector<T> go = o.download();
      std::vector<float> gl = lse.download();
      size_t unwritten = 0;
      for (const T &x : go)
        unwritten += !std::isfinite(blk::toFloat(x));
      for (float x : gl)
        unwritten += !std::isfinite(x);
      for (const RowRef &ref : refs) {
        size_t row = size_t(ref.zh) * s.N + size_t(ref.i);
        for (int d = 0; d < s.D; ++d)
          r.errO = std::max(r.errO, std::fabs(double(blk::toFloat(go[row * s.D + d])) - ref.o[size_t(d)]));
        r.errLse = std::max(r.errLse, std::fabs(double(gl[row]) - ref.lse));
      }
      r.ok = unwritten == 0 && r.errO <= tolO(s.dtype) && r.errLse <= kTolLse;
      if (unwritten)
        r.error = std::to_string(unwritten) + " elements of O and lse not finite (unwritten or NaN)";
      else if (!r.ok)
        r.error = "error above tolerance";
      if (r.ok) {
        r.ms = timeMs(ctx, flush, [&] { launch(kern); }, r.runs);
        r.tflops = s.flops() / (r.ms * 1e-3) * 1e-12;
      }
    } catch (const blk::Error &e) {
      r.error = e.what();
    }
    std::printf("%-34s %-14s %-62s %s %9.4f ms %7.1f TFLOP/s errO %.2g errLse %.2g runs %d %s\n",
                r.shape.c_str(), kname.c_str(), r.config.c_str(), r.ok ? "ok  " : "FAIL", r.ms,
                r.tflops, r.errO, r.errLse, r.runs, r.error.c_str());
    std::fflush(stdout);
    out.push_back(r);
  }
}

/// Forward and backward (Δ, dK/dV, dQ), every launch unpinned (each
/// kernel's first config whose @requires hold), timed together. dQ, dK and
/// dV are checked on sampled rows of head 0 against float64 sums that use
/// the forward's own lse and O (the forward rows check those against
/// float64): P[i][j] = 2^(S[i][j]·log2 e − lse[i]), Δ[i] = dO[i]·O[i].
void runBackward(const blk::Context &ctx, const blk::Module &mod, const Shape &s,
                 blk::DeviceBuffer<int32_t> &flush, std::vector<Record> &out) {
  using blk::half;
  const int N = s.N, D = s.D;
  const size_t n = size_t(s.Z) * s.H * N * D, rows = size_t(s.Z) * s.H * N;
  std::vector<float> fq(n), fk(n), fv(n), fdo(n);
  randomFill(fq, 31, -3.f, 3.f);
  randomFill(fk, 32, -1.f, 1.f);
  randomFill(fv, 33, -1.f, 1.f);
  randomFill(fdo, 34, -1.f, 1.f);
  std::vector<half> hq(n), hk(n), hv(n), hdo(n);
  for (size_t i = 0; i < n; ++i) {
    hq[i] = blk::toHalf(fq[i]);
    hk[i] = blk::toHalf(fk[i]);
    hv[i] = blk::toHalf(fv[i]);
    hdo[i] = blk::toHalf(fdo[i]);
  }
  const float scale = 1.0f / std::sqrt(float(D));
  blk::DeviceBuffer<half> q(ctx, hq), k(ctx, hk), v(ctx, hv), dout(ctx, hdo), o(ctx, n);
  blk::DeviceBuffer<half> dq(ctx, n), dk(ctx, n), dv(ctx, n);
  blk::DeviceBuffer<float> lse(ctx, rows), delta(ctx, rows);
  blk::Kernel fwd = mod.kernel("attention_fwd"), pre = mod.kernel("attention_bwd_delta");
  blk::Kernel dkdv = mod.kernel("attention_bwd_dkdv"), dqk = mod.kernel("attention_bwd_dq");
  auto launch = [&] {
    fwd.launch(q, k, v, o, lse, scale, s.Z, s.H, N, D, s.causal);
    pre.launch(o, dout, delta, s.Z, s.H, N, D);
    dkdv.launch(q, k, v, dout, lse, delta, dk, dv, scale, s.Z, s.H, N, D, s.causal);
    dqk.launch(q, k, v, dout, lse, delta, dq, scale, s.Z, s.H, N, D, s.causal);
  };
  Record r;
  r.shape = s.label();
  r.kernel = "attention_fwd+bwd";
  r.config = "unpinned (first config whose @requires hold)";
  try {
    for (auto *b : {&dq, &dk, &dv})
      b->fill(blk::toHalf(NAN));
    launch();
    ctx.synchronize();
    std::vector<half> go = o.download(), gq = dq.download(), gk = dk.download(), gv = dv.download();
    std::vector<float> gl = lse.download();
    auto at = [&](const std::vector<half> &x, int i, int d) {
      return double(blk::toFloat(x[size_t(i) * D + d]));
    };
    auto qv = [&](int i, int d) { return double(blk::toFloat(hq[size_t(i) * D + d])); };
    auto kv = [&](int i, int d) { return double(blk::toFloat(hk[size_t(i) * D + d])); };
    auto vv = [&](int i, int d) { return double(blk::toFloat(hv[size_t(i) * D + d])); };
    auto dov = [&](int i, int d) { return double(blk::toFloat(hdo[size_t(i) * D + d])); };
    std::vector<double> di(static_cast<size_t>(N));
    for (int i = 0; i < N; ++i)
      for (int d = 0; d < D; ++d)
        di[size_t(i)] += dov(i, d) * at(go, i, d);
    auto p = [&](int i, int j) { // head 0
      if (s.causal && j > i)
        return 0.0;
      double acc = 0;
      for (int d = 0; d < D; ++d)
        acc += qv(i, d) * kv(j, d);
      return std::exp2(acc * scale / std::log(2.0) - double(gl[size_t(i)]));
    };
    auto dpij = [&](int i, int j) {
      double acc = 0;
      for (int d = 0; d < D; ++d)
        acc += dov(i, d) * vv(j, d);
      return acc;
    };
    uint64_t rng = 0xBAC0000ull + uint64_t(N);
    std::vector<int> sample = {0, N - 1};
    while (sample.size() < 12)
      sample.push_back(int(splitmix(rng) % uint64_t(N)));
    double worst = 0, top = 0;
    auto account = [&](double got, double ref) {
      worst = std::max(worst, std::isfinite(got) ? std::fabs(got - ref) : INFINITY);
      top = std::max(top, std::fabs(ref));
    };
    for (int x : sample) {
      std::vector<double> rq(static_cast<size_t>(D)), rk(rq), rv(rq);
      for (int j = 0; j < N; ++j) { // dQ row x
        double pij = p(x, j);
        if (pij == 0)
          continue;
        double ds = pij * (dpij(x, j) - di[size_t(x)]);
        for (int d = 0; d < D; ++d)
          rq[size_t(d)] += scale * ds * kv(j, d);
      }
      for (int i = 0; i < N; ++i) { // dK, dV row x
        double pix = p(i, x);
        if (pix == 0)
          continue;
        double ds = pix * (dpij(i, x) - di[size_t(i)]);
        for (int d = 0; d < D; ++d) {
          rk[size_t(d)] += scale * ds * qv(i, d);
          rv[size_t(d)] += pix * dov(i, d);
        }
      }
      for (int d = 0; d < D; ++d) {
        account(at(gq, x, d), rq[size_t(d)]);
        account(at(gk, x, d), rk[size_t(d)]);
        account(at(gv, x, d), rv[size_t(d)]);
      }
    }
    r.errO = worst / top; // reported as err_o: the gradients' error over their largest value
    size_t unwritten = 0;
    for (auto *g : {&gq, &gk, &gv})
      for (const half &h : *g)
        unwritten += !std::isfinite(blk::toFloat(h));
    r.ok = unwritten == 0 && r.errO <= 2e-2;
    if (!r.ok)
      r.error = unwritten ? std::to_string(unwritten) + " gradient elements not finite"
                          : "gradient error above tolerance";
    if (r.ok) {
      r.ms = timeMs(ctx, flush, launch, r.runs);
      r.tflops = s.flops() / (r.ms * 1e-3) * 1e-12;
    }
  } catch (const blk::Error &e) {
    r.error = e.what();
  }
  std::printf("%-42s %-18s %s %9.4f ms %7.1f TFLOP/s grad err %.2g runs %d %s\n", r.shape.c_str(),
              r.kernel.c_str(), r.ok ? "ok  " : "FAIL", r.ms, r.tflops, r.errO, r.runs,
              r.error.c_str());
  std::fflush(stdout);
  out.push_back(r);
}

std::vector<Shape> readCases(const std::string &path, const std::string &mode) {
  std::vector<Shape> shapes;
  for (const std::string &line : caseLines(path, mode)) {
    std::istringstream ls(line);
    Shape s;
    int causal = 0;
    if (!(ls >> s.dtype >> s.Z >> s.H >> s.N >> s.D >> causal))
      throw blk::Error("bad line in " + path + ": " + line);
    s.causal = causal != 0;
    std::string pass;
    s.backward = (ls >> pass) && pass == "fwdbwd";
    shapes.push_back(s);
  }
  return shapes;
}

void writeJson(const std::string &path, const std::vector<Record> &records) {
  FILE *f = std::fopen(path.c_str(), "w");
  if (!f)
    return;
  std::fprintf(f, "[\n");
  for (size_t i = 0; i < records.size(); ++i) {
    const Record &r = records[i];
    std::fprintf(f,
                 "  {\"shape\": \"%s\", \"kernel\": \"%s\", \"config\": \"%s\", \"ok\": %s, "
                 "\"ms\": %.6g, \"tflops\": %.6g, \"err_o\": %.6g, \"err_lse\": %.6g, "
                 "\"runs\": %d, \"error\": \"%s\"}%s\n",
                 jsonEscape(r.shape).c_str(), r.kernel.c_str(), jsonEscape(r.config).c_str(),
                 r.ok ? "true" : "false", r.ms, r.tflops, std::isfinite(r.errO) ? r.errO : -1.0,
                 std::isfinite(r.errLse) ? r.errLse : -1.0, r.runs, jsonEscape(r.error).c_str(),
                 i + 1 < records.size() ? "," : "");
  }
  std::fprintf(f, "]\n");
  std::fclose(f);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: attn-bench FATBIN CASES MODE OUT.json\n");
    return 2;
  }
  std::vector<Record> out;
  try {
    blk::Context ctx;
    std::printf("device: %s, %d SMs\n", ctx.device().name.c_str(), ctx.device().multiprocessors);
    blk::Module mod = ctx.load(argv[1]);
    blk::DeviceBuffer<int32_t> flush(ctx, kFlushInts);
    for (const Shape &s : readCases(argv[2], argv[3])) {
      if (s.backward)
        runBackward(ctx, mod, s, flush, out);
      else if (s.dtype == "bf16")
        runShape<blk::bfloat16>(ctx, mod, "attention_fwd_bf16", s, flush, out);
      else
        runShape<blk::half>(ctx, mod, "attention_fwd", s, flush, out);
    }
  } catch (const blk::Error &e) {
    std::fprintf(stderr, "attn-bench: %s\n", e.what());
    writeJson(argv[4], out);
    return 1;
  }
  writeJson(argv[4], out);
  for (const Record &r : out)
    if (!r.ok)
      return 1;
  return 0;
}
