#!/usr/bin/env bash
# Makes .rtdeps/, what the device scripts (bench/run_on_device.sh,
# tests/gpu/*_on_device.sh) need on a GPU machine that has no LLVM and may
# lack the header-only and source packages: a copy of nlohmann-json and of
# the GoogleTest sources from this machine (installed by
# scripts/install-deps.sh), and blkc-built artifacts of samples/double_grid.blk
# (alone, for sm_90a, and after 300 other kernels) for the runtime's
# end-to-end check, and tests/gpu/kernels/fp8_casts.blk for sm_90 (.rtdeps/fp8).
# Carry `.rtdeps` in the device call.
#   bash scripts/make-rtdeps.sh [path/to/blkc]      (from anywhere)
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
BLKC=${1:-$ROOT/build/bin/blkc}
D=$ROOT/.rtdeps
mkdir -p "$D/include" "$D/e2e"
[ -d /usr/include/nlohmann ] || { echo "make-rtdeps: /usr/include/nlohmann missing (run scripts/install-deps.sh)" >&2; exit 1; }
rm -rf "$D/include/nlohmann" "$D/googletest"
cp -r /usr/include/nlohmann "$D/include/"
[ -d /usr/src/googletest ] && cp -r /usr/src/googletest "$D/googletest"
if [ -x "$BLKC" ]; then
  "$BLKC" build "$ROOT/samples/double_grid.blk" -o "$D/e2e/double_grid.fatbin"
  "$BLKC" build "$ROOT/samples/double_grid.blk" --arch sm_90a -o "$D/e2e/double_grid_sm90a.fatbin"
  # double_grid after 300 one-line kernels: its entries are compiled in
  # another PTX module than the manifest's and linked (ArtifactSteps.h).
  many=$(mktemp --suffix=.blk)
  python3 -c "print(''.join(f'kernel filler{i}(x: *f32) {{ store(x + arange(0, 16), {i}.0); }}\n' for i in range(300)))" > "$many"
  cat "$ROOT/samples/double_grid.blk" >> "$many"
  "$BLKC" build "$many" -o "$D/e2e/double_grid_after_300.fatbin"
  rm -f "$many"
  # fp8 conversions, checked by tests/gpu/Fp8Casts.cpp (fp8 needs sm_90).
  mkdir -p "$D/fp8"
  "$BLKC" build "$ROOT/tests/gpu/kernels/fp8_casts.blk" --arch sm_90 -o "$D/fp8/fp8_casts.fatbin"
else
  echo "make-rtdeps: no blkc at $BLKC: .rtdeps/e2e left as it is" >&2
fi
du -sh "$D"
