#!/usr/bin/env bash
# Builds, here (where blkc is), the fatbins of an A/B of a blkc flag or of a
# sample edit, for bench/flag_ab_on_device.sh, and packs them into one
# carried tar (build-carry/flag-ab.tar.xz, ignored by git):
#   attnA/attention.fatbin    samples/attention.blk with FLAGS_A
#   attnB/attention.fatbin    samples/attention.blk with FLAGS_B
#   attnC/attention.fatbin    SAMPLE_C (an edited copy of the sample) with
#                             FLAGS_B, when SAMPLE_C is set
#   attnD/attention.fatbin    SAMPLE_D (another edit) with FLAGS_B, when
#                             SAMPLE_D is set
#   gemmA/, gemmB/            bench/gemm/kernels/*.blk with FLAGS_A, FLAGS_B
#   samplesB/                 every samples/*.blk with FLAGS_B (the samples'
#                             GPU session and memcheck run these)
#   FLAGS_B="--stores-from-registers" [FLAGS_A=...] [SAMPLE_C=/tmp/x.blk] [SAMPLE_D=/tmp/y.blk] \
#     bash bench/flag_ab_build.sh [path/to/blkc]
# About 12 minutes on two cores. Then, on the device machine (carry
# build-carry and .rtdeps): bash bench/flag_ab_on_device.sh check|speed|cost.
set -uo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BLKC=${1:-$ROOT/build/bin/blkc}
FLAGS_A=${FLAGS_A:-}
FLAGS_B=${FLAGS_B:?set FLAGS_B to the blkc flags under test}
W=${BLK_FLAG_AB_WORK:-/tmp/blk-flag-ab}
rm -rf "$W" && mkdir -p "$W/attnA" "$W/attnB" "$W/samplesB" "$ROOT/build-carry" || exit 1
status=0
attn() { # attn OUTDIR SOURCE FLAGS
  # shellcheck disable=SC2086 # FLAGS is a list of flags
  "$BLKC" build "$2" --arch sm_90a $3 -o "$1/attention.fatbin" &&
    "$BLKC" inspect "$1/attention.fatbin" > "$W/$(basename "$1").inspect.txt" || status=1
}
attn "$W/attnA" "$ROOT/samples/attention.blk" "$FLAGS_A"
attn "$W/attnB" "$ROOT/samples/attention.blk" "$FLAGS_B"
for variant in C D; do
  sample=SAMPLE_$variant
  [ -n "${!sample:-}" ] || continue
  mkdir -p "$W/attn$variant"
  attn "$W/attn$variant" "${!sample}" "$FLAGS_B"
done
BLK_GEMM_OUT="$W/gemmA" BLK_GEMM_BLKC_FLAGS="$FLAGS_A" \
  bash "$ROOT/bench/gemm/build_gemm_fatbins.sh" "$BLKC" > "$W/gemmA.log" 2>&1 || status=1
BLK_GEMM_OUT="$W/gemmB" BLK_GEMM_BLKC_FLAGS="$FLAGS_B" \
  bash "$ROOT/bench/gemm/build_gemm_fatbins.sh" "$BLKC" > "$W/gemmB.log" 2>&1 || status=1
for s in "$ROOT"/samples/*.blk; do
  name=$(basename "$s" .blk)
  arch=$(sed -n "s/^set(BLK_SAMPLE_ARCH_$name \(sm_[0-9a-z]*\))$/\1/p" "$ROOT/samples/CMakeLists.txt")
  # shellcheck disable=SC2086 # FLAGS_B is a list of flags
  "$BLKC" build "$s" --arch "${arch:-sm_90}" $FLAGS_B -o "$W/samplesB/$name.fatbin" || status=1
done
# The PTX and inspect reports stay here; the tar holds what the device runs.
(cd "$W" && tar cJf "$ROOT/build-carry/flag-ab.tar.xz" --exclude=ptx --exclude=inspect \
  --exclude='*.txt' --exclude='*.log' .) || status=1
ls -l "$ROOT/build-carry/flag-ab.tar.xz"
echo "flag_ab_build.sh: $([ $status = 0 ] && echo built || echo FAILED) (reports in $W)"
exit $status
