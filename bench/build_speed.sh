#!/usr/bin/env bash
# Wall time of whole `blkc build` processes (issue 4, "Speed"): for every
# sample, the median of N runs to an sm_90 fatbin, per process and per
# specialisation, then one `-v` run of the slowest sample showing which phase
# dominates. Goal: under 40 ms per specialisation.
#
#   bench/build_speed.sh [BUILD_DIR] [RUNS]      (default: build, 5)
#   BLK_BENCH_ARCH=sm_80,sm_90 bench/build_speed.sh ...
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
runs=${2:-5}
arch=${BLK_BENCH_ARCH:-sm_90}
blkc=$build/bin/blkc
[ -x "$blkc" ] || { echo "build_speed: no blkc at $blkc (build it first)" >&2; exit 1; }
cuda=${CUDA_HOME:-/usr/local/cuda}
[ -x "$cuda/bin/fatbinary" ] || { echo "build_speed: skipped: no CUDA toolkit at $cuda" >&2; exit 0; }

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Median wall time and median CPU time (user+sys of blkc and the fatbinary
# it runs) in ms of `blkc build` on one sample; one run first warms caches.
# On a loaded machine wall time inflates, CPU time much less.
measure() {
  local sample=$1 out=$2
  "$blkc" build "$sample" --arch "$arch" -o "$out" >/dev/null 2>&1 || return 1
  python3 - "$runs" "$blkc" "$sample" "$arch" "$out" <<'PY'
import os, subprocess, sys, time
runs, blkc, sample, arch, out = int(sys.argv[1]), *sys.argv[2:]
walls, cpus = [], []
for _ in range(runs):
    start = time.perf_counter()
    before = os.times()
    subprocess.run([blkc, "build", sample, "--arch", arch, "-o", out], check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = os.times()
    walls.append((time.perf_counter() - start) * 1000)
    cpus.append((after.children_user - before.children_user +
                 after.children_system - before.children_system) * 1000)
walls.sort()
cpus.sort()
print(f"{walls[len(walls) // 2]:.1f} {cpus[len(cpus) // 2]:.1f}")
PY
}

# Number of specialisations in a built artifact (from its manifest).
count_specs() {
  "$blkc" inspect --manifest "$1" | python3 -c '
import json, sys
m = json.load(sys.stdin)
print(sum(len(k["specializations"]) for k in m["kernels"]))'
}

printf "%-28s %6s %10s %10s %12s\n" sample specs "wall ms" "cpu ms" "wall ms/spec"
slowest="" slowest_ms=0 total_ms=0 total_specs=0
shopt -s nullglob
for sample in "$root"/samples/*.blk; do
  name=$(basename "$sample" .blk)
  out=$tmp/$name.fatbin
  if ! times=$(measure "$sample" "$out"); then
    printf "%-28s %s\n" "$name" "(does not build: expected-failure sample?)"
    continue
  fi
  read -r ms cpu <<< "$times"
  specs=$(count_specs "$out")
  per=$(python3 -c "print(f'{$ms / max($specs, 1):.1f}')")
  printf "%-28s %6s %10s %10s %12s\n" "$name" "$specs" "$ms" "$cpu" "$per"
  total_ms=$(python3 -c "print($total_ms + $ms)")
  total_specs=$((total_specs + specs))
  if python3 -c "import sys; sys.exit(0 if $ms > $slowest_ms else 1)"; then
    slowest=$sample slowest_ms=$ms
  fi
done
[ -n "$slowest" ] || { echo "build_speed: no sample built" >&2; exit 1; }
python3 -c "print(f'all samples: {$total_ms:.1f} ms for $total_specs specialisations, '
             f'{$total_ms / max($total_specs, 1):.1f} ms per specialisation (goal < 40)')"

echo
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
echo "phases of the slowest sample, $(basename "$slowest") (blkc build --time-stages):"
"$blkc" build "$slowest" --arch "$arch" -o "$tmp/slowest.fatbin" --time-stages 2>&1 | grep -E '^blkc: time' || true
# Process start-up (dynamic loading of libLLVM/libMLIR) is outside every phase.
python3 - "$blkc" <<'PY'
import subprocess, sys, time
times = []
for _ in range(5):
    start = time.perf_counter()
    subprocess.run([sys.argv[1], "--version"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    times.append((time.perf_counter() - start) * 1000)
times.sort()
print(f"blkc: time {'process start (blkc --version)':<24s} {times[2]:8.2f} ms")
PY
