#!/usr/bin/env bash
# blk-bench on the GPU (no LLVM there): vector_add (GB/s) and matmul
# (TFLOP/s) fatbins built here by blkc, each checked with --expect against
# the interpreter's result computed here (`blkc run --out`) on the same
# `rand:` specs, then timed; a file that differs must fail with exit 1.
#   here:   bash tests/gpu/bench_cli_on_device.sh --prepare [BLKC]
#           (writes build-bench-carry/: ignored, carried to the machine)
#   there:  bash tests/gpu/bench_cli_on_device.sh
# nlohmann-json missing on the machine is taken from .rtdeps/include. Logs in $OUT.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CARRY=$ROOT/build-bench-carry
VA=(x=rand:f32:1048576:1 y=rand:f32:1048576:2 out=zeros:f32:1048576 n=1048576)
MM=(a=rand:f32:262144:3 b=rand:f32:262144:4 c=zeros:f32:262144 M=512 N=512 K=512
    sam=512 sak=1 sbk=512 sbn=1 scm=512 scn=1)

if [ "${1:-}" = --prepare ]; then
  BLKC=${2:-$ROOT/build/bin/blkc}
  mkdir -p "$CARRY"
  set -e
  "$BLKC" build "$ROOT/samples/vector_add.blk" -o "$CARRY/vector_add.fatbin"
  "$BLKC" build "$ROOT/samples/matmul.blk" -o "$CARRY/matmul.fatbin"
  "$BLKC" run "$ROOT/samples/vector_add.blk" -k vector_add "${VA[@]/#/--arg=}" \
    --out "out=$CARRY/vector_add.out" --threads 8
  "$BLKC" run "$ROOT/samples/matmul.blk" -k matmul "${MM[@]/#/--arg=}" \
    --out "c=$CARRY/matmul.c" --threads 8
  # One element changed: blk-bench must see it.
  cp "$CARRY/vector_add.out" "$CARRY/vector_add.bad"
  printf '\x00\x00\x80\x7f' | dd of="$CARRY/vector_add.bad" bs=1 seek=4000 conv=notrunc 2> /dev/null
  ls -l "$CARRY"
  exit 0
fi

OUT=${OUT:-/tmp/blk-device-out}
B=${BLK_DEVICE_BUILD:-/tmp/blk-bench-build}
mkdir -p "$OUT"
step() { echo; echo "=== $* ($(date +%T))"; }
[ -f "$CARRY/vector_add.fatbin" ] || { echo "run --prepare here first"; exit 1; }

step machine
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
export PATH=/usr/local/cuda/bin:$PATH
extra=()
if [ ! -f /usr/include/nlohmann/json.hpp ]; then
  extra+=(-DBLK_NLOHMANN_JSON_INCLUDE_DIR="$ROOT/.rtdeps/include")
fi
step "configure + build blk-bench (runtime only)"
cmake -S "$ROOT" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DBLK_BUILD_COMPILER=OFF -DBLK_BUILD_TESTS=OFF "${extra[@]}" > "$OUT/configure.log" 2>&1 ||
  { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build "$B" -j "$(nproc)" --target blk-bench > "$OUT/build.log" 2>&1 ||
  { grep -E "error|FAILED" "$OUT/build.log" | head -30; exit 1; }
BENCH=$B/bin/blk-bench
status=0
args() { local a; for a in "$@"; do printf -- '--arg\n%s\n' "$a"; done; }

step "vector_add: checked, then timed"
mapfile -t A < <(args "${VA[@]}")
"$BENCH" "$CARRY/vector_add.fatbin" -k vector_add "${A[@]}" \
  --expect "out=$CARRY/vector_add.out" 2>&1 | tee "$OUT/vector_add.log"
[ "${PIPESTATUS[0]}" = 0 ] && grep -q "^\*" "$OUT/vector_add.log" || status=1

step "vector_add: a differing file fails"
"$BENCH" "$CARRY/vector_add.fatbin" -k vector_add "${A[@]}" \
  --expect "out=$CARRY/vector_add.bad" --iters 3 > "$OUT/bad.log" 2>&1
rc=$?
cat "$OUT/bad.log"
[ $rc = 1 ] && grep -q "worst \[1000\]" "$OUT/bad.log" || status=1

step "vector_add at 64M elements: bandwidth"
"$BENCH" "$CARRY/vector_add.fatbin" -k vector_add --args \
  "x=rand:f32:67108864 y=rand:f32:67108864 out=zeros:f32:67108864 n=67108864" 2>&1 |
  tee "$OUT/vector_add_big.log"
[ "${PIPESTATUS[0]}" = 0 ] || status=1

step "matmul 512^3: checked, TFLOP/s"
mapfile -t A < <(args "${MM[@]}")
"$BENCH" "$CARRY/matmul.fatbin" -k matmul "${A[@]}" --flops "2*M*N*K" \
  --expect "c=$CARRY/matmul.c" 2>&1 | tee "$OUT/matmul.log"
[ "${PIPESTATUS[0]}" = 0 ] && grep -q "TFLOP/s" "$OUT/matmul.log" || status=1

echo; echo "bench cli on device: $([ $status = 0 ] && echo PASS || echo FAIL)"
exit $status
