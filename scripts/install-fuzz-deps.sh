#!/usr/bin/env bash
# Installs what only `make fuzz` needs (clang-19, libclang-rt-19-dev: libFuzzer
# and clang's ASan/UBSan), through install-deps.sh's idempotent apt logic.
# `make test` never needs clang: its smoke runs use gcc's sanitizers.
set -euo pipefail
BLK_FUZZ_DEPS=1 exec bash "$(dirname "$0")/install-deps.sh"
