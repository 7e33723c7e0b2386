//===- gemm_bench.cpp - time the blk GEMM kernels through libblkrt --------===//
//
// `gemm-bench FATBIN_DIR CASES MODE OUT.json` runs every specialisation of
// the GEMM benchmark kernels of issue 14 (bench/gemm/kernels/*.blk, built by
// blkc into FATBIN_DIR/<file>.fatbin) on the shapes of CASES (cases.txt)
// whose set is MODE (`quick` or `full`). Per shape: random inputs (fixed
// seeds, never zeros); per specialisation: output poisoned with NaN, one
// launch, every element checked to be written, a sample of >= 4096 elements
// (corners and last row/column included) checked against a float64 dot
// product on the host, then timed the way triton.testing.do_bench times
// (25 ms of warm-up launches, then ~100 ms of launches, each after a 256 MB
// L2 flush, CUDA events around the launch only; median kept, at least 10 and
// at most 100 launches). TFLOP/s = 2 M N K / time. Writes one JSON record per
// specialisation and shape; gemm_ref.py merges them with Triton and cuBLAS.
//
//===----------------------------------------------------------------------===//
#include "blk/runtime.h"
#include "../common/DoBench.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <limits>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace blkbench;
constexpr int kRandomSamples = 4096, kEdgeSamples = 64;

/// Host conversions per element type (blk/runtime/Types.h).
template <class T> struct Elem;
template <> struct Elem<blk::half> {
  static blk::half from(float f) { return blk::toHalf(f); }
  static float to(blk::half h) { return blk::toFloat(h); }
  static blk::half nan() { return blk::half{0x7E00}; }
  static bool finite(blk::half h) { return (h.bits & 0x7C00u) != 0x7C00u; }
};
template <> struct Elem<blk::bfloat16> {
  static blk::bfloat16 from(float f) { return blk::toBfloat16(f); }
  static float to(blk::bfloat16 b) { return blk::toFloat(b); }
  static blk::bfloat16 nan() { return blk::bfloat16{0x7FC0}; }
  static bool finite(blk::bfloat16 b) { return (b.bits & 0x7F80u) != 0x7F80u; }
};
template <> struct Elem<float> {
  static float from(float f) { return f; }
  static float to(float f) { return f; }
  static float nan() { return std::numeric_limits<float>::quiet_NaN(); }
  static bool finite(float f) { return std::isfinite(f); }
};

/// fp8 e4m3 inputs: the float draw rounded as blk's `as f8e4m3` rounds.
template <> struct Elem<blk::float8_e4m3> {
  static blk::float8_e4m3 from(float f) { return blk::toFloat8E4M3(f); }
  static float to(blk::float8_e4m3 v) { return blk::toFloat(v); }
};

/// i8 inputs: small integers (the float draw times 8, rounded), exact.
template <> struct Elem<int8_t> {
  static int8_t from(float f) { return int8_t(std::lround(f * 8.0f)); }
  static float to(int8_t v) { return float(v); }
};
/// i32 outputs: INT32_MIN is the poison (unreachable from |a|, |b| <= 8
/// and K < 2^24).
template <> struct Elem<int32_t> {
  static int32_t nan() { return std::numeric_limits<int32_t>::min(); }
  static bool finite(int32_t v) { return v != nan(); }
  static double to(int32_t v) { return double(v); }
};

/// One shape of one case, as cases.txt lists it.
struct Shape {
  std::string kind;
  int M = 0, N = 0, K = 0;
  std::string label() const {
    return std::to_string(M) + "x" + std::to_string(N) + "x" +
           std::to_string(K);
  }
};

/// What a case computes and where its kernels are.
struct Kind {
  std::string name, file;
  std::vector<std::string> kernels;
  bool bTransposed = false; ///< B given as [N, K] row-major (a @ b.T)
  bool biasGelu = false;    ///< gelu_tanh(A B + bias)
  double tolMax = 0, tolL2 = 0;
};

