#!/usr/bin/env bash
# Builds libblkrt alone (scripts/device-build-runtime.sh) and one benchmark
# harness, SOURCE (relative to the repository root), into BUILD/NAME, on the
# device machine (no LLVM there); the GEMM and attention device scripts
# share it.
#   bash bench/common/build_harness_on_device.sh BUILD NAME SOURCE
#   e.g. ... /tmp/b attn-bench bench/attention/attn_bench.cpp
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B=${1:?build folder}
NAME=${2:?harness name}
SRC=${3:?harness source}
lib=$(bash "$ROOT/scripts/device-build-runtime.sh" "$B" "$B") || exit 1
g++ -O2 -std=c++17 -Wall -Wextra -I "$ROOT/runtime/include" "$ROOT/$SRC" \
  -o "$B/$NAME" -L"$lib" -lblkrt -Wl,-rpath,"$lib"
