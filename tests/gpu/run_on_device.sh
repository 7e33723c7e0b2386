#!/usr/bin/env bash
# The runtime's GPU session, in one call of the device machine: configure the
# runtime alone (-DBLK_BUILD_COMPILER=OFF), build, run the runtime unit tests
# and the `gpu` tests, blkc-built artifacts from .rtdeps/e2e (if any), the GPU
# tests under compute-sanitizer memcheck, and the launch-cost benchmark twice.
# Logs go to $OUT (or /tmp/blk-device-out).
#   bash tests/gpu/run_on_device.sh        (from the repository root)
# GoogleTest / nlohmann-json missing on the machine are taken from .rtdeps/
# (a copy of /usr/src/googletest and /usr/include/nlohmann, carried along).
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
OUT=${OUT:-/tmp/blk-device-out}
B=${BLK_DEVICE_BUILD:-/tmp/blk-rt-build}
DEPS=$ROOT/.rtdeps
mkdir -p "$OUT"
step() { echo; echo "=== $* ($(date +%T))"; }

step machine
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader
nproc; cmake --version | head -1; g++ --version | head -1
export PATH=/usr/local/cuda/bin:$PATH

extra=()
if [ ! -f /usr/include/gtest/gtest.h ] && [ ! -f /usr/local/include/gtest/gtest.h ]; then
  step "building GoogleTest from .rtdeps"
  cmake -S "$DEPS/googletest" -B /tmp/gtest-build -G Ninja \
    -DCMAKE_BUILD_TYPE=Release -DBUILD_GMOCK=OFF \
    -DCMAKE_INSTALL_PREFIX=/tmp/gtest >/dev/null &&
  cmake --build /tmp/gtest-build --target install >/dev/null || exit 1
  extra+=(-DCMAKE_PREFIX_PATH=/tmp/gtest)
fi
if [ ! -f /usr/include/nlohmann/json.hpp ]; then
  extra+=(-DBLK_NLOHMANN_JSON_INCLUDE_DIR="$DEPS/include")
fi

step configure
cmake -S "$ROOT" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DBLK_BUILD_COMPILER=OFF "${extra[@]}" > "$OUT/configure.log" 2>&1 ||
  { tail -30 "$OUT/configure.log"; exit 1; }
step build
cmake --build "$B" -j "$(nproc)" --target RuntimeUnitTests RuntimeGpuTests \
  HeaderLaunchTest InteropGpuTests AutotuneGpuTests blk-launch-cost blkrt-run-double blkrt-fp8-casts > "$OUT/build.log" 2>&1 ||
  { grep -E "error|FAILED" "$OUT/build.log" | head -30; exit 1; }

status=0
step "runtime unit tests + gpu tests"
(cd "$B" && ctest -R '^runtime\.' -j 8 2>&1 | tail -3) | tee "$OUT/unit.log"
(cd "$B" && ctest -L gpu --output-on-failure 2>&1) | tee "$OUT/gpu.log"
grep -q "100% tests passed" "$OUT/gpu.log" || status=1
"$B/bin/RuntimeGpuTests" > "$OUT/gpu-tests-verbose.log" 2>&1

# Artifacts built by blkc elsewhere (no LLVM here), carried in .rtdeps/e2e.
for f in "$DEPS"/e2e/*.fatbin; do
  [ -f "$f" ] || continue
  step "blkc artifact $(basename "$f")"
  "$B/bin/blkrt-run-double" "$f" 2>&1 | tail -6 | tee -a "$OUT/e2e.log"
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
done

if [ -f "$DEPS/fp8/fp8_casts.fatbin" ]; then
  step "fp8 conversions"
  "$B/bin/blkrt-fp8-casts" "$DEPS/fp8/fp8_casts.fatbin" 2>&1 | tee "$OUT/fp8.log"
  [ "${PIPESTATUS[0]}" = 0 ] || status=1
fi

step "compute-sanitizer memcheck"
compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 \
  "$B/bin/RuntimeGpuTests" > "$OUT/memcheck.log" 2>&1
echo "memcheck RuntimeGpuTests exit $?"; tail -4 "$OUT/memcheck.log"
compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 \
  "$B/bin/HeaderLaunchTest" > "$OUT/memcheck-header.log" 2>&1
echo "memcheck HeaderLaunchTest exit $?"; tail -2 "$OUT/memcheck-header.log"
compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 \
  "$B/bin/InteropGpuTests" > "$OUT/memcheck-interop.log" 2>&1
echo "memcheck InteropGpuTests exit $?"; tail -2 "$OUT/memcheck-interop.log"
compute-sanitizer --tool memcheck --leak-check full --error-exitcode 9 \
  "$B/bin/AutotuneGpuTests" > "$OUT/memcheck-autotune.log" 2>&1
echo "memcheck AutotuneGpuTests exit $?"; tail -2 "$OUT/memcheck-autotune.log"
"$B/bin/AutotuneGpuTests" > "$OUT/autotune-verbose.log" 2>&1

step "launch cost"
for run in 1 2; do "$B/bin/blk-launch-cost"; done 2>&1 | tee "$OUT/launch-cost.log"
exit $status
