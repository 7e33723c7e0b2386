#!/usr/bin/env bash
# The GEMM benchmark of issue 14, in one call of the device machine:
# build libblkrt alone (-DBLK_BUILD_COMPILER=OFF, no tests) and the harness
# bench/gemm/gemm_bench.cpp, time the blk kernels (fatbins built here by
# bench/gemm/build_gemm_fatbins.sh into bench/gemm/fatbins/, carried along
# with .rtdeps), dump the SASS of every blk kernel and count its matrix and
# FMA instructions, then time Triton's tutorial kernel and cuBLAS on the same
# shapes (bench/gemm/gemm_ref.py) and print the tables.
#   [ROUNDS=R] bash bench/gemm/run_gemm_on_device.sh [quick|full]   (from the repository root)
# `quick`: every kernel on small ragged shapes plus one 4096^3 row; `full`:
# the issue's table (bench/gemm/cases.txt). Everything goes to $OUT (or
# /tmp/blk-gemm-out), at most 8 files: machine.txt, run.log, blk.json,
# results.json, table.md, sass_counts.txt, resources.txt, sass.txt.gz.
# ROUNDS=R (default 1) times blk and then Triton and cuBLAS R times in
# turn, each round's blk.json, results.json and table.md in $OUT/roundN/,
# and writes $OUT/rounds.md (bench/gemm/rounds_summary.py: each round's
# figures and the ratio of the medians), so that a drift of the clock over
# the call does not fall on one side only (bench/NOTES.md, session 23).
# With R > 1 that is more than the 8 files a device call brings back: pack
# $OUT into one archive (leaving sass.txt.gz out keeps it small).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
MODE=${1:-full}
OUT=${OUT:-/tmp/blk-gemm-out}
B=${BLK_BENCH_BUILD:-/tmp/blk-gemm-build}
FAT=${BLK_GEMM_FATBINS:-$ROOT/bench/gemm/fatbins}
mkdir -p "$OUT" "$B"
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
step() { echo; echo "=== $* ($(date +%T))"; }

main() {

step machine
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,clocks.mem,temperature.gpu,power.draw --format=csv
  python3 -c "import torch, triton; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'triton', triton.__version__)"
  nvcc --version | tail -2; g++ --version | head -1; nproc
} 2>&1 | tee "$OUT/machine.txt"
ls -l "$FAT"/*.fatbin || { echo "no fatbins in $FAT: run bench/gemm/build_gemm_fatbins.sh here and carry bench/gemm/fatbins"; return 1; }

step build
bash "$ROOT/bench/common/build_harness_on_device.sh" "$B" \
  gemm-bench bench/gemm/gemm_bench.cpp || return 1

step "sass and resource usage"
for f in "$FAT"/*.fatbin; do
  echo "##### $(basename "$f")"
  cuobjdump -sass "$f"
done > "$OUT/sass.txt" 2>&1
for f in "$FAT"/*.fatbin; do
  echo "##### $(basename "$f")"
  cuobjdump --dump-resource-usage "$f"
done > "$OUT/resources.txt" 2>&1
# GMMA: wgmma, which SASS names HGMMA (f16, bf16, tf32), IGMMA (i8), QGMMA (fp8).
awk '/Function :/ { fn = $3; order[++n] = fn }
     fn != "" && /\/\*[0-9a-f]+\*\// {
       if ($0 ~ /[HIQ]GMMA/) h[fn]++; if ($0 ~ /HMMA/) m[fn]++; if ($0 ~ /FFMA/) f[fn]++
       if ($0 ~ /LDSM/) s[fn]++; if ($0 ~ /LDGSTS/) a[fn]++; if ($0 ~ /UTMALDG/) t[fn]++
       if ($0 ~ /LDL/) ll[fn]++; if ($0 ~ /STL/) sl[fn]++ }
     END { for (i = 1; i <= n; ++i) { fn = order[i]
       printf "%s GMMA=%d HMMA=%d FFMA=%d LDSM=%d LDGSTS=%d UTMALDG=%d LDL=%d STL=%d\n", fn,
              h[fn], m[fn], f[fn], s[fn], a[fn], t[fn], ll[fn], sl[fn] } }' "$OUT/sass.txt" > "$OUT/sass_counts.txt"
cat "$OUT/sass_counts.txt"
gzip -f "$OUT/sass.txt"

ROUNDS=${ROUNDS:-1}
status=0
rounds=()
for r in $(seq 1 "$ROUNDS"); do
  D=$OUT
  [ "$ROUNDS" -gt 1 ] && D=$OUT/round$r && rounds+=("$D") && mkdir -p "$D"
  step "blk (libblkrt), $MODE, round $r of $ROUNDS"
  "$B/gemm-bench" "$FAT" "$ROOT/bench/gemm/cases.txt" "$MODE" "$D/blk.json" || status=1
  step "Triton, cuBLAS; tables, round $r of $ROUNDS"
  python3 "$ROOT/bench/gemm/gemm_ref.py" "$D/blk.json" "$D" "$MODE" "$FAT" "$OUT/sass_counts.txt" || status=1
done
if [ "$ROUNDS" -gt 1 ]; then
  step "rounds"
  python3 "$ROOT/bench/gemm/rounds_summary.py" "${rounds[@]}" | tee "$OUT/rounds.md" || status=1
fi
echo "exit $status"
return $status
}

main 2>&1 | tee "$OUT/run.log"
exit "${PIPESTATUS[0]}"