// Tolerances (bench/gemm/README.md): error per sampled element is
// |got - ref| / (sqrt(sum_k (a_ik b_kj)^2) + |ref|), i.e. against the typical
// size of the accumulation and against the output's own rounding; fp16
// output rounding alone is 2^-11 of that, bf16 2^-8, tf32 operands ~2^-10.
// The relative L2 error ||got - ref|| / ||ref|| over the sample is the
// second bound. NaN, or an element the kernel did not write, always fails.
const std::vector<Kind> &kinds() {
  static const std::vector<Kind> k = {
      {"f16", "gemm_f16", {"matmul_f16"}, false, false, 4e-3, 2e-3},
      {"f16p", "gemm_f16_persistent", {"matmul_f16_persistent"}, false, false, 4e-3, 2e-3},
      {"bf16", "gemm_bf16", {"matmul_bf16"}, false, false, 2e-2, 1e-2},
      {"f16_nt",
       "gemm_nt",
       {"matmul_nt_trans", "matmul_nt_strides"},
       true,
       false,
       4e-3,
       2e-3},
      {"tf32", "gemm_tf32", {"matmul_tf32"}, false, false, 1e-2, 5e-3},
      // Three tf32 products: the tensor cores' f32 accumulation (not
      // IEEE-rounded) leaves ~4e-5 at K = 4096 (measured); tf32 is ~1e-3.
      {"tf32x3", "gemm_tf32", {"matmul_tf32x3"}, false, false, 1e-4, 5e-5},
      {"f16_gelu", "gemm_gelu", {"matmul_bias_gelu"}, false, true, 4e-3, 2e-3},
      // Integers: exact (any error fails).
      {"i8_nt", "gemm_i8", {"matmul_i8_nt"}, true, false, 0, 0},
      // fp8 e4m3 A x B, B handed over as B^T ([N, K], as Triton's tutorial
      // does for fp8), f16 out: the products are exact, but the tensor
      // cores' fp8 accumulation is not IEEE-rounded: at K = 8192 the worst
      // of all elements is 0.0127 for Triton and for cuBLAS with fast
      // accumulation alike (measured 2026-12-02), hence 2e-2.
      {"fp8", "gemm_fp8", {"matmul_fp8"}, true, false, 2e-2, 5e-3},
  };
  return k;
}

struct Record {
  std::string kind, shape, kernel, entry, config, error;
  int M = 0, N = 0, K = 0, runs = 0;
  double ms = 0, tflops = 0, maxErr = 0, relL2 = 0;
  bool ok = false;
};

Record makeRecord(const Shape &s, const std::string &kernel) {
  Record r;
  r.kind = s.kind;
  r.shape = s.label();
  r.kernel = kernel;
  r.M = s.M;
  r.N = s.N;
  r.K = s.K;
  return r;
}

/// One checked output element: its float64 reference and error scale.
struct Sample {
  int i = 0, j = 0;
  double ref = 0, denom = 1;
};

double geluTanh(double x) {
  const double k = 0.7978845608028654; // sqrt(2 / pi)
  return 0.5 * x * (1.0 + std::tanh(k * (x + 0.044715 * x * x * x)));
}

/// Random elements plus the corners and samples of the last row and column
/// (the masked edges), each with its float64 reference.
std::vector<Sample> makeSamples(const Shape &s, const Kind &kind,
                                const std::vector<float> &A,
                                const std::vector<float> &B,
                                const std::vector<float> &bias) {
  const int M = s.M, N = s.N, K = s.K;
  uint64_t rng = 0x5EED0000ull + uint64_t(M) * 31 + uint64_t(N) * 7 + uint64_t(K);
  std::vector<std::pair<int, int>> at = {
      {0, 0}, {M - 1, N - 1}, {0, N - 1}, {M - 1, 0}};
  for (int t = 0; t < kEdgeSamples; ++t) {
    at.push_back({M - 1, int(splitmix(rng) % uint64_t(N))});
    at.push_back({int(splitmix(rng) % uint64_t(M)), N - 1});
  }
  for (int t = 0; t < kRandomSamples; ++t)
    at.push_back({int(splitmix(rng) % uint64_t(M)),
                  int(splitmix(rng) % uint64_t(N))});
  std::vector<Sample> out;
  for (auto [i, j] : at) {
    double sum = 0, sq = 0;
    const float *a = &A[size_t(i) * size_t(K)];
    for (int k = 0; k < K; ++k) {
      double b = kind.bTransposed ? B[size_t(j) * size_t(K) + size_t(k)]
                                  : B[size_t(k) * size_t(N) + size_t(j)];
      double p = double(a[k]) * b;
      sum += p;
      sq += p * p;
    }
    double ref = kind.biasGelu ? geluTanh(sum + double(bias[size_t(j)])) : sum;
    out.push_back({i, j, ref, std::sqrt(sq) + std::fabs(ref)});
  }
  return out;
}

