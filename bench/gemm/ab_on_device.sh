#!/usr/bin/env bash
# An A/B of two GEMM fatbin sets on the same GPU in one call: the table's
# config (BLK_GEMM_ONLY, default BM=128 BN=256 BK=64 8 warps 3 stages) on
# f16 and bf16 at 4096^3 and 8192^3, the two sets alternating ROUNDS times
# (single runs at the 700 W power cap spread about 5 %: compare means over
# alternations, not one pair). Builds libblkrt and gemm-bench as
# run_gemm_on_device.sh does; each gemm-bench run checks its output first.
#   bash bench/gemm/ab_on_device.sh DIR_A DIR_B [ROUNDS]   (repository root)
# Prints one line per run (set, case, TFLOP/s) and the mean per set and case.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
A=${1:?fatbin folder A}
B_SET=${2:?fatbin folder B}
ROUNDS=${3:-3}
OUT=${OUT:-/tmp/blk-gemm-ab}
B=${BLK_BENCH_BUILD:-/tmp/blk-gemm-build}
mkdir -p "$OUT" "$B"
export PATH=/usr/local/cuda/bin:$PATH
export BLK_GEMM_ONLY=${BLK_GEMM_ONLY:-BK=64 BM=128 BN=256 GROUP_M=8 num_warps=8 num_stages=3}
bash "$ROOT/bench/common/build_harness_on_device.sh" "$B" \
  gemm-bench bench/gemm/gemm_bench.cpp || exit 1
printf 'ab f16 4096 4096 4096\nab bf16 4096 4096 4096\nab f16 8192 8192 8192\nab bf16 8192 8192 8192\n' \
  > "$B/ab-cases.txt"
for r in $(seq 1 "$ROUNDS"); do
  for set in A B; do
    dir=$A; [ "$set" = B ] && dir=$B_SET
    "$B/gemm-bench" "$dir" "$B/ab-cases.txt" ab "$OUT/$set-$r.json" |
      awk -v set="$set" '/TFLOP\/s/ { for (i = 1; i < NF; ++i) if ($(i + 1) == "TFLOP/s") t = $i;
                                       print set, $1, $2, t } /FAIL/ { print set, "FAIL", $0 }'
  done
done | tee "$OUT/ab.txt"
awk '$2 != "FAIL" { s[$1" "$2" "$3] += $4; n[$1" "$2" "$3]++ }
     END { for (k in s) printf "mean %s %.1f (%d runs)\n", k, s[k] / n[k], n[k] }' "$OUT/ab.txt" | sort
