#!/usr/bin/env bash
# Nsight Compute on the forward rows of prof_cases.txt: blk's entries
# named in $ENTRIES (default: the sample's first D = 64 causal and D = 128
# non-causal configs, their __auto variants) and Triton's FA2 kernel of
# attn_ref.py at BM=128 BN=128 s=3 w=8 (its best on the D = 128 row), one
# launch each, with the sections that say where the cycles go (tensor
# pipe, issue slots, warp stalls, shared memory) and each pipe's share. Run after run_attn_on_device.sh (reuses its
# build in $BLK_BENCH_BUILD). FATBIN overrides the fatbin; each entry's SASS
# goes to $OUT/sass-ENTRY.txt.
#   bash bench/attention/profile_attn_on_device.sh
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-/tmp/blk-attn-prof}
B=${BLK_BENCH_BUILD:-/tmp/blk-attn-build}
FAT=${FATBIN:-$ROOT/bench/attention/fatbins/attention.fatbin}
ENTRIES=${ENTRIES:-"attention_fwd__BM_256_BN_64_HEAD_DIM_64_CAUSAL_1_OVERLAP_1__w16__ws__auto attention_fwd__BM_128_BN_128_HEAD_DIM_128_CAUSAL_0_OVERLAP_1__w8__ws__auto"}
# Per-pipe issue shares (MUFU is the XU pipe): is the softmax waiting on
# MUFU or on issue slots? (bench/NOTES.md, session 22: exp2_on_fma.)
PIPES=sm__inst_executed_pipe_xu.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_fma.avg.pct_of_peak_sustained_active,sm__inst_executed_pipe_alu.avg.pct_of_peak_sustained_active,sm__pipe_tensor_op_gmma_cycles_active.avg.pct_of_peak_sustained_active,sm__issue_active.avg.pct_of_peak_sustained_active
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
SECTIONS=(--section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis
  --section SchedulerStats --section WarpStateStats --section Occupancy --section LaunchStats
  --section InstructionStats)
[ -x "$B/attn-bench" ] || { echo "no $B/attn-bench: run run_attn_on_device.sh first"; exit 1; }
for e in $ENTRIES; do
  echo "=== ncu blk $e"
  ncu "${SECTIONS[@]}" --kernel-name "$e" --launch-count 1 \
    "$B/attn-bench" "$FAT" "$ROOT/bench/attention/prof_cases.txt" prof /dev/null > "$OUT/ncu-$e.txt" 2>&1
  # A metric this ncu does not know fails only this run.
  ncu --metrics "$PIPES" --kernel-name "$e" --launch-count 1 \
    "$B/attn-bench" "$FAT" "$ROOT/bench/attention/prof_cases.txt" prof /dev/null > "$OUT/pipes-$e.txt" 2>&1 ||
    echo "ncu --metrics failed: $OUT/pipes-$e.txt"
  grep -E "pipe_|issue_active" "$OUT/pipes-$e.txt" | head -8
  cuobjdump -sass -fun "$e" "$FAT" > "$OUT/sass-$e.txt" 2>&1
  grep -E "Duration|Compute \(SM\) Throughput|Issue Slots Busy|Registers Per|Achieved Occupancy|Warp Cycles Per Issued|Shared Memory|L1/TEX Hit|Stall|No Eligible|Executed Ipc A" "$OUT/ncu-$e.txt" | head -30
done
echo "=== ncu triton"
cat > "$OUT/triton_one.py" <<PY
import math, sys, torch, triton
sys.path.insert(0, "$ROOT/bench/attention")
import attn_ref
Z, H, N, D = 4, 32, 4096, 128
q, k, v = ((torch.rand(Z, H, N, D, device="cuda") * 2 - 1).half() for _ in range(3))
o, m = torch.empty_like(q), torch.empty(Z * H * N, device="cuda", dtype=torch.float32)
for _ in range(2):
    attn_ref.attn_fwd_kernel[(N // 128, Z * H)](q, k, v, o, m, 1 / math.sqrt(D), N, HEAD_DIM=D,
        BLOCK_M=128, BLOCK_N=128, CAUSAL=False, num_stages=3, num_warps=8)
torch.cuda.synchronize()
PY
ncu "${SECTIONS[@]}" --kernel-name attn_fwd_kernel --launch-skip 1 --launch-count 1 \
  python3 "$OUT/triton_one.py" > "$OUT/ncu-triton.txt" 2>&1
grep -E "Duration|Compute \(SM\) Throughput|Issue Slots Busy|Registers Per|Achieved Occupancy|Warp Cycles Per Issued|Shared Memory|L1/TEX Hit|Stall|No Eligible|Executed Ipc A" "$OUT/ncu-triton.txt" | head -30
