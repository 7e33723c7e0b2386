#!/usr/bin/env bash
# Builds libblkrt alone on the device machine (no LLVM/MLIR there:
# -DBLK_BUILD_COMPILER=OFF, no tests) and prints the folder that holds
# libblkrt.so, for the device scripts that link a harness against it:
#   lib=$(bash scripts/device-build-runtime.sh BUILD_DIR LOG_PREFIX) || exit 1
# nlohmann-json missing on the machine is taken from .rtdeps/include (made
# here by scripts/make-rtdeps.sh and carried). The configure and build logs
# are LOG_PREFIX.configure.log and LOG_PREFIX.build.log; on failure their
# tail goes to stderr.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
B=$1
LOG=$2
extra=()
[ -f /usr/include/nlohmann/json.hpp ] ||
  extra+=(-DBLK_NLOHMANN_JSON_INCLUDE_DIR="$ROOT/.rtdeps/include")
cmake -S "$ROOT" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DBLK_BUILD_COMPILER=OFF -DBLK_BUILD_TESTS=OFF "${extra[@]}" > "$LOG.configure.log" 2>&1 ||
  { tail -30 "$LOG.configure.log" >&2; exit 1; }
cmake --build "$B" -j "$(nproc)" --target blkrt > "$LOG.build.log" 2>&1 ||
  { grep -E "error|FAILED" "$LOG.build.log" | head -30 >&2; exit 1; }
lib=$(find "$B" -name 'libblkrt.so' | head -1)
[ -n "$lib" ] || { echo "libblkrt.so not found under $B" >&2; exit 1; }
dirname "$lib"
