#!/usr/bin/env bash
# The attention benchmark of issue 15, in one call of the device machine:
# build libblkrt alone and bench/attention/attn_bench.cpp, time blk's
# forward kernels (bench/attention/fatbins/attention.fatbin, built here by
# build_attn_fatbin.sh and carried with .rtdeps), count the SASS of each
# entry, then time a Triton FA2 kernel (its tutorial's search space) and
# PyTorch SDPA on the same shapes (attn_ref.py) and print the table.
#   [BLK_BENCH_WARMUP_MS=1000] bash bench/attention/run_attn_on_device.sh [quick|full]
# (BLK_BENCH_WARMUP_MS: the warm-up of every side, blk, Triton and SDPA;
# do_bench's 25 ms by default; bench/common/DoBench.h says why.)
# Everything goes to $OUT (or /tmp/blk-attn-out): machine.txt, run.log,
# blk.json, results.json, table.md, sass_counts.txt, resources.txt.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
MODE=${1:-full}
OUT=${OUT:-/tmp/blk-attn-out}
B=${BLK_BENCH_BUILD:-/tmp/blk-attn-build}
FAT=$ROOT/bench/attention/fatbins/attention.fatbin
mkdir -p "$OUT" "$B"
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
step() { echo; echo "=== $* ($(date +%T))"; }

main() {
step machine
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv
  python3 -c "import torch, triton; print('torch', torch.__version__, 'triton', triton.__version__)"
} 2>&1 | tee "$OUT/machine.txt"
[ -f "$FAT" ] || { echo "no $FAT: run bench/attention/build_attn_fatbin.sh here and carry bench/attention/fatbins"; return 1; }

step build
bash "$ROOT/bench/common/build_harness_on_device.sh" "$B" \
  attn-bench bench/attention/attn_bench.cpp || return 1

step "sass and resource usage"
cuobjdump -sass "$FAT" > "$B/sass.txt" 2>&1
cuobjdump --dump-resource-usage "$FAT" > "$OUT/resources.txt" 2>&1
awk '/Function :/ { fn = $3; order[++n] = fn }
     fn != "" && /\/\*[0-9a-f]+\*\// {
       if ($0 ~ /HGMMA/) h[fn]++; if ($0 ~ /MUFU.EX2/) x[fn]++; if ($0 ~ /LDGSTS/) a[fn]++
       if ($0 ~ /BAR.SYNC/) b[fn]++; if ($0 ~ /LDL/) ll[fn]++; if ($0 ~ /STL/) sl[fn]++ }
     END { for (i = 1; i <= n; ++i) { fn = order[i]
       printf "%s HGMMA=%d EX2=%d LDGSTS=%d BAR=%d LDL=%d STL=%d\n", fn, h[fn], x[fn], a[fn], b[fn], ll[fn], sl[fn] } }' \
  "$B/sass.txt" > "$OUT/sass_counts.txt"
cat "$OUT/sass_counts.txt"

step "blk (libblkrt), $MODE"
"$B/attn-bench" "$FAT" "$ROOT/bench/attention/cases.txt" "$MODE" "$OUT/blk.json"
status=$?

step "Triton, SDPA; table"
python3 "$ROOT/bench/attention/attn_ref.py" "$OUT/blk.json" "$OUT" "$MODE" || status=1
echo "exit $status"
return $status
}

main 2>&1 | tee "$OUT/run.log"
exit "${PIPESTATUS[0]}"
