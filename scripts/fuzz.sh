#!/usr/bin/env bash
# The libFuzzer half of `make fuzz` (README.md, "Fuzzing"): configures
# FUZZ_BUILD with clang-19 and ASan + UBSan + libFuzzer instrumentation on
# every library (fuzz/CMakeLists.txt), builds blk-front-end-fuzzer and
# blk-artifact-fuzzer, and runs each for SECONDS with its dictionary and
# seed corpus:
#   front end: fuzz/corpus (.blk files)
#   artifacts: the fatbins blkc (BUILD/bin/blkc) makes of two samples and the
#              tampered set made from them (tests/fuzz/make_corpus.sh)
# New corpus entries go to FUZZ_BUILD/corpus/<fuzzer>/, crash, leak and
# timeout inputs to FUZZ_BUILD/crashes/<fuzzer>-*, logs to
# FUZZ_BUILD/logs/<fuzzer>.log. Exit 1 if either fuzzer found something.
#   usage: scripts/fuzz.sh BUILD FUZZ_BUILD SECONDS
set -euo pipefail
cd "$(dirname "$0")/.."
build=$1 fuzz_build=$2 seconds=$3
export CCACHE_BASEDIR=${CCACHE_BASEDIR:-$PWD}

if [ ! -f "$fuzz_build/CMakeCache.txt" ]; then
  flags="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=undefined"
  CC=clang-19 CXX=clang++-19 cmake -S . -B "$fuzz_build" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release -DBLK_BUILD_FUZZ=ON -DBLK_BUILD_TESTS=OFF \
    -DCMAKE_C_FLAGS="$flags" -DCMAKE_CXX_FLAGS="$flags"
fi
cmake --build "$fuzz_build" --target blk-front-end-fuzzer blk-artifact-fuzzer

seeds=$fuzz_build/seeds/artifact
bash tests/fuzz/make_corpus.sh "$build/bin/blkc" "$PWD" "$seeds"
mkdir -p "$fuzz_build/crashes" "$fuzz_build/logs"

# run NAME DICT MAX_LEN SEED_DIR...: one fuzzer for $seconds; prints its
# executions and what it found.
status=0
run() {
  local name=$1 dict=$2 max_len=$3
  shift 3
  local corpus=$fuzz_build/corpus/$name log=$fuzz_build/logs/$name.log
  mkdir -p "$corpus"
  echo "fuzz: $name for $seconds s (log: $log)"
  local rc=0 stamp=$fuzz_build/logs/$name.start
  touch "$stamp"
  ASAN_OPTIONS=handle_abort=1 "$fuzz_build/bin/$name" -max_total_time="$seconds" \
    -dict="$dict" -max_len="$max_len" -timeout=30 -print_final_stats=1 \
    -artifact_prefix="$fuzz_build/crashes/$name-" "$corpus" "$@" > "$log" 2>&1 || rc=$?
  local runs found
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  found=$(find "$fuzz_build/crashes" -name "$name-*" -newer "$stamp" | wc -l)
  echo "fuzz: $name: ${runs:-?} executions, corpus $(ls "$corpus" | wc -l) inputs," \
       "$found new crash/leak/timeout inputs, exit $rc"
  if [ "$rc" != 0 ]; then
    status=1
    grep -m 3 -E "ERROR: |runtime error:|Test unit written" "$log" || tail -5 "$log"
  fi
}
run blk-front-end-fuzzer fuzz/blk.dict 4096 fuzz/corpus
run blk-artifact-fuzzer fuzz/artifact.dict 262144 "$seeds/real" "$seeds/tampered"
exit $status
