#!/usr/bin/env bash
# `make run`: every sample through `blkc check`, then
#  - with a GPU (nvidia-smi -L succeeds and the host programs are built):
#    each samples/host program on the GPU (random inputs, poisoned outputs,
#    float64 references; each prints what its seed prints and `ok`/`FAIL`);
#  - without one: each sample kernel on the CPU interpreter (`blkc run`) with
#    the seeds' inputs (arange), the result printed and compared exactly, and
#    the random-input samples checked by tests/lit/interp/Inputs/reference.py.
# One line per result, a summary, exit 1 on any failure.
#   bash scripts/run-samples.sh [BUILD_DIR] (default build; BLK_RUN_MODE=cpu|gpu forces a path)
set -uo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
blkc=$build/bin/blkc
passed=0
failed=0
result() { # result ok|FAIL NAME TEXT
  printf '%-5s %-16s %s\n' "$1" "$2" "$3"
  if [ "$1" = ok ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}

if [ ! -x "$blkc" ]; then
  echo "FAIL  $blkc not built (make build)"; exit 1
fi

echo "== blkc check"
for f in samples/*.blk; do
  if msg=$("$blkc" check "$f" 2>&1); then
    result ok "$(basename "$f" .blk)" "check"
  else
    result FAIL "$(basename "$f" .blk)" "check: $(echo "$msg" | head -1)"
  fi
done

# Seed 5.1: BLOCK = 7 must be refused at compile time (arange needs a power of two).
if msg=$("$blkc" check -D BLOCK=7 samples/double.blk 2>&1); then
  result FAIL double "BLOCK=7 was accepted"
elif echo "$msg" | grep -q "not a power of two"; then
  result ok double "BLOCK=7 -> $(echo "$msg" | grep -m1 -o 'error: .*')"
else
  result FAIL double "BLOCK=7: unexpected error: $(echo "$msg" | head -1)"
fi

mode=${BLK_RUN_MODE:-}
if [ -z "$mode" ]; then
  if nvidia-smi -L >/dev/null 2>&1 && ls "$build"/bin/sample-* >/dev/null 2>&1; then
    mode=gpu
  else
    mode=cpu
  fi
fi

if [ "$mode" = gpu ]; then
  echo; echo "== GPU: samples/host programs ($(nvidia-smi -L 2>/dev/null | head -1))"
  for p in "$build"/bin/sample-*; do
    name=${p##*/sample-}
    out=$("$p" 2>&1); rc=$?
    echo "$out" | sed 's/^/    /'
    if [ $rc = 0 ]; then
      result ok "$name" "$(echo "$out" | grep -E '^ok ' | tail -1)"
    else
      result FAIL "$name" "exit $rc: $(echo "$out" | grep -E '^(FAIL|SKIP)' | tail -1)"
    fi
  done