/// Every element written (none left NaN), then the sampled errors.
template <class T>
bool checkOutput(const std::vector<T> &got, const Shape &s, const Kind &kind,
                 const std::vector<Sample> &samples, Record &r) {
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < got.size(); ++i)
    if (!Elem<T>::finite(got[i]) && bad++ == 0)
      first = i;
  if (bad) {
    r.error = std::to_string(bad) + " of " + std::to_string(got.size()) +
              " elements not finite (unwritten or NaN), first C[" +
              std::to_string(first / size_t(s.N)) + "][" +
              std::to_string(first % size_t(s.N)) + "]";
    r.maxErr = INFINITY;
    return false;
  }
  double num = 0, den = 0;
  const Sample *worst = nullptr;
  for (const Sample &x : samples) {
    double g = Elem<T>::to(got[size_t(x.i) * size_t(s.N) + size_t(x.j)]);
    double d = g - x.ref, e = std::fabs(d) / x.denom;
    if (!worst || e > r.maxErr) {
      r.maxErr = e;
      worst = &x;
    }
    num += d * d;
    den += x.ref * x.ref;
  }
  r.relL2 = std::sqrt(num / den);
  bool ok = r.maxErr <= kind.tolMax && r.relL2 <= kind.tolL2;
  if (!ok) {
    char buf[256];
    std::snprintf(buf, sizeof buf,
                  "max err %.3g (tol %.1g) at C[%d][%d] = %.6g, expected %.6g; "
                  "rel L2 %.3g (tol %.1g)",
                  r.maxErr, kind.tolMax, worst->i, worst->j,
                  double(Elem<T>::to(got[size_t(worst->i) * size_t(s.N) +
                                         size_t(worst->j)])),
                  worst->ref, r.relL2, kind.tolL2);
    r.error = buf;
  }
  return ok;
}

/// Issue 16's matmul check (BLK_GEMM_TUNE_CHECK=1, mode `tune`): after the
/// sweep above timed every config, one unpinned launch tunes at run time
/// (or finds the user cache of an earlier process); the config it picks
/// must be within 3 % of the sweep's best. Prints the first launch's host
/// cost (tuning included) and where the decision came from.
template <class C, class Launch>
void tuneCheck(const blk::Context &ctx, const blk::Module &mod, const std::string &kname,
               const Shape &s, const Kind &kind, blk::DeviceBuffer<C> &c,
               const std::vector<Sample> &samples, std::vector<Record> &out,
               const Launch &launch) {
  Record r = makeRecord(s, kname);
  r.config = "tuned";
  const Record *best = nullptr;
  for (const Record &x : out)
    if (x.kind == r.kind && x.shape == r.shape && x.kernel == kname && x.ok &&
        (!best || x.ms < best->ms))
      best = &x;
  blk::AutotuneEvent event;
  ctx.onAutotune([&](const blk::AutotuneEvent &e) { event = e; });
  c.fill(Elem<C>::nan());
  ctx.synchronize();
  auto t0 = std::chrono::steady_clock::now();
  launch(mod.kernel(kname)); // unpinned: tuned, or from the cache
  ctx.synchronize();
  double firstMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  ctx.onAutotune(nullptr);
  r.ok = checkOutput(c.download(), s, kind, samples, r);
  // The sweep's labels and the runtime's event may list the constants in
  // different orders ("BK=64 BM=128 …" against "BM=128 BN=256 BK=64 …"):
  // compare them as sets of name=value words.
  auto words = [](const std::string &label) {
    std::istringstream in(label);
    std::vector<std::string> w{std::istream_iterator<std::string>(in), {}};
    std::sort(w.begin(), w.end());
    return w;
  };
  const Record *chosen = nullptr;
  for (const Record &x : out)
    if (x.kind == r.kind && x.shape == r.shape && x.kernel == kname && x.ok &&
        words(x.config) == words(event.config))
      chosen = &x;
  double ratio = chosen && best ? chosen->ms / best->ms : 0;
  bool pass = r.ok && chosen && best && ratio <= 1.03;
  std::printf("tune-check %s %s %s: source %s, chosen %s (%.4f ms), best %s (%.4f ms), "
              "ratio %.3f %s; first launch %.1f ms (tuning %.1f ms)\n",
              r.kind.c_str(), r.shape.c_str(), kname.c_str(),
              blk::autotuneSourceName(event.source), event.config.c_str(),
              chosen ? chosen->ms : 0.0, best ? best->config.c_str() : "-",
              best ? best->ms : 0.0, ratio, pass ? "PASS (<= 1.03)" : "FAIL", firstMs,
              event.tuningMs);
  std::printf("%s\n", blk::formatAutotuneEvent(event).c_str());
  std::fflush(stdout);
  r.ok = pass;
  r.ms = chosen ? chosen->ms : 0;
  r.tflops = chosen ? chosen->tflops : 0;
  r.entry = event.config;
  r.error = pass ? "" : "tuned config not within 3 % of the sweep's best";
  out.push_back(r);
}

