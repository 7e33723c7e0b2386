#!/usr/bin/env bash
# What a program of one forward entry costs besides its blocks (session 25,
# bench/NOTES.md): ncu on one launch of ENTRY (non-causal) at each sequence
# length, then program_cost.py's fit. About 15 s of device time for two.
#   [ENTRY=attention_fwd__…__auto] bash bench/attention/program_cost_on_device.sh \
#     FATBIN "DTYPE Z H D" N...
# e.g. bash bench/attention/program_cost_on_device.sh \
#        bench/attention/fatbins/attention.fatbin "f16 4 32 64" 2048 8192
# Everything goes to $OUT (or /tmp/blk-attn-cost): n<N>.txt and fit.txt.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FAT=${1:?usage: program_cost_on_device.sh FATBIN "DTYPE Z H D" N...}
SHAPE=${2:?usage: program_cost_on_device.sh FATBIN "DTYPE Z H D" N...}
shift 2
[ $# -ge 2 ] || { echo "program_cost_on_device.sh: give two or more N"; exit 2; }
ENTRY=${ENTRY:-attention_fwd__BM_256_BN_64_HEAD_DIM_64_CAUSAL_0_OVERLAP_1__w16__ws__auto}
OUT=${OUT:-/tmp/blk-attn-cost}
B=${BLK_BENCH_BUILD:-/tmp/blk-attn-build}
mkdir -p "$OUT" "$B"
export PATH=/usr/local/cuda/bin:$PATH
[ -x "$B/attn-bench" ] || bash "$ROOT/bench/common/build_harness_on_device.sh" "$B" \
  attn-bench bench/attention/attn_bench.cpp || exit 1
read -r dtype z h d <<< "$SHAPE"
files=()
for n in "$@"; do
  echo "cost $dtype $z $h $n $d 0" > "$OUT/case-$n.txt"
  timeout 120 ncu --metrics sm__cycles_active.avg,gpc__cycles_elapsed.max,launch__grid_size \
    --kernel-name "$ENTRY" --launch-count 1 "$B/attn-bench" "$FAT" "$OUT/case-$n.txt" cost /dev/null \
    > "$OUT/n$n.txt" 2>&1 || echo "ncu at N = $n failed: $OUT/n$n.txt"
  files+=("$OUT/n$n.txt")
done
python3 "$ROOT/bench/attention/program_cost.py" "${files[@]}" | tee "$OUT/fit.txt"