else
  echo; echo "== CPU interpreter (no GPU): blkc run with the seeds' inputs"
  tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
  # exact NAME EXPECTED FILE ARGS...: run, print `--print out`, compare.
  exact() {
    local name=$1 want=$2; shift 2
    local got
    got=$("$blkc" run "$@" --print out 2>&1)
    if [ "$got" = "out = $want" ]; then result ok "$name" "$got"
    else result FAIL "$name" "got '$(echo "$got" | head -1)', expected 'out = $want'"; fi
  }
  # reference NAME KERNEL REFARGS FILE ARGS...: outputs to files, then the
  # float64 reference of tests/lit/interp/Inputs/reference.py.
  reference() {
    local name=$1 kernel=$2 refargs=$3; shift 3
    local dir=$tmp/$name msg
    mkdir -p "$dir"
    if ! msg=$("$blkc" run "$@" 2>&1); then
      result FAIL "$name" "blkc run: $(echo "$msg" | head -1)"; return
    fi
    # shellcheck disable=SC2086
    msg=$(python3 tests/lit/interp/Inputs/reference.py "$kernel" "$dir" $refargs 2>&1)
    if [ "${msg%%:*}" = "ok $kernel" ]; then result ok "$name" "$msg (vs float64)"
    else result FAIL "$name" "$(echo "$msg" | head -1)"; fi
  }
  exact double "[0, 2, 4, 6, 8, 10, 12]" samples/double.blk -k double_kernel \
    --arg x=iota:f32:7 --arg out=empty:f32:7 --arg n=7
  exact double_grid "[0, 2, 4, 6, 8, 10, 12, 14, 16, 18]" samples/double_grid.blk \
    -k double_grid -D BLOCK=8 --arg x=iota:f32:10 --arg out=empty:f32:10 --arg n=10
  exact sum_gridstride "[499500]" samples/sum_gridstride.blk -k sum_gridstride \
    --arg x=iota:f32:1000 --arg out=empty:f32:1 --arg n=1000
  exact transpose_tile \
    "[0, 6, 12, 18, 1, 7, 13, 19, 2, 8, 14, 20, 3, 9, 15, 21, 4, 10, 16, 22, 5, 11, 17, 23]" \
    samples/transpose_tile.blk -k transpose_tile -D BLOCK_M=2 -D BLOCK_N=2 \
    --arg x=iota:f32:24 --arg out=empty:f32:24 --arg M=4 --arg N=6 \
    --arg stride_xm=6 --arg stride_xn=1 --arg stride_om=4 --arg stride_on=1
  # Seed 3.3: the hardcoded kernel on base.t() reads base in row-major order
  # (wrong: not t), the strided one reads t; 3.4: the 2x2 tile [[0,4],[1,5]].
  exact copy_2d_hardcoded "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]" samples/copy_2d.blk \
    -k copy_2d_hardcoded --arg x=iota:f32:12 --arg out=empty:f32:12 --arg M=4 --arg N=3
  # (No -D BLOCK_M=2 -D BLOCK_N=2 for the tile: -D sets every config, and
  # copy_2d_strided's two configs would then both be 2x2. The first config,
  # 4x4, masked down to 2x2, gives the seed's tile.)
  exact copy_2d_strided "[0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]" samples/copy_2d.blk \
    -k copy_2d_strided --arg x=iota:f32:12 --arg out=empty:f32:12 \
    --arg M=4 --arg N=3 --arg stride_row=1 --arg stride_col=4
  exact copy_2d_tile "[0, 4, 1, 5]" samples/copy_2d.blk -k copy_2d_strided \
    --arg x=iota:f32:12 --arg out=empty:f32:4 \
    --arg M=2 --arg N=2 --arg stride_row=1 --arg stride_col=4
  d=$tmp
  reference vector_add vector_add "" samples/vector_add.blk -k vector_add \
    --arg x=rand:f32:5000:1 --arg y=rand:f32:5000:2 --arg out=empty:f32:5000 --arg n=5000 \
    --out x=$d/vector_add/x --out y=$d/vector_add/y --out out=$d/vector_add/out
  reference softmax softmax "rows=4 cols=1000" samples/softmax.blk -k softmax \
    --arg out=empty:f32:4000 --arg inp=rand:f32:4000:7 --arg in_row_stride=1000 \
    --arg out_row_stride=1000 --arg n_rows=4 --arg n_cols=1000 \
    --out out=$d/softmax/out --out inp=$d/softmax/inp
  reference layernorm layernorm "M=3 N=1500 eps=1e-5" samples/layernorm.blk -k layernorm \
    --arg x=rand:f16:4500:3 --arg y=empty:f16:4500 --arg w=rand:f16:1500:4 \
    --arg b=rand:f16:1500:5 --arg mean_out=empty:f32:3 --arg rstd_out=empty:f32:3 \
    --arg row_stride=1500 --arg M=3 --arg N=1500 --arg eps=1e-5 \
    --out x=$d/layernorm/x --out y=$d/layernorm/y --out w=$d/layernorm/w \
    --out b=$d/layernorm/b --out mean_out=$d/layernorm/mean --out rstd_out=$d/layernorm/rstd
  reference matmul matmul "M=100 N=100 K=70" samples/matmul.blk -k matmul --threads 2 \
    --arg a=rand:f32:7000:1 --arg b=rand:f32:7000:2 --arg c=empty:f32:10000 \
    --arg M=100 --arg N=100 --arg K=70 --arg sam=70 --arg sak=1 --arg sbk=100 \
    --arg sbn=1 --arg scm=100 --arg scn=1 \
    --out a=$d/matmul/a --out b=$d/matmul/b --out c=$d/matmul/c
  # Fused attention: small ragged shapes, causal and not, O and lse against
  # a float64 softmax(Q·Kᵀ·scale)·V (bench/attention/interp_check.py).
  if msg=$(python3 bench/attention/interp_check.py "$blkc" 2>&1); then
    result ok attention "$(echo "$msg" | grep -c '^ok') shapes, O and lse (vs float64)"
  else
    result FAIL attention "$(echo "$msg" | grep -m1 -E 'FAIL|rror')"
  fi
fi

echo
echo "samples ($mode): $passed passed, $failed failed"
[ "$failed" = 0 ]
