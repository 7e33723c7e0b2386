#!/usr/bin/env bash
# Issue 16's matmul check on the device: the GEMM bench in mode `tune`
# (bench/gemm/cases.txt) with BLK_GEMM_TUNE_CHECK=1, run twice as two
# processes over one fresh cache directory. Each run sweeps every config of
# gemm_f16 at 4096^3 with the bench's method, then launches unpinned: the
# first process tunes at run time, the second must find the cache; both
# must pick a config within 3 % of the sweep's best. Carry
# bench/gemm/fatbins (bench/gemm/build_gemm_fatbins.sh) and .rtdeps.
#   bash bench/gemm/tune_check_on_device.sh     (from the repository root)
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-/tmp/blk-tune-out}
B=${BLK_BENCH_BUILD:-/tmp/blk-gemm-build}
mkdir -p "$OUT" "$B"
export PATH=/usr/local/cuda/bin:$PATH
lib=$(bash "$ROOT/scripts/device-build-runtime.sh" "$B" "$B") || exit 1
g++ -O2 -std=c++17 -Wall -Wextra -I "$ROOT/runtime/include" "$ROOT/bench/gemm/gemm_bench.cpp" \
  -o "$B/gemm-bench" -L"$lib" -lblkrt -Wl,-rpath,"$lib" || exit 1
export BLK_CACHE_DIR=$OUT/cache BLK_GEMM_TUNE_CHECK=1
rm -rf "$BLK_CACHE_DIR"
status=0
for run in 1 2; do
  echo "=== process $run ($(date +%T))"
  "$B/gemm-bench" "$ROOT/bench/gemm/fatbins" "$ROOT/bench/gemm/cases.txt" tune \
    "$OUT/tune-$run.json" 2>&1 | tee "$OUT/tune-$run.log" | grep -E "tune-check|autotune|FAIL|ok  "
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
done
ls -l "$BLK_CACHE_DIR"
exit $status