/// T: the inputs' element type; C: the output's (T unless integer).
template <class T, class C = T>
void runShape(const blk::Context &ctx, const std::string &dir,
              blk::DeviceBuffer<int32_t> &flush, const Shape &s,
              const Kind &kind, std::vector<Record> &out) {
  const int M = s.M, N = s.N, K = s.K;
  const size_t MK = size_t(M) * size_t(K), KN = size_t(K) * size_t(N),
               MN = size_t(M) * size_t(N);
  // Inputs in [-1, 1); with the GELU epilogue B is scaled so that A B is of
  // order 1 (standard deviation ~1), where GELU is not just x or 0.
  std::vector<float> fa(MK), fb(KN), fbias(kind.biasGelu ? size_t(N) : 0);
  randomFill(fa, 11, -1.f, 1.f);
  float bs = kind.biasGelu ? 3.0f / std::sqrt(float(K)) : 1.0f;
  randomFill(fb, 12, -bs, bs);
  randomFill(fbias, 13, -1.f, 1.f);
  // BLK_GEMM_BF16_VALUES (an experiment): the draws rounded to bf16 first,
  // so f16 inputs carry bf16's 8 significant bits. The tensor cores' power
  // depends on the bits they multiply; this asks whether f16 runs slower
  // than bf16 at the same code for that reason alone.
  if (std::getenv("BLK_GEMM_BF16_VALUES"))
    for (std::vector<float> *v : {&fa, &fb})
      for (float &x : *v)
        x = blk::toFloat(blk::toBfloat16(x));
  std::vector<T> ha(MK), hb(KN);
  for (size_t i = 0; i < MK; ++i)
    fa[i] = Elem<T>::to(ha[i] = Elem<T>::from(fa[i]));
  for (size_t i = 0; i < KN; ++i)
    fb[i] = Elem<T>::to(hb[i] = Elem<T>::from(fb[i]));
  std::vector<blk::half> hbias(fbias.size());
  for (size_t i = 0; i < fbias.size(); ++i)
    fbias[i] = blk::toFloat(hbias[i] = blk::toHalf(fbias[i]));
  std::vector<Sample> samples = makeSamples(s, kind, fa, fb, fbias);
  fa = {};
  fb = {};

  blk::DeviceBuffer<T> a(ctx, ha), b(ctx, hb);
  blk::DeviceBuffer<C> c(ctx, MN);
  blk::DeviceBuffer<blk::half> bias(ctx, hbias.empty()
                                             ? std::vector<blk::half>(1)
                                             : hbias);
  ha = {};
  hb = {};
  // The tutorial's six strides (am, ak, bk, bn, cm, cn): A and C row-major;
  // B row-major [K, N], or [N, K] row-major handed over as B^T's view.
  const int sbk = kind.bTransposed ? 1 : N, sbn = kind.bTransposed ? K : 1;
  auto launch = [&](const blk::Kernel &k) {
    if (kind.biasGelu)
      k.launch(a, b, bias, c, M, N, K, K, 1, sbk, sbn, N, 1);
    else
      k.launch(a, b, c, M, N, K, K, 1, sbk, sbn, N, 1);
  };

  blk::Module mod = ctx.load(dir + "/" + kind.file + ".fatbin");
  for (const std::string &kname : kind.kernels) {
    const blk::KernelDesc *desc = mod.manifest().findKernel(kname);
    if (!desc) {
      Record r = makeRecord(s, kname);
      r.error = "kernel not in module " + kind.file + ".fatbin";
      out.push_back(r);
      continue;
    }
    // BLK_GEMM_ONLY (bench/gemm/ncu_on_device.sh): run only the configs
    // whose description contains it, so a profiler sees one kernel.
    const char *only = std::getenv("BLK_GEMM_ONLY");
    for (const blk::Specialization &spec : desc->specializations) {
      if (only && blk::configKey(spec).find(only) == std::string::npos)
        continue;
      Record r = makeRecord(s, kname);
      r.entry = spec.entry;
      r.config = blk::configKey(spec);
      try {
        blk::Kernel k = mod.kernel(kname);
        for (const blk::ConfigValue &v : spec.config)
          k = k.with(v.name, v.intValue);
        // num_stages, warp_specialize and persistent too: two configs may
        // differ only there.
        k = k.with("num_warps", spec.numWarps)
                .with("num_stages", spec.numStages)
                .with("warp_specialize", spec.producerWarps > 0)
                .with("persistent", spec.persistent);
        c.fill(Elem<C>::nan());
        launch(k);
        ctx.synchronize();
        r.ok = checkOutput(c.download(), s, kind, samples, r);
        if (r.ok) {
          r.ms = timeMs(ctx, flush, [&] { launch(k); }, r.runs);
          r.tflops = 2.0 * M * N * double(K) / (r.ms * 1e-3) * 1e-12;
          if (const char *soak = std::getenv("BLK_GEMM_SOAK_S"))
            soakReport(ctx, [&] { launch(k); }, std::atof(soak),
                       2.0 * M * N * double(K));
        }
      } catch (const blk::Error &e) {
        r.ok = false;
        r.error = e.what();
      }
      std::printf("%-8s %-15s %-18s %-56s %s %9.4f ms %7.1f TFLOP/s "
                  "err %.2g l2 %.2g runs %d %s\n",
                  r.kind.c_str(), r.shape.c_str(), kname.c_str(),
                  r.config.c_str(), r.ok ? "ok  " : "FAIL", r.ms, r.tflops,
                  r.maxErr, r.relL2, r.runs, r.error.c_str());
      std::fflush(stdout);
      out.push_back(r);
    }
    if (std::getenv("BLK_GEMM_TUNE_CHECK"))
      tuneCheck(ctx, mod, kname, s, kind, c, samples, out, launch);
  }
}

