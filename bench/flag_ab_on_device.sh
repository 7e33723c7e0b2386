#!/usr/bin/env bash
# The device side of an A/B of a blkc flag (bench/flag_ab_build.sh packed
# the fatbins into build-carry/flag-ab.tar.xz; carry build-carry and
# .rtdeps). One phase per call, each well inside a call's 10 minutes, with
# every step under `timeout` and its logs in $OUT (or /tmp/blk-flag-ab-out):
#   check  the samples' GPU session with samplesB (every host program,
#          `gpu` ctest, compute-sanitizer memcheck); every GEMM kernel of
#          gemmB over cases.txt's `quick` shapes (each config checked
#          against float64); the attention fatbins B, C, D over the `chk`
#          shapes (forward and backward, checked against float64). ~5 min.
#   speed  the four f16 forward rows (`ab`) for attnA, attnB, attnC, attnD,
#          ROUNDS alternations (default 2); the GEMM table config, gemmA
#          against gemmB (bench/gemm/ab_on_device.sh). ~6 min. GEMM=0
#          leaves the GEMM out; ATTN_TIMEOUT (360 s) bounds the rows.
#   cost   what a program costs besides its blocks (ncu, session 25's
#          method) for attnA and the last of attnB / C / D. ~1 min.
#   bash bench/flag_ab_on_device.sh check|speed|cost   (repository root)
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
PHASE=${1:?usage: flag_ab_on_device.sh check|speed|cost}
OUT=${OUT:-/tmp/blk-flag-ab-out}
F=/tmp/blk-flag-ab
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
[ -d "$F/attnA" ] || { mkdir -p "$F" && tar xJf "$ROOT/build-carry/flag-ab.tar.xz" -C "$F"; } ||
  { echo "flag_ab_on_device.sh: cannot unpack build-carry/flag-ab.tar.xz"; exit 1; }
attn=("$F/attnB/attention.fatbin")
for variant in C D; do
  [ -f "$F/attn$variant/attention.fatbin" ] && attn+=("$F/attn$variant/attention.fatbin")
done
step() { echo; echo "=== $* ($(date +%T))"; }
status=0
case $PHASE in
check)
  step "samples with flag B"
  OUT=$OUT/samples BLK_SAMPLES_FATBIN_DIR=$F/samplesB timeout 240 \
    bash "$ROOT/tests/gpu/samples_on_device.sh" > "$OUT/samples.log" 2>&1 || status=1
  grep -E "^exit|^memcheck|samples on device|tests passed" "$OUT/samples.log"
  step "GEMM kernels B, quick shapes"
  timeout 60 bash "$ROOT/bench/common/build_harness_on_device.sh" /tmp/blk-gemm-build gemm-bench \
    bench/gemm/gemm_bench.cpp \
    > "$OUT/gemm-build.log" 2>&1 || { tail "$OUT/gemm-build.log"; status=1; }
  timeout 150 /tmp/blk-gemm-build/gemm-bench "$F/gemmB" "$ROOT/bench/gemm/cases.txt" quick \
    "$OUT/gemmB-quick.json" > "$OUT/gemmB-quick.log" 2>&1 || status=1
  echo "$(grep -c "TFLOP/s" "$OUT/gemmB-quick.log") timed, $(grep -c FAIL "$OUT/gemmB-quick.log") FAIL"
  grep FAIL "$OUT/gemmB-quick.log" | head
  step "attention B (C) on the chk shapes"
  OUT=$OUT/chk ROUNDS=1 TIMEOUT=90 timeout 200 \
    bash "$ROOT/bench/attention/blk_only_on_device.sh" chk "${attn[@]}" > "$OUT/chk.log" 2>&1 ||
    status=1
  grep -E "runs, |exit status|FAIL" "$OUT/chk.log" | head -20
  ;;
speed)
  step "attention forward rows, A B (C D)"
  OUT=$OUT/ab ROUNDS=${ROUNDS:-2} TIMEOUT=80 BLK_BENCH_WARMUP_MS=${BLK_BENCH_WARMUP_MS:-1000} \
    timeout "${ATTN_TIMEOUT:-360}" bash "$ROOT/bench/attention/blk_only_on_device.sh" ab \
    "$F/attnA/attention.fatbin" "${attn[@]}" > "$OUT/ab.log" 2>&1 || status=1
  grep -vE "^===|^name" "$OUT/ab.log" | tail -30
  [ "${GEMM:-1}" = 0 ] && { echo "(GEMM=0: no GEMM A/B)"; exit $status; }
  step "GEMM A against B"
  OUT=$OUT/gemm timeout 200 bash "$ROOT/bench/gemm/ab_on_device.sh" "$F/gemmA" "$F/gemmB" 2 \
    > "$OUT/gemm.log" 2>&1 || status=1
  grep "^mean" "$OUT/gemm.log"
  ;;
cost)
  for fat in "$F/attnA/attention.fatbin" "${attn[-1]}"; do
    step "program cost of $fat"
    OUT=$OUT/cost-$(basename "$(dirname "$fat")") timeout 90 \
      bash "$ROOT/bench/attention/program_cost_on_device.sh" "$fat" "f16 4 32 64" 2048 8192 2>&1 |
      tail -6 || status=1
  done
  ;;
*) echo "flag_ab_on_device.sh: no phase $PHASE (check, speed or cost)"; exit 2 ;;
esac
echo; echo "flag_ab_on_device.sh $PHASE: $([ $status = 0 ] && echo "done" || echo FAILED)"
exit $status
