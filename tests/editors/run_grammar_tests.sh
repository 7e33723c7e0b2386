#!/usr/bin/env bash
# ctest driver for the TextMate grammar tests (tests/editors/grammar/*.blk).
# Installs vscode-tmgrammar-test from editors/vscode/package-lock.json into
# <work-dir> (never into the source tree), then
#   1. runs every scope assertion of tests/editors/grammar/ (must pass),
#   2. runs tests/editors/grammar-negative/ (must FAIL: the tool really checks),
#   3. checks that every scope of the grammar is asserted somewhere.
# Without node/npm or network the test exits 77, which ctest reports as
# skipped, with the reason printed: missing tooling is never a failure.
# Usage: run_grammar_tests.sh <source-dir> <work-dir>
set -uo pipefail
src="$1"
work="$2"
ext="$src/editors/vscode"
grammar="$ext/syntaxes/blk.tmLanguage.json"
kSkip=77

for tool in node npm; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "SKIP: '$tool' is not installed; the grammar tests need node and npm"
    exit $kSkip
  fi
done

mkdir -p "$work"
cp "$ext/package.json" "$ext/package-lock.json" "$work/"
stamp="$work/node_modules/.blk-lock-sha"
lockSha="$(sha256sum "$ext/package-lock.json" | cut -d' ' -f1)"
runner="$work/node_modules/.bin/vscode-tmgrammar-test"
if [ ! -x "$runner" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$lockSha" ]; then
  echo "installing npm packages from editors/vscode/package-lock.json into $work"
  if ! (cd "$work" && timeout 600 npm ci --no-audit --no-fund --prefer-offline \
          --ignore-scripts >npm-ci.log 2>&1); then
    tail -n 5 "$work/npm-ci.log"
    # Only a registry that cannot be reached is a reason to skip; a broken
    # lockfile with the network up is a real failure.
    if ! (cd "$work" && timeout 60 npm ping >/dev/null 2>&1); then
      echo "SKIP: npm registry unreachable, cannot install vscode-tmgrammar-test"
      exit $kSkip
    fi
    echo "FAIL: npm ci failed although the registry answers (see $work/npm-ci.log)"
    exit 1
  fi
  echo "$lockSha" >"$stamp"
fi

status=0
echo "== positive grammar tests"
if ! "$runner" -c -g "$grammar" "$src/tests/editors/grammar/*.blk"; then
  echo "FAIL: scope assertions in tests/editors/grammar/ failed"
  status=1
fi

echo "== negative grammar test (must report failures)"
negOut="$("$runner" -c -g "$grammar" "$src/tests/editors/grammar-negative/*.blk" 2>&1)"
negRc=$?
if [ $negRc -eq 0 ] || ! grep -qi "missing required scopes" <<<"$negOut"; then
  echo "$negOut"
  echo "FAIL: wrong assertions were accepted; the grammar test checks nothing"
  status=1
else
  echo "wrong assertions rejected as expected"
fi

echo "== scope coverage"
python3 "$src/tests/editors/check_grammar_coverage.py" "$grammar" "$src"/tests/editors/grammar/*.blk || status=1

[ $status -eq 0 ] && echo "grammar tests: PASS"
exit $status
