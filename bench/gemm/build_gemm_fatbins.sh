#!/usr/bin/env bash
# Builds the GEMM benchmark kernels (bench/gemm/kernels/*.blk) for sm_90a into
# bench/gemm/fatbins/ (<name>.fatbin, carried to the device machine by
# run_gemm_on_device.sh; ignored by git through `*.fatbin`, as bench/fatbins
# is), their PTX into bench/gemm/fatbins/ptx/ for reading here, and each
# fatbin's `blkc inspect` report (registers, spills, shared memory per entry,
# read by gemm_ref.py for the per-config table) into
# bench/gemm/fatbins/inspect/. Makes .rtdeps/ (scripts/make-rtdeps.sh) if it
# is missing. A kernel that does not compile is reported and the others are
# still built; the exit status says whether any failed.
#   bash bench/gemm/build_gemm_fatbins.sh [path/to/blkc]
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BLKC=${1:-$ROOT/build/bin/blkc}
ARCH=${BLK_GEMM_ARCH:-sm_90a}
# BLK_GEMM_OUT: another folder (an A/B build); BLK_GEMM_BLKC_FLAGS: extra
# blkc flags, e.g. `--no-tma` for the cp.async-only kernels.
OUTD=${BLK_GEMM_OUT:-$ROOT/bench/gemm/fatbins}
FLAGS=${BLK_GEMM_BLKC_FLAGS:-}
mkdir -p "$OUTD/ptx" "$OUTD/inspect"
# inspect/*.txt have no ignored extension: keep the folder out of git status.
[ -f "$OUTD/inspect/.gitignore" ] || printf '*\n' > "$OUTD/inspect/.gitignore"
# The device machine may lack nlohmann-json: .rtdeps carries it there.
[ -d "$ROOT/.rtdeps/include/nlohmann" ] || bash "$ROOT/scripts/make-rtdeps.sh" "$BLKC" || exit 1
status=0
for f in "$ROOT"/bench/gemm/kernels/*.blk; do
  name=$(basename "$f" .blk)
  start=$(date +%s)
  # shellcheck disable=SC2086 # FLAGS is a list of flags
  if "$BLKC" build "$f" -I "$ROOT/stdlib" --arch "$ARCH" $FLAGS -o "$OUTD/$name.fatbin" &&
     "$BLKC" build "$f" -I "$ROOT/stdlib" --arch "$ARCH" $FLAGS --emit=ptx -o "$OUTD/ptx/$name.ptx"; then
    "$BLKC" inspect "$OUTD/$name.fatbin" > "$OUTD/inspect/$name.txt"
    echo "built $name.fatbin in $(( $(date +%s) - start )) s"
  else
    echo "FAILED: $name (the errors are above)"
    rm -f "$OUTD/$name.fatbin" "$OUTD/inspect/$name.txt"
    status=1
  fi
done
ls -l "$OUTD"
exit $status
