#!/usr/bin/env bash
# blk-bench over the fake driver, whose kernels run no code but whose event
# clock advances by a time set per function (BLK_FAKE_CUDA_KERNEL_MS):
# the table's times and rates, a config that fails to launch or whose
# @requires fails is skipped with the reason, --config filters, --expect
# passes on equal data and fails naming the worst element, written buffers
# are poisoned before the check, `rand:` data is splitmix64's (the
# interpreter's, tests/unit/Interpreter/ArgSpecTest.cpp), usage errors exit 2.
#   blk_bench_test.sh BLK_BENCH FAKE_DRIVER FIXTURE WORKDIR
set -u
BENCH=$1 FAKE=$2 FIX=$3 W=$4
rm -rf "$W" && mkdir -p "$W"
export BLK_CACHE_DIR=$W/cache
fail() { echo "FAIL: $*"; exit 1; }
run() { "$BENCH" "$FIX" --driver "$FAKE" "$@"; }

# 250000 i32, read and written: 2e6 bytes a launch; 2 us -> 1000 GB/s.
BLK_FAKE_CUDA_KERNEL_MS=inc__BLOCK_64__w2=0.002,inc__BLOCK_128__w4=0.004,inc__BLOCK_256__w8=0.001 \
BLK_FAKE_CUDA_FAIL_LAUNCH=inc__BLOCK_512__w16 \
  run -k inc --args "x=zeros:i32:250000 n=250000" --flops "2*n" --iters 5 > "$W/t.txt" 2>&1 ||
  { cat "$W/t.txt"; fail "blk-bench inc"; }
python3 - "$W/t.txt" <<'PY' || { cat "$W/t.txt"; fail "table"; }
import re, sys
lines = open(sys.argv[1]).read().splitlines()
assert lines[0] == "blk-bench: inc on Fake GPU (sm_90); 2000000 bytes per launch (x readwrite 1000000), 500000 flops", lines[0]
assert lines[1].split() == ["config", "median", "us", "min", "us", "GB/s", "TFLOP/s", "launches"], lines[1]
rows = {" ".join(l[2:].split()[:3]): l for l in lines[2:]}
def cells(key): return rows[key].split()
assert cells("BLOCK=64 num_warps=2 num_stages=3")[3:] == ["2.000", "2.000", "1000.0", "0.250", "5"], rows
assert cells("BLOCK=128 num_warps=4 num_stages=3")[3:] == ["4.000", "4.000", "500.0", "0.125", "5"], rows
best = [l for l in lines if l.startswith("*")]
assert len(best) == 1 and "BLOCK=256 " in best[0] and "2000.0" in best[0], best
assert "skipped: launch of `inc__BLOCK_512__w16` on grid (489, 1, 1) failed: CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES" in rows["BLOCK=512 num_warps=16 num_stages=3"], rows
# The columns line up: every number ends where its header ends.
assert len({len(l) for l in lines[1:5]}) == 1, lines
PY

# --config keeps the configs it names.
run -k inc --args "x=zeros:i32:100 n=100" --config "BLOCK=128" --config "num_warps=8" --iters 3 > "$W/c.txt" 2>&1 ||
  { cat "$W/c.txt"; fail "--config"; }
[ "$(grep -c "BLOCK=" "$W/c.txt")" = 2 ] && grep -q "BLOCK=128 " "$W/c.txt" && grep -q "BLOCK=256 " "$W/c.txt" ||
  { cat "$W/c.txt"; fail "--config rows"; }

# @requires: BLOCK=32 covers rows of up to 32 columns only.
run -k rows --args "out=zeros:f32:400 x=rand:f32:400 n_rows=4 n_cols=100" --iters 3 > "$W/r.txt" 2>&1 ||
  { cat "$W/r.txt"; fail "rows"; }
grep -q "BLOCK=32 num_warps=1 num_stages=3 *skipped: config BLOCK=32 num_warps=1 num_stages=3 requires n_cols <= 32, which fails for n_cols=100" "$W/r.txt" ||
  { cat "$W/r.txt"; fail "@requires skip"; }

# --expect: the fake leaves x as the spec made it.
python3 -c "import struct,sys; open(sys.argv[1],'wb').write(struct.pack('<100i', *range(100)))" "$W/iota.i32"
python3 -c "import struct,sys; v=list(range(100)); v[7]=8; open(sys.argv[1],'wb').write(struct.pack('<100i', *v))" "$W/bad.i32"
run -k inc --args "x=iota:i32:100 n=100" --expect "x=$W/iota.i32" --iters 3 > "$W/e.txt" 2>&1 ||
  { cat "$W/e.txt"; fail "--expect on equal data"; }
