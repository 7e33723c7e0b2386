//===- BenchCheck.h - blk-bench --expect: a GPU buffer against a file -*- C++ -*-===//
//
// The files are what `blkc run --out NAME=PATH` writes: the buffer's raw
// little-endian elements, nothing else. An element passes when
// |got - want| <= atol + rtol * |want| (NaN matches NaN only); the report
// names the worst element (the largest excess over what is allowed).
// Tests: tests/unit/Runtime/blk_bench_test.sh.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "blk/runtime.h"

#include <string>
#include <vector>

namespace blk::tools {

/// What comparing one buffer with its expected elements found.
struct CheckResult {
  size_t count = 0;      ///< elements compared
  size_t mismatches = 0; ///< elements outside the tolerance
  size_t worst = 0;      ///< index of the worst mismatch
  double got = 0, want = 0;
};

/// The default relative tolerance for elements of `kind`: 0 for integers,
/// else 1e-3 or two units of the type's precision if coarser (f16, bf16,
/// fp8).
double defaultRtol(ScalarKind kind);

/// Element `index` of raw little-endian `bytes` of `kind`, as a double.
double elementValue(ScalarKind kind, const std::vector<unsigned char> &bytes, size_t index);

/// Compares `got` with `want` (equal sizes, elements of `kind`).
CheckResult compareElements(ScalarKind kind, const std::vector<unsigned char> &got,
                            const std::vector<unsigned char> &want, double rtol, double atol);

} // namespace blk::tools
