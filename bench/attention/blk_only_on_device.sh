#!/usr/bin/env bash
# blk's attention kernels alone (no Triton, no SDPA), several fatbins timed
# in one call of the device machine, so that compiler or sample changes
# compare on the same GPU: builds libblkrt and attn-bench once, then runs
# every fatbin over the cases of MODE, and counts each fatbin's SASS.
#   [CASES=bench/attention/bwd_cases.txt] [ROUNDS=2] [TIMEOUT=300] [BLK_BENCH_WARMUP_MS=1000] \
#     bash bench/attention/blk_only_on_device.sh MODE FATBIN...
# (fatbins built here with blkc and carried; paths relative to the repo root
# or absolute;
# CASES defaults to bench/attention/cases.txt, e.g. MODE d128 / d64 / ragged
# with ragged_cases.txt). Each fatbin is named by its folder and file
# (fatbins-turns-attention), so A/B builds of one source do not collide.
# Logs and JSON per fatbin and round in $OUT (or /tmp/blk-attn-out); the
# best config per shape is printed at the end.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
MODE=${1:?usage: blk_only_on_device.sh MODE FATBIN...}
shift
OUT=${OUT:-/tmp/blk-attn-out}
CASES=${CASES:-bench/attention/cases.txt}
B=${BLK_BENCH_BUILD:-/tmp/blk-attn-build}
mkdir -p "$OUT" "$B"
# A path as given when absolute, else under the repository root.
path() { case $1 in /*) echo "$1" ;; *) echo "$ROOT/$1" ;; esac; }
CASES=$(path "$CASES")
[ -r "$CASES" ] || { echo "blk_only_on_device.sh: cannot read the cases $CASES"; exit 1; }
export PATH=/usr/local/cuda/bin:$PATH
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu --format=csv
[ -x "$B/attn-bench" ] || bash "$ROOT/bench/common/build_harness_on_device.sh" "$B" \
  attn-bench bench/attention/attn_bench.cpp || exit 1
status=0
# A fatbin's name in logs and JSON: folder-file (fatbins-turns-attention).
label() { echo "$(basename "$(dirname "$1")")-$(basename "$1" .fatbin)"; }
for fat in "$@"; do
  name=$(label "$fat")
  cuobjdump -sass "$(path "$fat")" | awk '/Function :/ { fn = $3; order[++n] = fn }
     fn != "" && /\/\*[0-9a-f]+\*\// {
       if ($0 ~ /HGMMA/) h[fn]++; if ($0 ~ /WARPGROUP.DEPBAR/) w[fn]++; if ($0 ~ /BAR.SYNC/) b[fn]++
       if ($0 ~ /LDL/) ll[fn]++; if ($0 ~ /STL/) sl[fn]++ }
     END { for (i = 1; i <= n; ++i) { fn = order[i]
       printf "%s HGMMA=%d DEPBAR=%d BAR=%d LDL=%d STL=%d\n", fn, h[fn], w[fn], b[fn], ll[fn], sl[fn] } }' \
    > "$OUT/$name.sass_counts.txt"
done
# ROUNDS alternations over the fatbins (single runs spread a few per cent);
# each run under `timeout` (TIMEOUT seconds), so a kernel that hangs (a
# deadlock) costs one run, not the call.
for r in $(seq 1 "${ROUNDS:-1}"); do
  for fat in "$@"; do
    name=$(label "$fat")
    echo "=== $name, round $r ($(date +%T))"
    timeout "${TIMEOUT:-300}" "$B/attn-bench" "$(path "$fat")" "$CASES" "$MODE" "$OUT/$name.r$r.json" \
      > "$OUT/$name.r$r.log" 2>&1
    rc=$?
    [ "$rc" = 0 ] || { status=1; echo "exit status $rc (124: timed out)"; }
    grep -E "FAIL|error" "$OUT/$name.r$r.log" | head -20
  done
done
# Best passing config per shape, per fatbin and round; failures counted.
python3 - "$OUT" $(for fat in "$@"; do label "$fat"; done) <<'PY'
import json, os, sys, glob
out = sys.argv[1]
for name in sys.argv[2:]:
    for path in sorted(glob.glob(os.path.join(out, name + ".r*.json"))):
        try:
            records = json.load(open(path))
        except (OSError, ValueError) as e:
            print(f"{os.path.basename(path)}: unreadable ({e})")
            continue
        best, failed = {}, 0
        for r in records:
            if not r["ok"]:
                failed += 1
            elif r["tflops"] > best.get(r["shape"], {"tflops": -1})["tflops"]:
                best[r["shape"]] = r
        for shape, r in best.items():
            print(f"{os.path.basename(path)[:-5]:40} {shape:28} {r['tflops']:7.1f}  {r['config']}")
        print(f"{os.path.basename(path)[:-5]:40} {len(records)} runs, {failed} failed")
PY
exit $status
