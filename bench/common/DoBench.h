//===- DoBench.h - timing and inputs shared by the GPU benchmarks ----------===//
//
// The method of bench/gemm and bench/attention, the same as
// triton.testing.do_bench so that blk and Triton are timed alike: three
// estimates, ~25 ms of warm-up launches, then ~100 ms of launches (10 to
// 100), each after a 256 MB L2 flush, CUDA events around the launch only,
// the median kept. BLK_BENCH_WARMUP_MS lengthens the warm-up (gemm_ref.py
// reads it too, so both sides stay alike): on an H100 at its power cap,
// figures after 25 ms of warm-up spread about 5 % from run to run and with
// the order of the configs, after 1000 ms within 2 % (bench/NOTES.md,
// session 22). Inputs come from splitmix64: deterministic, fast, never
// all zeros.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_BENCH_COMMON_DOBENCH_H
#define BLK_BENCH_COMMON_DOBENCH_H

#include "blk/runtime.h"

#include <algorithm>
#include <cstdlib>
#include <cstdint>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace blkbench {

constexpr double kWarmupMs = 25, kRepMs = 100; // do_bench's defaults
constexpr int kMinRuns = 10, kMaxRuns = 100;
constexpr size_t kFlushInts = (size_t(256) << 20) / 4; // do_bench: 256 MB

inline uint64_t splitmix(uint64_t &s) {
  uint64_t z = (s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// The warm-up in ms: do_bench's, or BLK_BENCH_WARMUP_MS where set.
inline double warmupMs() {
  const char *e = std::getenv("BLK_BENCH_WARMUP_MS");
  return e && *e ? std::max(0.0, std::atof(e)) : kWarmupMs;
}

/// Deterministic uniform floats in [lo, hi).
inline void randomFill(std::vector<float> &v, uint64_t seed, float lo, float hi) {
  uint64_t s = seed * 0x9E3779B97F4A7C15ull + 1;
  for (float &f : v)
    f = lo + (hi - lo) * float(splitmix(s) >> 40) * (1.0f / 16777216.0f);
}

inline double median(std::vector<double> v) {
  std::nth_element(v.begin(), v.begin() + long(v.size() / 2), v.end());
  return v[v.size() / 2];
}

/// do_bench's method (see the file comment); returns the median in ms and
/// the number of timed launches in `runs`.
inline double timeMs(const blk::Context &ctx, blk::DeviceBuffer<int32_t> &flush,
                     const std::function<void()> &launch, int &runs) {
  std::vector<double> est;
  for (int i = 0; i < 3; ++i) {
    blk::Event s(ctx), e(ctx);
    flush.fill(0);
    s.record();
    launch();
    e.record();
    e.synchronize();
    est.push_back(double(e.elapsedMs(s)));
  }
  double t = std::max(median(est), 1e-3);
  int warmup = std::max(int(warmupMs() / t), 1); // do_bench caps only the timed runs
  runs = std::clamp(int(kRepMs / t), kMinRuns, kMaxRuns);
  for (int i = 0; i < warmup; ++i)
    launch();
  std::vector<blk::Event> start, stop;
  for (int i = 0; i < runs; ++i) {
    start.emplace_back(ctx);
    stop.emplace_back(ctx);
  }
  for (int i = 0; i < runs; ++i) {
    flush.fill(0);
    start[size_t(i)].record();
    launch();
    stop[size_t(i)].record();
  }
  stop.back().synchronize();
  ctx.synchronize();
  std::vector<double> ts;
  for (int i = 0; i < runs; ++i)
    ts.push_back(double(stop[size_t(i)].elapsedMs(start[size_t(i)])));
  return median(ts);
}

/// The lines of a cases file (`SET field…`; `#` starts a comment line) whose
/// set is `mode`, each without its set word.
inline std::vector<std::string> caseLines(const std::string &path, const std::string &mode) {
  std::ifstream in(path);
  if (!in)
    throw blk::Error("cannot read " + path);
  std::vector<std::string> lines;
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream ls(line);
    std::string set;
    if (!(ls >> set) || set[0] == '#' || set != mode)
      continue;
    std::string rest;
    std::getline(ls, rest);
    lines.push_back(rest);
  }
  return lines;
}

/// `s` as the inside of a JSON string (control characters dropped).
inline std::string jsonEscape(const std::string &s) {
  std::string o;
  for (char c : s)
    if (c == '"' || c == '\\')
      o += std::string("\\") + c;
    else if (c == '\n')
      o += "\\n";
    else if (static_cast<unsigned char>(c) >= 0x20)
      o += c;
  return o;
}

} // namespace blkbench

#endif
