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
lib=$(bash "$ROOT/scripts/device-build-runtime.sh" "$B" "$OUT/runtime") || exit 1
PYTHONUNBUFFERED=1 python3 -X faulthandler "$ROOT/samples/torch/softmax_torch.py" --fatbin "$FATBIN" \
  --include "$ROOT/runtime/include" --lib "$lib" --json "$OUT/torch.json" 2>&1 | tee "$OUT/torch.log"
exit "${PIPESTATUS[0]}"
