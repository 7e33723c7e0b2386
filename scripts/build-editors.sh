#!/usr/bin/env bash
# Builds the VS Code extension (`make editors`): installs the npm packages
# pinned in editors/vscode/package-lock.json, compiles the TypeScript client
# and packages editors/vscode/blk-<version>.vsix with @vscode/vsce. The
# .vsix bundles the compiled client and its runtime dependency
# (vscode-languageclient), so installing it needs no network.
# BLK_VSIX=<path> writes the .vsix elsewhere. BLK_EDITORS_BUILD=<dir> builds
# in a copy of the extension under <dir>, leaving the source tree untouched
# (tests/editors/run_vscode_client_test.sh does). The vim files need no build.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
ext="$root/editors/vscode"

if ! command -v npm >/dev/null 2>&1; then
  echo "build-editors: npm not found; installing nodejs and npm with apt" >&2
  SUDO=""
  [ "$(id -u)" = 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends nodejs npm
fi

if [ -n "${BLK_EDITORS_BUILD:-}" ]; then
  mkdir -p "$BLK_EDITORS_BUILD"
  # Everything but the build products; node_modules stays when the lockfile
  # did not change (npm ci below reinstalls it anyway, from the npm cache).
  (cd "$ext" && tar --exclude=./node_modules --exclude=./out --exclude='./*.vsix' -cf - .) |
    (cd "$BLK_EDITORS_BUILD" && tar -xf -)
  ext="$BLK_EDITORS_BUILD"
fi

cd "$ext"
version="$(node -p 'require("./package.json").version')"
out="${BLK_VSIX:-$ext/blk-$version.vsix}"

# `npm ci` installs exactly the lockfile, so every build packages the same code.
npm ci --no-audit --no-fund --prefer-offline
npm run compile
# No stdin: vsce must never stop at a question.
npx --no-install vsce package --allow-missing-repository --skip-license -o "$out" </dev/null
echo "build-editors: wrote $out"