grep -q "checked: 1 buffer(s) match" "$W/e.txt" || { cat "$W/e.txt"; fail "--expect summary"; }
run -k inc --args "x=iota:i32:100 n=100" --expect "x=$W/bad.i32" --config BLOCK=64 > "$W/e2.txt" 2>&1
[ $? = 1 ] && grep -q "BLOCK=64 num_warps=2 num_stages=3: \`x\` differs at 1 of 100 elements; worst \[7\]: got 7, expected 8" "$W/e2.txt" ||
  { cat "$W/e2.txt"; fail "--expect mismatch"; }
grep -q "median" "$W/e2.txt" && fail "timed after a failed check"
# Within --atol the same file passes.
run -k inc --args "x=iota:i32:100 n=100" --expect "x=$W/bad.i32" --atol 1 --iters 3 > /dev/null 2>&1 || fail "--atol"

# A written buffer is poisoned before the checked launch (the fake writes
# nothing, so `y` holds NaN, not the zeros it was allocated with).
python3 -c "import sys; open(sys.argv[1],'wb').write(bytes(256))" "$W/zeros.f32"
run -k add1 --args "x=rand:f32:64:3 y=zeros:f32:64 n=64" --expect "y=$W/zeros.f32" > "$W/p.txt" 2>&1
[ $? = 1 ] && grep -q "\`y\` differs at 64 of 64 elements; worst \[0\]: got nan, expected 0" "$W/p.txt" ||
  { cat "$W/p.txt"; fail "poison"; }

# rand:f32:64:3 is splitmix64 seeded 3, 24 bits per value: what the
# interpreter gives too, bit for bit.
python3 - "$W/rand.f32" <<'PY'
import struct, sys
M, s, out = (1 << 64) - 1, 3, []
for _ in range(64):
    s = (s + 0x9e3779b97f4a7c15) & M
    z = s
    z = ((z ^ (z >> 30)) * 0xbf58476d1ce4e5b9) & M
    z = ((z ^ (z >> 27)) * 0x94d049bb133111eb) & M
    out.append(((z ^ (z >> 31)) >> 40) / 2**24)
open(sys.argv[1], "wb").write(struct.pack("<64f", *out))
PY
run -k add1 --args "x=rand:f32:64:3 y=zeros:f32:64 n=64" --expect "x=$W/rand.f32" --rtol 0 --iters 3 > "$W/g.txt" 2>&1 ||
  { cat "$W/g.txt"; fail "rand: values"; }

# A file of the wrong size fails (exit 1).
run -k inc --args "x=iota:i32:10 n=10" --expect "x=$W/iota.i32" > "$W/s.txt" 2>&1
[ $? = 1 ] && grep -q "has 400 bytes, the buffer 40" "$W/s.txt" || { cat "$W/s.txt"; fail "size"; }

# Usage errors: exit 2 with a message.
expect_usage() {
  local want=$1; shift
  run "$@" > "$W/u.txt" 2>&1
  [ $? = 2 ] && grep -qF -- "$want" "$W/u.txt" || { cat "$W/u.txt"; fail "usage: $want"; }
}
expect_usage "a fatbin and -k KERNEL are required" --args "n=1"
expect_usage "unknown option \`--bogus\`" -k inc --bogus
expect_usage "missing argument \`x\` (*i32)" -k inc --args "n=10"
expect_usage "has no kernel \`nope\`" -k nope --args "n=1"
expect_usage "no config of \`inc\` matches --config" -k inc --args "x=zeros:i32:4 n=4" --config BLOCK=7
expect_usage "\`m\` is not a scalar parameter" -k inc --args "x=zeros:i32:4 n=4" --flops "2*m"
expect_usage "--expect y: not a pointer parameter" -k inc --args "x=zeros:i32:4 n=4" --expect y=f
expect_usage "\`--expect x\` must have the form NAME=PATH" -k inc --args "x=zeros:i32:4 n=4" --expect x
expect_usage "type mismatch: the parameter is *i32, the spec gives f32" -k inc --args "x=zeros:f32:4 n=4"
"$BENCH" --help | grep -q "readwrite and atomic (and unknown) twice" || fail "--help names the bytes rule"
echo "blk-bench: all checks passed"
