#!/usr/bin/env bash
# `make run`: check every sample with blkc (later stages extend this).
set -euo pipefail
build=${1:-build}
status=0
for f in samples/*.blk; do
  if "$build/bin/blkc" check "$f" >/dev/null 2>&1; then
    echo "ok    $f"
  else
    echo "FAIL  $f"; status=1
  fi
done
exit $status
