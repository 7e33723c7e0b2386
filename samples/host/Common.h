//===- Common.h - shared helpers of the sample host programs -------------===//
//
// Context creation (exit 77 without a GPU, so ctest reports a skip), random
// inputs, Python-style printing (the seeds print `list.tolist()`), and the
// comparison against a float64 CPU reference that every sample ends with.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <blk/runtime.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <string>
#include <vector>

namespace samples {

/// Exit status that ctest's SKIP_RETURN_CODE turns into a skip.
inline constexpr int kSkip = 77;

/// Creates a context on device 0, or prints why not and returns nullopt.
inline std::optional<blk::Context> openContext() {
  try {
    std::optional<blk::Context> ctx;
    ctx.emplace();
    return ctx;
  } catch (const blk::Error &e) {
    std::printf("SKIP: no usable GPU: %s\n", e.what());
    return std::nullopt;
  }
}

/// Uniform floats in [lo, hi), reproducible from `seed`; never all zeros.
inline std::vector<float> randomFloats(size_t n, uint32_t seed,
                                       float lo = -1.0f, float hi = 1.0f) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(rng);
  return v;
}

/// 0, 1, ..., n-1 as floats (the seeds' torch.arange).
inline std::vector<float> arange(size_t n) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = float(i);
  return v;
}

/// A float as Python prints it (shortest round-trip, always with a '.').
inline std::string py(float v) {
  if (std::isnan(v))
    return "nan";
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, r.ptr);
  if (s.find_first_of(".en") == std::string::npos)
    s += ".0";
  return s;
}

/// A vector as Python prints a list: [0.0, 2.0].
inline std::string pyList(const std::vector<float> &v, size_t begin = 0,
                          size_t count = SIZE_MAX) {
  std::string s = "[";
  size_t end = count == SIZE_MAX ? v.size() : begin + count;
  for (size_t i = begin; i < end; ++i)
    s += (i == begin ? "" : ", ") + py(v[i]);
  return s + "]";
}

/// A row-major rows x cols matrix as a nested Python list.
inline std::string pyMatrix(const std::vector<float> &v, size_t rows,
                            size_t cols) {
  std::string s = "[";
  for (size_t r = 0; r < rows; ++r)
    s += (r ? ", " : "") + pyList(v, r * cols, cols);
  return s + "]";
}

/// Poison for outputs: a kernel that skips an element leaves a NaN.
inline constexpr float kPoison = std::numeric_limits<float>::quiet_NaN();

/// Largest relative error of `got` against a float64 reference, with
/// |ref| below `floor` measured absolutely (so values near zero do not
/// blow the ratio up). A NaN anywhere gives +inf.
inline double maxRelError(const std::vector<float> &got,
                          const std::vector<double> &ref, double floor = 1e-3) {
  if (got.size() != ref.size())
    return INFINITY;
  double worst = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    double e =
        std::fabs(double(got[i]) - ref[i]) / std::max(std::fabs(ref[i]), floor);
    if (!(e == e))
      return INFINITY;
    worst = std::max(worst, e);
  }
  return worst;
}

/// Prints the closing `ok`/`FAIL` line and returns the exit status.
inline int verdict(bool ok, const std::string &what) {
  std::printf("%s %s\n", ok ? "ok" : "FAIL", what.c_str());
  return ok ? 0 : 1;
}

/// Runs `body` (which returns the exit status) with runtime errors reported.
template <class F> int runSample(const char *name, F body) {
  std::optional<blk::Context> ctx = openContext();
  if (!ctx)
    return kSkip;
  // Unpinned launches of @autotune kernels are tuned: say what was chosen.
  ctx->onAutotune([](const blk::AutotuneEvent &e) {
    std::printf("%s\n", blk::formatAutotuneEvent(e).c_str());
  });
  try {
    return body(*ctx);
  } catch (const blk::Error &e) {
    std::printf("FAIL %s: %s\n", name, e.what());
    return 1;
  }
}

} // namespace samples
