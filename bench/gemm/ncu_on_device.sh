#!/usr/bin/env bash
# Nsight Compute profiles of one GEMM case, blk's kernel and Triton's
# tutorial kernel in the same config, in one call of the device machine:
#   bash bench/gemm/ncu_on_device.sh KIND M N K BM BN BK GROUP_M STAGES WARPS
# (from the repository root, carrying bench/gemm/fatbins and .rtdeps). For
# each of the two: the full set at ncu's base clocks (cycles comparable
# run to run) and a few metrics at the clocks the GPU chooses (what the
# timed benchmark sees). Reports (details page as text, raw metrics as
# CSV) go to $OUT.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-/tmp/blk-ncu-out}
B=${BLK_BENCH_BUILD:-/tmp/blk-gemm-build}
FAT=${BLK_GEMM_FATBINS:-$ROOT/bench/gemm/fatbins}
KIND=$1 M=$2 N=$3 K=$4 BM=$5 BN=$6 BK=$7 GM=$8 NS=$9 NW=${10}
mkdir -p "$OUT" "$B"
export PATH=/usr/local/cuda/bin:$PATH PYTHONUNBUFFERED=1
lib=$(bash "$ROOT/scripts/device-build-runtime.sh" "$B" "$B") || exit 1
g++ -O2 -std=c++17 -I "$ROOT/runtime/include" "$ROOT/bench/gemm/gemm_bench.cpp" \
  -o "$B/gemm-bench" -L"$lib" -lblkrt -Wl,-rpath,"$lib" || exit 1
printf 'ncu %s %s %s %s\n' "$KIND" "$M" "$N" "$K" > "$B/cases.txt"
# gemm-bench's config string lists the config values by name, sorted.
export BLK_GEMM_ONLY="BK=$BK BM=$BM BN=$BN GROUP_M=$GM num_warps=$NW num_stages=$NS"
LIVE=gpu__time_duration.sum,sm__cycles_elapsed.avg.per_second,sm__cycles_elapsed.max,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active

profile() { # NAME REGEX COMMAND...
  local name=$1 regex=$2; shift 2
  ncu --target-processes all -k "regex:$regex" --launch-skip 3 --launch-count 1 \
      --set full -f -o "$OUT/$name" "$@" > "$OUT/$name.log" 2>&1 ||
    { tail -20 "$OUT/$name.log"; return 1; }
  ncu -i "$OUT/$name.ncu-rep" --page details > "$OUT/$name-details.txt"
  ncu -i "$OUT/$name.ncu-rep" --page raw --csv > "$OUT/$name-raw.csv"
  ncu --target-processes all -k "regex:$regex" --launch-skip 3 --launch-count 3 \
      --clock-control none --metrics "$LIVE" "$@" > "$OUT/$name-live.txt" 2>&1
  grep -E "gpu__time|per_second|cycles_elapsed.max|gmma" "$OUT/$name-live.txt"
  rm -f "$OUT/$name.ncu-rep"
}
echo "=== blk $KIND ${M}x${N}x${K} $BLK_GEMM_ONLY"
profile blk "matmul" "$B/gemm-bench" "$FAT" "$B/cases.txt" ncu "$OUT/blk.json"
echo "=== triton"
(cd "$ROOT/bench/gemm" && profile triton "matmul_kernel" python3 ncu_triton.py \
  "$KIND" "$M" "$N" "$K" "$BM" "$BN" "$BK" "$GM" "$NS" "$NW")
# Steady state: each kernel alone for 8 s, GPU clocks and power sampled.
soak() { # NAME COMMAND...
  local name=$1; shift
  nvidia-smi --query-gpu=clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 250 \
    > "$OUT/$name-smi.csv" & local smi=$!
  "$@" 2>&1 | grep soak
  kill $smi
  echo "$name last 2 s of nvidia-smi (MHz, W, C):"; tail -8 "$OUT/$name-smi.csv" | tr '\n' ' '; echo
}
sleep 5; soak blk-soak env BLK_GEMM_SOAK_S=8 "$B/gemm-bench" "$FAT" "$B/cases.txt" ncu "$OUT/blk.json"
sleep 5; (cd "$ROOT/bench/gemm" && soak triton-soak python3 ncu_triton.py \
  "$KIND" "$M" "$N" "$K" "$BM" "$BN" "$BK" "$GM" "$NS" "$NW" 8)
for f in blk triton; do
  echo "=== $f: headline"
  grep -E "Duration|SM Frequency|Registers Per|Shared Memory Config|Achieved Occupancy|Compute \(SM\) Throughput|Memory Throughput|L2 Hit Rate|Executed Ipc Active|Issue Slots Busy|No Eligible" "$OUT/$f-details.txt" | head -30
done
# Triton's PTX and SASS of the profiled kernel, to read next to blk's.
ptx=$(ls -t "${TRITON_CACHE_DIR:-$HOME/.triton/cache}"/*/matmul_kernel.ptx 2>/dev/null | head -1)
[ -n "$ptx" ] && cp "$ptx" "$OUT/triton.ptx" &&
  cp "${ptx%.ptx}.cubin" "$OUT/triton.cubin" 2>/dev/null &&
  cuobjdump -sass "$OUT/triton.cubin" > "$OUT/triton.sass" 2>&1
for f in "$FAT"/gemm_$KIND.fatbin; do cuobjdump -sass "$f" > "$OUT/blk.sass" 2>&1; done
