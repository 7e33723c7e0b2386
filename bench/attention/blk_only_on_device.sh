#!/usr/bin/env bash
# blk's attention kernels alone (no Triton, no SDPA), several fatbins timed
# in one call of the device machine, so that compiler or sample changes
# compare on the same GPU: builds libblkrt and attn-bench once, then runs
# every fatbin over the cases of MODE, and counts each fatbin's SASS.
#   [CASES=bench/attention/bwd_cases.txt] bash bench/attention/blk_only_on_device.sh MODE FATBIN...
# (fatbins built here with blkc and carried; paths relative to the repo root;
# CASES defaults to bench/attention/cases.txt).
# Logs and JSON per fatbin in $OUT (or /tmp/blk-attn-out).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
MODE=${1:?usage: blk_only_on_device.sh MODE FATBIN...}
shift
OUT=${OUT:-/tmp/blk-attn-out}
CASES=${CASES:-bench/attention/cases.txt}
B=${BLK_BENCH_BUILD:-/tmp/blk-attn-build}
mkdir -p "$OUT" "$B"
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv
[ -x "$B/attn-bench" ] || {
lib=$(bash "$ROOT/scripts/device-build-runtime.sh" "$B" "$B") || exit 1
g++ -O2 -std=c++17 -Wall -Wextra -I "$ROOT/runtime/include" "$ROOT/bench/attention/attn_bench.cpp" \
  -o "$B/attn-bench" -L"$lib" -lblkrt -Wl,-rpath,"$lib" || exit 1
}
status=0
for fat in "$@"; do
  name=$(basename "$fat" .fatbin)
  echo "=== $name ($(date +%T))"
  cuobjdump -sass "$ROOT/$fat" | awk '/Function :/ { fn = $3; order[++n] = fn }
     fn != "" && /\/\*[0-9a-f]+\*\// {
       if ($0 ~ /HGMMA/) h[fn]++; if ($0 ~ /WARPGROUP.DEPBAR/) w[fn]++; if ($0 ~ /BAR.SYNC/) b[fn]++
       if ($0 ~ /LDL/) ll[fn]++; if ($0 ~ /STL/) sl[fn]++ }
     END { for (i = 1; i <= n; ++i) { fn = order[i]
       printf "%s HGMMA=%d DEPBAR=%d BAR=%d LDL=%d STL=%d\n", fn, h[fn], w[fn], b[fn], ll[fn], sl[fn] } }' \
    > "$OUT/$name.sass_counts.txt"
  "$B/attn-bench" "$ROOT/$fat" "$ROOT/$CASES" "$MODE" "$OUT/$name.json" 2>&1 |
    tee "$OUT/$name.log" || status=1
done
exit $status
