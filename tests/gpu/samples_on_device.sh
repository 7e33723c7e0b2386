#!/usr/bin/env bash
# The samples' GPU session, in one call of the device machine (no LLVM there):
# builds the runtime and the sample host programs with -DBLK_BUILD_COMPILER=OFF
# from fatbins compiled where blkc is, runs every host program (output shown),
# the `gpu` ctest tests, and every host program under compute-sanitizer memcheck.
#   here:   for s in samples/*.blk; do blkc build $s -o DIR/$(basename $s .blk).fatbin; done
#   there:  BLK_SAMPLES_FATBIN_DIR=DIR bash tests/gpu/samples_on_device.sh
# nlohmann-json missing on the machine is taken from .rtdeps/include. Logs in $OUT.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-/tmp/blk-device-out}
B=${BLK_DEVICE_BUILD:-/tmp/blk-samples-build}
FATBINS=${BLK_SAMPLES_FATBIN_DIR:?set BLK_SAMPLES_FATBIN_DIR to the prebuilt fatbins}
mkdir -p "$OUT"
step() { echo; echo "=== $* ($(date +%T))"; }

step machine
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
export PATH=/usr/local/cuda/bin:$PATH
extra=()
if [ ! -f /usr/include/nlohmann/json.hpp ]; then
  extra+=(-DBLK_NLOHMANN_JSON_INCLUDE_DIR="$ROOT/.rtdeps/include")
fi

step "configure + build (runtime only)"
cmake -S "$ROOT" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DBLK_BUILD_COMPILER=OFF -DBLK_BUILD_TESTS=OFF \
  -DBLK_SAMPLES_FATBIN_DIR="$FATBINS" "${extra[@]}" > "$OUT/configure.log" 2>&1 ||
  { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build "$B" -j "$(nproc)" --target samples > "$OUT/build.log" 2>&1 ||
  { grep -E "error|FAILED" "$OUT/build.log" | head -30; exit 1; }

status=0
for p in "$B"/bin/sample-*; do
  step "$(basename "$p")"
  start=$(date +%s%N)
  "$p" 2>&1 | tee -a "$OUT/samples.log"
  rc=${PIPESTATUS[0]}
  echo "exit $rc, $(( ($(date +%s%N) - start) / 1000000 )) ms"
  [ "$rc" = 0 ] || status=1
done

step "ctest -L gpu"
(cd "$B" && ctest -L gpu --output-on-failure 2>&1) | tee "$OUT/ctest.log" | tail -4
grep -q "100% tests passed" "$OUT/ctest.log" || status=1

step "compute-sanitizer memcheck"
for p in "$B"/bin/sample-*; do
  compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 \
    "$p" > "$OUT/memcheck-$(basename "$p").log" 2>&1
  rc=$?
  echo "memcheck $(basename "$p"): exit $rc, $(grep -E 'ERROR SUMMARY' "$OUT/memcheck-$(basename "$p").log")"
  [ "$rc" = 0 ] || status=1
done
echo; echo "samples on device: $([ $status = 0 ] && echo PASS || echo FAIL)"
exit $status
