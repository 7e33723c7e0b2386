#!/usr/bin/env bash
# The device benchmark of issue 8, in one call of the device machine:
# build libblkrt alone (-DBLK_BUILD_COMPILER=OFF, no tests) and the harness
# bench/blk_bench.cpp, time the blk kernels (fatbins built here by
# bench/build_fatbins.sh into bench/fatbins/, carried along), time the same
# kernels in Triton and PyTorch plus a device copy (bench/triton_ref.py),
# print the table, and dump the SASS of every blk kernel.
#   bash bench/run_on_device.sh            (from the repository root)
# Logs and results go to $OUT (or /tmp/blk-bench-out).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-/tmp/blk-bench-out}
B=${BLK_BENCH_BUILD:-/tmp/blk-bench-build}
FAT=${BLK_BENCH_FATBINS:-$ROOT/bench/fatbins}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
step() { echo; echo "=== $* ($(date +%T))"; }

step machine
{
  date -u
  nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv
  python3 -c "import torch, triton; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'triton', triton.__version__)"
  nvcc --version | tail -2; g++ --version | head -1
} 2>&1 | tee "$OUT/machine.txt"

step build
lib=$(bash "$ROOT/scripts/device-build-runtime.sh" "$B" "$B") || exit 1
g++ -O2 -std=c++17 -I "$ROOT/runtime/include" "$ROOT/bench/blk_bench.cpp" \
  -o "$B/blk-bench" -L"$lib" -lblkrt -Wl,-rpath,"$lib" || exit 1

step "blk (libblkrt)"
"$B/blk-bench" "$FAT" "$OUT/blk.json" 2>&1 | tee "$OUT/blk.log"
status=${PIPESTATUS[0]}

step "Triton, PyTorch, device copy; table"
python3 "$ROOT/bench/triton_ref.py" "$OUT/blk.json" "$OUT" 2>&1 | tee "$OUT/triton.log"
[ "${PIPESTATUS[0]}" = 0 ] || status=1

step sass
for f in "$FAT"/*.fatbin; do
  echo "##### $(basename "$f")"
  cuobjdump -sass "$f"
done > "$OUT/sass.txt" 2>&1
grep -c "LDG.E.128" "$OUT/sass.txt" | sed 's/^/LDG.E.128 lines: /'
echo "exit $status"
exit $status
