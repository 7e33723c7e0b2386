#!/usr/bin/env bash
# The PyTorch sample on the device machine, in one call: build libblkrt
# alone (-DBLK_BUILD_COMPILER=OFF), then samples/torch/softmax_torch.py
# (builds the extension with torch.utils.cpp_extension, checks it, times it
# next to Triton and torch). The fatbin is built here, where blkc is:
#   build/bin/blkc build samples/softmax.blk -o devfat/torch/softmax.fatbin
# and carried (devfat is git-ignored; name it in `carry`).
#   bash samples/torch/run_on_device.sh [FATBIN]     (from the repository root)
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
FATBIN=${1:-$ROOT/devfat/torch/softmax.fatbin}
OUT=${OUT:-/tmp/blk-torch-out}
B=${BLK_TORCH_BUILD:-/tmp/blk-torch-build}
mkdir -p "$OUT"
export PATH=/usr/local/cuda/bin:$PATH
[ -f "$FATBIN" ] || { echo "no $FATBIN: build it with blkc where blkc is and carry it"; exit 1; }
extra=()
[ -f /usr/include/nlohmann/json.hpp ] ||
  extra+=(-DBLK_NLOHMANN_JSON_INCLUDE_DIR="$ROOT/.rtdeps/include")
cmake -S "$ROOT" -B "$B" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DBLK_BUILD_COMPILER=OFF -DBLK_BUILD_TESTS=OFF "${extra[@]}" > "$OUT/configure.log" 2>&1 ||
  { tail -30 "$OUT/configure.log"; exit 1; }
cmake --build "$B" -j "$(nproc)" --target blkrt > "$OUT/build.log" 2>&1 ||
  { grep -E "error|FAILED" "$OUT/build.log" | head -30; exit 1; }
lib=$(dirname "$(find "$B" -name 'libblkrt.so' | head -1)")
PYTHONUNBUFFERED=1 python3 -X faulthandler "$ROOT/samples/torch/softmax_torch.py" --fatbin "$FATBIN" \
  --include "$ROOT/runtime/include" --lib "$lib" --json "$OUT/torch.json" 2>&1 | tee "$OUT/torch.log"
exit "${PIPESTATUS[0]}"
