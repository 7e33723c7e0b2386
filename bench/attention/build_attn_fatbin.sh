#!/usr/bin/env bash
# Builds samples/attention.blk for sm_90a into bench/attention/fatbins/
# (attention.fatbin, carried to the device machine by run_attn_on_device.sh;
# ignored by git through `*.fatbin`), its PTX into fatbins/attention.ptx for
# reading here and its `blkc inspect` report (registers, spills, shared
# memory per entry) into fatbins/attention.inspect.txt. Makes .rtdeps/ if it
# is missing.
#   [BLK_ATTN_OUT=dir] [BLK_ATTN_BLKC_FLAGS="--warpgroup-turns"] \
#     bash bench/attention/build_attn_fatbin.sh [path/to/blkc]
# (BLK_ATTN_OUT: another folder, for an A/B build; BLK_ATTN_BLKC_FLAGS:
# extra blkc flags.)
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BLKC=${1:-$ROOT/build/bin/blkc}
OUTD=${BLK_ATTN_OUT:-$ROOT/bench/attention/fatbins}
FLAGS=${BLK_ATTN_BLKC_FLAGS:-}
SRC=$ROOT/samples/attention.blk
mkdir -p "$OUTD"
[ -f "$OUTD/.gitignore" ] || printf '*\n' > "$OUTD/.gitignore"
[ -d "$ROOT/.rtdeps/include/nlohmann" ] || bash "$ROOT/scripts/make-rtdeps.sh" "$BLKC" || exit 1
start=$(date +%s)
# shellcheck disable=SC2086 # FLAGS is a list of flags
"$BLKC" build "$SRC" --arch sm_90a $FLAGS -o "$OUTD/attention.fatbin" &&
  "$BLKC" build "$SRC" --arch sm_90a $FLAGS --emit=ptx -o "$OUTD/attention.ptx" &&
  "$BLKC" inspect "$OUTD/attention.fatbin" > "$OUTD/attention.inspect.txt" || exit 1
echo "built attention.fatbin in $(( $(date +%s) - start )) s"
