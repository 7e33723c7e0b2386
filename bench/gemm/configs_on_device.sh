#!/usr/bin/env bash
# Several configs of one fatbin set side by side on the same GPU in one call:
# every config whose description contains BLK_GEMM_ONLY (default: the 8-warp
# BM=128 BN=256 BK=64 ones: plain, and warp-specialised with 3 and 4 stages)
# on f16 and bf16 at 4096^3 and 8192^3, ROUNDS times over (single runs at
# the 700 W power cap spread about 5 %: compare means). Builds libblkrt and
# gemm-bench as run_gemm_on_device.sh does; each run checks its output first.
#   bash bench/gemm/configs_on_device.sh DIR [ROUNDS]   (repository root)
# Prints one line per run (case, shape, config, TFLOP/s) and the mean per
# case and config.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
DIR=${1:?fatbin folder}
ROUNDS=${2:-3}
OUT=${OUT:-/tmp/blk-gemm-configs}
B=${BLK_BENCH_BUILD:-/tmp/blk-gemm-build}
mkdir -p "$OUT" "$B"
export PATH=/usr/local/cuda/bin:$PATH
export BLK_GEMM_ONLY=${BLK_GEMM_ONLY:-BK=64 BM=128 BN=256 GROUP_M=8 num_warps=8}
[ -x "$B/gemm-bench" ] || bash "$ROOT/bench/common/build_harness_on_device.sh" "$B" \
  gemm-bench bench/gemm/gemm_bench.cpp || exit 1
printf 'cfg f16 4096 4096 4096\ncfg bf16 4096 4096 4096\ncfg f16 8192 8192 8192\ncfg bf16 8192 8192 8192\n' \
  > "$B/cfg-cases.txt"
for r in $(seq 1 "$ROUNDS"); do
  "$B/gemm-bench" "$DIR" "$B/cfg-cases.txt" cfg "$OUT/run-$r.json" |
    awk '/TFLOP\/s/ { t = ""; s = ""; ws = "plain"
                      for (i = 1; i < NF; ++i) {
                        if ($(i + 1) == "TFLOP/s") t = $i
                        if ($i ~ /^num_stages=/) s = $i
                        if ($i == "warp_specialize=1") ws = "ws" }
                      print $1, $2, ws, s, t, ($0 ~ / ok /) ? "ok" : "FAIL" }'
done | tee "$OUT/configs.txt"
awk '$6 == "ok" { k = $1" "$2" "$3" "$4; s[k] += $5; n[k]++ }
     $6 != "ok" { print "FAIL", $0 }
     END { for (k in s) printf "mean %s %.1f (%d runs)\n", k, s[k] / n[k], n[k] }' \
  "$OUT/configs.txt" | sort
