#!/bin/sh
# PTX of every codegen lit kernel, for gpu_check.py: make_ptx.sh BUILD_DIR OUT_DIR
set -e
build=$1; out=$2
mkdir -p "$out"
for f in "$(dirname "$0")"/../*.mlir; do
  name=$(basename "$f" .mlir)
  "$build/bin/blk-codegen-test" "$f" --emit=ptx > "$out/$name.ptx"
done
