#!/usr/bin/env bash
# Installs, with apt, only the build and test dependencies that are missing.
# Idempotent: runs `apt-get update` only when something must be installed.
set -euo pipefail

packages=(
  antlr4 libantlr4-runtime-dev uuid-dev
  llvm-19-dev llvm-19-tools libmlir-19-dev mlir-19-tools
  libzstd-dev zlib1g-dev
  libcli11-dev libspdlog-dev libfmt-dev nlohmann-json3-dev libgtest-dev
  ninja-build cmake g++ python3 ccache
  # Editor tests (tests/editors): the Neovim test runs its LSP client.
  neovim
)
if [ "${BLK_RUNTIME_ONLY:-0}" = 1 ]; then
  packages=(cmake g++ libgtest-dev nlohmann-json3-dev)
fi
# `make fuzz` only (scripts/install-fuzz-deps.sh): clang 19, libFuzzer and
# clang's sanitizer runtimes. `make test` never needs them.
if [ "${BLK_FUZZ_DEPS:-0}" = 1 ]; then
  packages=(clang-19 libclang-rt-19-dev)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

# The VS Code client and grammar tests build the extension with npm. A
# nodejs that bundles npm (e.g. NodeSource's) counts; else Debian's two.
if [ "${BLK_RUNTIME_ONLY:-0}" != 1 ] && [ "${BLK_FUZZ_DEPS:-0}" != 1 ] &&
   ! command -v npm >/dev/null 2>&1; then
  missing+=(nodejs npm)
fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
