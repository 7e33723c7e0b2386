#!/usr/bin/env bash
# Builds the artifact fuzzing corpus: real fatbins compiled by blkc from
# samples/ into OUT/real, and the tampered set made from them
# (make_tampered.py) into OUT/tampered. Used by the ctest fixture of
# tests/fuzz/CMakeLists.txt and by scripts/fuzz.sh (the libFuzzer seeds).
# Exit 77 (ctest: skipped) when the CUDA toolkit is missing.
#   usage: make_corpus.sh BLKC SOURCE_DIR OUT
set -euo pipefail
blkc=$1 src=$2 out=$3
cuda=${CUDA_HOME:-/usr/local/cuda}
if [ ! -x "$cuda/bin/ptxas" ] || [ ! -x "$cuda/bin/fatbinary" ]; then
  echo "make_corpus: no ptxas/fatbinary in $cuda/bin: blkc cannot build fatbins, skipped"
  exit 77
fi
rm -rf "$out/real" "$out/tampered"
mkdir -p "$out/real"
# Two cubins and PTX with a @grid; one cubin with @specialize value variants
# and shared memory (so every case of make_tampered.py applies to one input).
"$blkc" build "$src/samples/double.blk" --arch sm_80,sm_90 -o "$out/real/double.fatbin"
"$blkc" build "$src/samples/transpose_tile.blk" -o "$out/real/transpose_tile.fatbin"
python3 "$src/tests/fuzz/make_tampered.py" --out "$out/tampered" "$out/real"/*.fatbin