/// BLK_GEMM_SOAK_S (bench/gemm/ncu_on_device.sh): launches back to back,
/// without flushes, for that many seconds, then prints the mean time of the
/// last second's launches: the clocks a long GEMM settles at (power and
/// temperature), which a 100-launch median does not reach.
void soakReport(const blk::Context &ctx, const std::function<void()> &launch,
                double seconds, double flops) {
  blk::Event s(ctx), e(ctx);
  double spent = 0, lastMs = 0;
  int lastN = 0;
  while (spent < seconds * 1e3) {
    int n = 20;
    s.record();
    for (int i = 0; i < n; ++i)
      launch();
    e.record();
    e.synchronize();
    lastMs = double(e.elapsedMs(s));
    lastN = n;
    spent += lastMs;
  }
  double ms = lastMs / lastN;
  std::printf("soak %.1f s: %.4f ms per launch, %.1f TFLOP/s\n", spent * 1e-3,
              ms, flops / (ms * 1e-3) * 1e-12);
}

std::vector<Shape> readCases(const std::string &path, const std::string &mode) {
  std::vector<Shape> shapes;
  for (const std::string &line : caseLines(path, mode)) {
    std::istringstream ls(line);
    Shape s;
    if (!(ls >> s.kind >> s.M >> s.N >> s.K))
      throw blk::Error("bad line in " + path + ": " + line);
    shapes.push_back(s);
  }
  return shapes;
}

