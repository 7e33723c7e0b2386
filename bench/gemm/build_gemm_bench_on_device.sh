#!/usr/bin/env bash
# Builds libblkrt alone (scripts/device-build-runtime.sh) and the GEMM
# harness bench/gemm/gemm_bench.cpp into BUILD/gemm-bench, on the device
# machine; shared by run_gemm_on_device.sh, ab_on_device.sh and
# configs_on_device.sh.
#   bash bench/gemm/build_gemm_bench_on_device.sh BUILD
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
B=${1:?build folder}
lib=$(bash "$ROOT/scripts/device-build-runtime.sh" "$B" "$B") || exit 1
g++ -O2 -std=c++17 -Wall -Wextra -I "$ROOT/runtime/include" "$ROOT/bench/gemm/gemm_bench.cpp" \
  -o "$B/gemm-bench" -L"$lib" -lblkrt -Wl,-rpath,"$lib"
