#!/usr/bin/env bash
# Speed of the CPU interpreter through whole `blkc run` processes (issue 6,
# "Speed"): row softmax over 1024 x 1024 f32 (samples/softmax.blk, 1024
# programs) and a sum over 2^24 f32 elements (samples/sum_gridstride.blk,
# BLOCK = 1024, 16384 chunks). Prints the median wall time and CPU time
# (user + sys) of N runs each; the goal is under 1 s each. On a loaded
# machine the CPU time is the meaningful figure.
#
#   bench/interp_speed.sh [BUILD_DIR] [RUNS]      (default: build, 3)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
runs=${2:-3}
blkc=$build/bin/blkc
[ -x "$blkc" ] || { echo "interp_speed: no blkc at $blkc (build it first)" >&2; exit 1; }

n=$((1 << 24))
softmax=("$blkc" run "$root/samples/softmax.blk" -k softmax -D BLOCK=1024
         --arg out=zeros:f32:1048576 --arg inp=rand:f32:1048576 --arg in_row_stride=1024
         --arg out_row_stride=1024 --arg n_rows=1024 --arg n_cols=1024)
sum=("$blkc" run "$root/samples/sum_gridstride.blk" -k sum_gridstride -D BLOCK=1024
     -D NUM_CHUNKS=$((n / 1024)) --arg x=fill:f32:$n:1 --arg out=zeros:f32:1 --arg n=$n
     --print out)

# The sum must be exact (2^24 ones fit an f32 exactly): a fast wrong answer is no result.
got=$("${sum[@]}")
[ "$got" = "out = [$n]" ] || { echo "interp_speed: sum gave '$got', expected out = [$n]" >&2; exit 1; }

measure() {
  python3 - "$runs" "$@" <<'PY'
import resource, subprocess, sys, time
runs, cmd = int(sys.argv[1]), sys.argv[2:]
walls, cpus = [], []
for _ in range(runs):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
    walls.append(time.perf_counter() - start)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
walls.sort(); cpus.sort()
print(f"{walls[len(walls) // 2]:.3f} s wall, {cpus[len(cpus) // 2]:.3f} s cpu")
PY
}

echo "softmax 1024x1024 f32:   $(measure "${softmax[@]}")"
echo "sum over 2^24 f32:       $(measure "${sum[@]}")"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
