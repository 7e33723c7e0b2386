//===- blk_bench.cpp - time the blk benchmark kernels through libblkrt ----===//
//
// `blk-bench FATBIN_DIR OUT.json` runs every specialisation of the benchmark
// kernels of issue 8 (bench/kernels/*.blk, built by blkc into
// FATBIN_DIR/<file>.fatbin): random inputs, output poisoned with NaN, result
// checked against a float64 (or exact) host reference, then CUDA events
// around each of RUNS launches after WARMUP launches; the median is kept.
// Bytes counted are the bytes that must move (inputs read once, outputs
// written once). Writes one JSON record per specialisation.
//
//===----------------------------------------------------------------------===//
#include "blk/runtime.h"
#include "common/DoBench.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace {

using blkbench::jsonEscape;

constexpr int kWarmup = 20;
constexpr int kRuns = 200;

/// Deterministic, fast uniform floats in [lo, hi) (splitmix64).
void randomFill(std::vector<float> &v, uint64_t seed, float lo, float hi) {
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (float &f : v) {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    f = lo + (hi - lo) * float(z >> 40) * (1.0f / 16777216.0f);
  }
}


struct Record {
  std::string bench, size, kernel, entry, config, error;
  double bytes = 0, ms = 0, maxErr = 0;
  bool ok = false;
};

double medianMs(const blk::Context &ctx, const std::function<void()> &launch) {
  for (int i = 0; i < kWarmup; ++i)
    launch();
  ctx.synchronize();
  std::vector<blk::Event> start, stop;
  for (int i = 0; i < kRuns; ++i) {
    start.emplace_back(ctx);
    stop.emplace_back(ctx);
  }
  for (int i = 0; i < kRuns; ++i) {
    start[size_t(i)].record();
    launch();
    stop[size_t(i)].record();
  }
  stop.back().synchronize();
  std::vector<double> t;
  for (int i = 0; i < kRuns; ++i)
    t.push_back(stop[size_t(i)].elapsedMs(start[size_t(i)]));
  std::nth_element(t.begin(), t.begin() + kRuns / 2, t.end());
  return t[size_t(kRuns / 2)];
}

/// One benchmark: a module, the kernels in it to try, how to launch a
/// specialisation, how to poison/check, and the bytes that must move.
struct Bench {
  std::string name, size, file;
  std::vector<std::string> kernels;
  double bytes;
  std::function<void()> poison;
  std::function<void(const blk::Kernel &)> launch;
  /// Returns the max error; sets `ok`.
  std::function<double(bool &ok, std::string &why)> check;
};

void runBench(const blk::Context &ctx, const std::string &dir, const Bench &b,
              std::vector<Record> &out) {
  blk::Module mod = ctx.load(dir + "/" + b.file + ".fatbin");
  for (const std::string &kname : b.kernels) {
    const blk::KernelDesc *desc = mod.manifest().findKernel(kname);
    if (!desc) {
      out.push_back({b.name, b.size, kname, "", "", "kernel not in module"});
      continue;
    }
    for (const blk::Specialization &spec : desc->specializations) {
      Record r{b.name, b.size, kname, spec.entry, "", ""};
      r.bytes = b.bytes;
      try {
        blk::Kernel k = mod.kernel(kname);
        for (const blk::ConfigValue &v : spec.config) {
          k = k.with(v.name, v.intValue);
          r.config += v.name + "=" + std::to_string(v.intValue) + " ";
        }
        k = k.with("num_warps", spec.numWarps);
        r.config += "num_warps=" + std::to_string(spec.numWarps);
        b.poison();
        b.launch(k);
        ctx.synchronize();
        r.maxErr = b.check(r.ok, r.error);
        if (r.ok)
          r.ms = medianMs(ctx, [&] { b.launch(k); });
      } catch (const blk::Error &e) {
        r.error = e.what();
      }
      std::printf("%-10s %-22s %-34s %s %8.4f ms %7.0f GB/s err %.3g %s\n",
                  b.name.c_str(), kname.c_str(), r.config.c_str(),
                  r.ok ? "ok  " : "FAIL", r.ms,
                  r.ok ? r.bytes / r.ms * 1e-6 : 0.0, r.maxErr,
                  r.error.c_str());
      std::fflush(stdout);
      out.push_back(r);
    }
  }
}

} // namespace

int runAll(const blk::Context &ctx, const std::string &dir,
           std::vector<Record> &records);

int main(int argc, char **argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: blk-bench FATBIN_DIR OUT.json\n");
    return 2;
  }
  std::optional<blk::Context> ctx;
  try {
    ctx.emplace();
  } catch (const blk::Error &e) {
    std::printf("SKIP: no usable GPU: %s\n", e.what());
    return 77;
  }
  std::vector<Record> records;
  int status = runAll(*ctx, argv[1], records);
  FILE *f = std::fopen(argv[2], "w");
  if (!f)
    return 1;
  std::fprintf(f, "[\n");
  for (size_t i = 0; i < records.size(); ++i) {
    const Record &r = records[i];
    std::fprintf(f,
                 "  {\"bench\": \"%s\", \"size\": \"%s\", \"kernel\": \"%s\", "
                 "\"entry\": \"%s\", \"config\": \"%s\", \"ok\": %s, "
                 "\"ms\": %.6f, \"bytes\": %.0f, \"max_err\": %.6g, "
                 "\"error\": \"%s\"}%s\n",
                 r.bench.c_str(), r.size.c_str(), r.kernel.c_str(),
                 r.entry.c_str(), jsonEscape(r.config).c_str(),
                 r.ok ? "true" : "false", r.ms, r.bytes, r.maxErr,
                 jsonEscape(r.error).c_str(),
                 i + 1 < records.size() ? "," : "");
  }
  std::fprintf(f, "]\n");
  std::fclose(f);
  for (const Record &r : records)
    if (!r.ok)
      status = 1;
  return status;
}

#include "blk_bench_cases.inc"
