#!/usr/bin/env bash
# blk-tune over the fake driver: two argument sets of the fixture's `inc`
# give a table with one entry per key bucket, four timings each; usage
# errors exit 2 with a message.
#   blk_tune_test.sh BLK_TUNE FAKE_DRIVER FIXTURE WORKDIR
set -u
TUNE=$1 FAKE=$2 FIX=$3 W=$4
rm -rf "$W" && mkdir -p "$W"
export BLK_CACHE_DIR=$W/cache
fail() { echo "FAIL: $*"; exit 1; }
"$TUNE" "$FIX" -k inc --driver "$FAKE" --args "x=iota:i32:1000 n=1000" \
  --args "x=zeros:i32:10 n=10" -o "$W/table.json" > "$W/out.txt" 2>&1 || { cat "$W/out.txt"; fail "blk-tune failed"; }
grep -q "blk autotune: inc \[n=1000->1024\] tuned:" "$W/out.txt" || { cat "$W/out.txt"; fail "no decision line"; }
python3 - "$W/table.json" <<'PY' || fail "table"
import json, sys
t = json.load(open(sys.argv[1]))
assert t["format"] == "blk-tuning" and t["device"] == {"name": "Fake GPU", "sm": 90}, t
keys = [e["key"] for e in t["entries"]]
assert keys == [{"n": 1024}, {"n": 10}], keys
assert all(len(e["timings"]) == 4 for e in t["entries"]), t
PY
echo '[{"x": "rand:i32:64:3", "n": 64}]' > "$W/shapes.json"
"$TUNE" "$FIX" -k inc --driver "$FAKE" --shapes "$W/shapes.json" -o "$W/t2.json" > /dev/null 2>&1 || fail "--shapes"
grep -q '"n": 64' "$W/t2.json" || fail "--shapes table"
"$TUNE" "$FIX" -k inc --driver "$FAKE" --args "n=10" > "$W/e1.txt" 2>&1
[ $? = 2 ] && grep -q "missing argument \`x\` (\*i32)" "$W/e1.txt" || { cat "$W/e1.txt"; fail "missing argument"; }
"$TUNE" "$FIX" -k inc --driver "$FAKE" --args "x=bogus:i32:4 n=4" > "$W/e2.txt" 2>&1
[ $? = 2 ] && grep -q "unknown buffer kind \`bogus\`" "$W/e2.txt" || { cat "$W/e2.txt"; fail "bad spec"; }
"$TUNE" "$FIX" -k nope --driver "$FAKE" --args "n=1" > "$W/e3.txt" 2>&1
[ $? = 2 ] && grep -q "has no kernel \`nope\`" "$W/e3.txt" || { cat "$W/e3.txt"; fail "bad kernel"; }
echo "blk-tune: all checks passed"
