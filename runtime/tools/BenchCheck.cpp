//===- BenchCheck.cpp - blk-bench --expect: a GPU buffer against a file ----===//
#include "BenchCheck.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace blk::tools {

double defaultRtol(ScalarKind kind) {
  switch (kind) {
  case ScalarKind::F16:
    return 2.0 / 1024;
  case ScalarKind::BF16:
    return 2.0 / 128;
  case ScalarKind::F8E4M3:
    return 2.0 / 8;
  case ScalarKind::F8E5M2:
    return 2.0 / 4;
  case ScalarKind::F32:
  case ScalarKind::F64:
    return 1e-3;
  default:
    return 0;
  }
}

double elementValue(ScalarKind kind, const std::vector<unsigned char> &bytes, size_t index) {
  size_t size = scalarKindSize(kind);
  uint64_t bits = 0;
  std::memcpy(&bits, &bytes[index * size], size);
  switch (kind) {
  case ScalarKind::F16:
    return toFloat(half{uint16_t(bits)});
  case ScalarKind::BF16:
    return toFloat(bfloat16{uint16_t(bits)});
  case ScalarKind::F8E4M3:
    return toFloat(float8_e4m3{uint8_t(bits)});
  case ScalarKind::F8E5M2:
    return toFloat(float8_e5m2{uint8_t(bits)});
  case ScalarKind::F32: {
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  case ScalarKind::F64: {
    double d;
    std::memcpy(&d, &bits, 8);
    return d;
  }
  default:
    break;
  }
  if (!isSignedKind(kind))
    return double(bits);
  // Sign-extend from the element's width.
  unsigned shift = unsigned(64 - 8 * size);
  return double(int64_t(bits << shift) >> shift);
}

CheckResult compareElements(ScalarKind kind, const std::vector<unsigned char> &got,
                            const std::vector<unsigned char> &want, double rtol, double atol) {
  CheckResult r;
  r.count = want.size() / scalarKindSize(kind);
  double worstExcess = -1;
  for (size_t i = 0; i < r.count; ++i) {
    double g = elementValue(kind, got, i), w = elementValue(kind, want, i);
    if (std::isnan(g) && std::isnan(w))
      continue;
    double excess = std::isnan(g) || std::isnan(w) ? std::numeric_limits<double>::infinity()
                    : g == w                       ? 0
                                                   : std::fabs(g - w) - (atol + rtol * std::fabs(w));
    if (std::isnan(excess)) // inf - inf: infinities of opposite signs
      excess = std::numeric_limits<double>::infinity();
    if (excess <= 0)
      continue;
    ++r.mismatches;
    if (excess > worstExcess) {
      worstExcess = excess;
      r.worst = i;
      r.got = g;
      r.want = w;
    }
  }
  return r;
}

} // namespace blk::tools
