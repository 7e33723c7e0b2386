#!/usr/bin/env bash
# `blkc bench` end to end over the fake driver: a .blk file is built to a
# fatbin and timed; with --check the interpreter's result is compared, and
# since the fake runs no kernel code the poisoned `out` must be reported
# (so the comparison really happens); a fatbin is timed as given.
#   blkc_bench_test.sh BLKC FAKE_DRIVER SAMPLES_DIR FIXTURE WORKDIR
set -u
BLKC=$1 FAKE=$2 SAMPLES=$3 FIX=$4 W=$5
rm -rf "$W" && mkdir -p "$W"
export BLK_CACHE_DIR=$W/cache
fail() { echo "FAIL: $*"; exit 1; }
ARGS=(--arg x=rand:f32:1000:1 --arg y=rand:f32:1000:2 --arg out=zeros:f32:1000 --arg n=1000)

"$BLKC" bench "$SAMPLES/vector_add.blk" -k vector_add "${ARGS[@]}" --driver "$FAKE" --iters 3 \
  > "$W/t.txt" 2>&1 || { cat "$W/t.txt"; fail "blkc bench .blk"; }
grep -q "blk-bench: vector_add on Fake GPU (sm_90); 12000 bytes per launch" "$W/t.txt" &&
  [ "$(grep -c "BLOCK=" "$W/t.txt")" = 2 ] || { cat "$W/t.txt"; fail "table"; }

"$BLKC" bench "$SAMPLES/vector_add.blk" -k vector_add "${ARGS[@]}" --driver "$FAKE" --iters 3 --check \
  > "$W/c.txt" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "the interpreter's 1 written buffer(s) are the expected results" "$W/c.txt" &&
  grep -q "BLOCK=1024 num_warps=4 num_stages=3: \`out\` differs at 1000 of 1000 elements; worst \[0\]: got nan, expected" "$W/c.txt" ||
  { cat "$W/c.txt"; fail "--check (exit $rc)"; }

"$BLKC" bench "$FIX" -k inc --arg x=iota:i32:100 --arg n=100 --driver "$FAKE" --iters 3 \
  > "$W/f.txt" 2>&1 || { cat "$W/f.txt"; fail "blkc bench .fatbin"; }
[ "$(grep -c "BLOCK=" "$W/f.txt")" = 4 ] || { cat "$W/f.txt"; fail "fatbin table"; }
echo "blkc bench: all checks passed"
