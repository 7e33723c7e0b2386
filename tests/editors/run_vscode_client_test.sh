#!/usr/bin/env bash
# ctest driver for the VS Code client test: builds the .vsix exactly as
# `make editors` does (scripts/build-editors.sh, in <work-dir>), unpacks it,
# checks that it bundles the compiled client and vscode-languageclient, and
# runs the unpacked extension's activate() against <blkc> with a mocked
# `vscode` module (vscode/activation_test.js).
# Skips (exit 77) only when node/npm are missing or the npm registry cannot
# be reached; any other failure fails.
# Usage: run_vscode_client_test.sh <source-dir> <work-dir> <blkc>
set -uo pipefail
src="$1"
work="$2"
blkc="$3"
kSkip=77

for tool in node npm; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "SKIP: '$tool' is not installed; the VS Code client test needs node and npm"
    exit $kSkip
  fi
done

mkdir -p "$work"
vsix="$work/blk.vsix"
rm -f "$vsix"
if ! BLK_EDITORS_BUILD="$work/ext" BLK_VSIX="$vsix" \
     timeout 900 bash "$src/scripts/build-editors.sh" >"$work/build.log" 2>&1; then
  tail -n 20 "$work/build.log"
  if ! (cd "$work" && timeout 60 npm ping >/dev/null 2>&1); then
    echo "SKIP: npm registry unreachable, cannot install the extension's packages"
    exit $kSkip
  fi
  echo "FAIL: scripts/build-editors.sh failed (see $work/build.log)"
  exit 1
fi

unpacked="$work/unpacked"
rm -rf "$unpacked"
python3 - "$vsix" "$unpacked" <<'PY' || exit 1
import sys, zipfile
vsix, dest = sys.argv[1:]
with zipfile.ZipFile(vsix) as z:
    names = set(z.namelist())
    for need in ("extension/package.json", "extension/out/extension.js",
                 "extension/syntaxes/blk.tmLanguage.json",
                 "extension/node_modules/vscode-languageclient/node.js"):
        if need not in names:
            sys.exit("FAIL: the .vsix lacks " + need)
    for name in names:
        if name.startswith("extension/src/") or name.startswith("extension/node_modules/typescript/"):
            sys.exit("FAIL: the .vsix ships a development file: " + name)
    z.extractall(dest)
print("PASS vsix bundles the client and vscode-languageclient (%d files)" % len(names))
PY

node "$src/tests/editors/vscode/activation_test.js" "$unpacked/extension" "$blkc" "$work"
