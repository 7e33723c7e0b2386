#!/usr/bin/env bash
# Benchmark (not a test): time `blkc check` on a generated 2,000-line file
# with 100 kernels (20 lines each, 2 configs each). Prints the median and
# minimum wall time of RUNS runs in ms; the goal is < 150 ms.
# Usage: bench/check_speed.sh [BLKC] [RUNS]
set -euo pipefail
blkc=${1:-build/bin/blkc}
runs=${2:-10}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
src=$work/bench.blk

python3 - "$src" <<'PY'
import sys
kernel = '''// kernel {i}: scaled, masked copy with a reduction
@config(BLOCK = 1024, num_warps = 4)
@config(BLOCK = 256, num_warps = 2)
@grid(cdiv(n, BLOCK))
kernel k{i}(x: *f32 @aligned(16), y: *f32, out: *f32, n: i32 @multiple_of(16),
           alpha: f32, const BLOCK: i32) {{
    let pid = program_id(0);
    let offsets = pid * BLOCK + arange(0, BLOCK);
    let mask = offsets < n;
    let a = load(x + offsets, mask: mask, other: 0.0);
    let b = load(y + offsets, mask: mask, other: 0.0);
    var acc = zeros([BLOCK], f32);
    acc += a * alpha + b;
    if pid == 0 {{
        acc = acc * 2.0;
    }}
    // reduce, then normalise
    let total = sum(acc, 0);
    store(out + offsets, acc / (total + 1.0), mask: mask);
}}
'''
text = ''.join(kernel.format(i=i) for i in range(100))
open(sys.argv[1], 'w').write(text)
PY

lines=$(wc -l < "$src")
"$blkc" check "$src" || { echo "bench: the generated file does not check clean" >&2; exit 1; }
# Wall time is what users see; CPU time (user + sys) is also printed because
# on a busy shared machine wall time mostly measures waiting for a core.
python3 - "$blkc" "$src" "$runs" "$lines" <<'PY'
import resource, statistics, subprocess, sys, time
blkc, src, runs, lines = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
walls, cpus = [], []
for _ in range(runs):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([blkc, "check", src], check=True)
    walls.append((time.perf_counter() - start) * 1000)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpus.append(((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1000)
print("blkc check: %s lines, 100 kernels, 200 specialisations, %d runs: "
      "wall median %.0f ms (min %.0f), CPU median %.0f ms (min %.0f); goal < 150 ms"
      % (lines, runs, statistics.median(walls), min(walls), statistics.median(cpus), min(cpus)))
PY
