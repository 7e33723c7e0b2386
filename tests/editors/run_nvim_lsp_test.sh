#!/usr/bin/env bash
# Headless Neovim against `blkc lsp`: runs the setup snippet of
# editors/vim/README.md that fits the installed Neovim (extracted by
# nvim/extract_setup.py), opens a .blk file with a known error and checks
# that the client attached, initialised, and shows blkc's diagnostic at the
# right place (nvim/check_diagnostics.lua).
# Skips (exit 77) when nvim is not installed (scripts/install-deps.sh
# installs Debian's neovim).
# Usage: run_nvim_lsp_test.sh <source-dir> <blkc>
set -uo pipefail
src="$1"
blkc="$2"
if ! command -v nvim >/dev/null 2>&1; then
  echo "SKIP: nvim is not installed (scripts/install-deps.sh installs neovim)"
  exit 77
fi
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
version="$(nvim --version | sed -n '1s/^NVIM v\([0-9.]*\).*/\1/p')"
echo "Neovim $version"
python3 "$src/tests/editors/nvim/extract_setup.py" "$src/editors/vim/README.md" \
  "$version" "$src/editors/vim" "$blkc" >"$work/init.lua" || exit 1
sed 's/^/  init.lua: /' "$work/init.lua"

# Line 2 (0-based 1), column of `arange`: not a power of two.
printf 'kernel k(out: *f32) {\n    let x = arange(0, 3);\n    store(out, 1.0);\n}\n' >"$work/bad.blk"
cd "$work"
BLK_NVIM_OUT="$work/result.txt" timeout 60 nvim --headless -n -i NONE -u "$work/init.lua" \
  -c "luafile $src/tests/editors/nvim/check_diagnostics.lua" bad.blk >"$work/nvim.log" 2>&1
rc=$?
cat "$work/result.txt" 2>/dev/null
status=0
expect() {
  if ! grep -qP "$1" "$work/result.txt" 2>/dev/null; then
    echo "FAIL: expected a line matching: $1"
    status=1
  fi
}
expect '^filetype\tblk$'
expect '^attached\ttrue$'
expect '^hoverProvider\ttrue$'
expect '^diagnostic\t1\t12\t1\tblkc\tsema_\w+\t.*power of two'
if [ $status -ne 0 ] || [ $rc -ne 0 ]; then
  echo "nvim exit code $rc; its output:"
  cat "$work/nvim.log"
  exit 1
fi
echo "nvim LSP test: PASS"
