#!/usr/bin/env bash
# Builds the benchmark kernels (bench/kernels/*.blk) into bench/fatbins/
# (<name>.fatbin, carried to the device machine by run_on_device.sh) and
# their PTX into bench/fatbins/ptx/ for reading here, and makes .rtdeps/
# (scripts/make-rtdeps.sh) if it is missing.
#   bash bench/build_fatbins.sh [path/to/blkc]
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BLKC=${1:-$ROOT/build/bin/blkc}
mkdir -p "$ROOT/bench/fatbins/ptx"
# The device machine may lack nlohmann-json: .rtdeps carries it there.
[ -d "$ROOT/.rtdeps/include/nlohmann" ] || bash "$ROOT/scripts/make-rtdeps.sh" "$BLKC"
for f in "$ROOT"/bench/kernels/*.blk; do
  name=$(basename "$f" .blk)
  "$BLKC" build "$f" -o "$ROOT/bench/fatbins/$name.fatbin"
  "$BLKC" build "$f" --emit=ptx -o "$ROOT/bench/fatbins/ptx/$name.ptx"
done
ls -l "$ROOT/bench/fatbins"