std::string num(double v) { // JSON has no inf/NaN
  if (!std::isfinite(v))
    return "null";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

void writeJson(const std::string &path, const std::vector<Record> &records) {
  FILE *f = std::fopen(path.c_str(), "w");
  if (!f)
    return;
  std::fprintf(f, "[\n");
  for (size_t i = 0; i < records.size(); ++i) {
    const Record &r = records[i];
    std::fprintf(
        f,
        "  {\"case\": \"%s\", \"shape\": \"%s\", \"M\": %d, \"N\": %d, "
        "\"K\": %d, \"kernel\": \"%s\", \"entry\": \"%s\", \"config\": "
        "\"%s\", \"ok\": %s, \"ms\": %s, \"tflops\": %s, \"runs\": %d, "
        "\"max_err\": %s, \"rel_l2\": %s, \"error\": \"%s\"}%s\n",
        r.kind.c_str(), r.shape.c_str(), r.M, r.N, r.K, r.kernel.c_str(),
        r.entry.c_str(), jsonEscape(r.config).c_str(),
        r.ok ? "true" : "false", num(r.ms).c_str(), num(r.tflops).c_str(),
        r.runs, num(r.maxErr).c_str(), num(r.relL2).c_str(),
        jsonEscape(r.error).c_str(), i + 1 < records.size() ? "," : "");
  }
  std::fprintf(f, "]\n");
  std::fclose(f);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 5) {
    std::fprintf(stderr,
                 "usage: gemm-bench FATBIN_DIR CASES MODE OUT.json\n");
    return 2;
  }
  std::optional<blk::Context> ctx;
  try {
    ctx.emplace();
  } catch (const blk::Error &e) {
    std::printf("SKIP: no usable GPU: %s\n", e.what());
    return 77;
  }
  std::printf("device: %s, %d SMs\n", ctx->device().name.c_str(),
              ctx->device().multiprocessors);
  std::vector<Record> records;
  int status = 0;
  try {
    std::vector<Shape> shapes = readCases(argv[2], argv[3]);
    blk::DeviceBuffer<int32_t> flush(*ctx, kFlushInts);
    for (const Shape &s : shapes) {
      auto it = std::find_if(kinds().begin(), kinds().end(),
                             [&](const Kind &k) { return k.name == s.kind; });
      if (it == kinds().end()) {
        std::printf("unknown case %s\n", s.kind.c_str());
        status = 1;
        continue;
      }
      try {
        if (s.kind == "bf16")
          runShape<blk::bfloat16>(*ctx, argv[1], flush, s, *it, records);
        else if (s.kind == "tf32" || s.kind == "tf32x3")
          runShape<float>(*ctx, argv[1], flush, s, *it, records);
        else if (s.kind == "i8_nt")
          runShape<int8_t, int32_t>(*ctx, argv[1], flush, s, *it, records);
        else if (s.kind == "fp8")
          runShape<blk::float8_e4m3, blk::half>(*ctx, argv[1], flush, s, *it, records);
        else
          runShape<blk::half>(*ctx, argv[1], flush, s, *it, records);
      } catch (const blk::Error &e) { // e.g. the module does not load
        Record r = makeRecord(s, "");
        r.error = e.what();
        std::printf("%-8s %-15s FAIL %s\n", s.kind.c_str(), s.label().c_str(),
                    e.what());
        records.push_back(r);
      }
      writeJson(argv[4], records); // after every shape: partial runs count
    }
  } catch (const blk::Error &e) {
    std::printf("FAIL: %s\n", e.what());
    status = 1;
  }
  writeJson(argv[4], records);
  for (const Record &r : records)
    if (!r.ok)
      status = 1;
  return status;
}
