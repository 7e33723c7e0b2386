#!/usr/bin/env bash
# Checks editors/vim: `*.blk` gets filetype blk and each token class of
# tests/editors/vim/sample.blk gets its syntax group (line col group).
# Skips (exit 77) when vim is not installed.
set -uo pipefail
src="$1"
if ! command -v vim >/dev/null 2>&1; then
  echo "SKIP: vim is not installed"
  exit 77
fi
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
# line col expected-group
expected='1 1 blkAttribute
2 1 blkStorage
2 8 blkDeclName
2 23 blkPointer
2 43 blkType
2 48 blkConst
2 54 blkConstName
3 5 blkStorage
3 19 blkBuiltin
3 43 blkBuiltin
3 50 blkNumber
3 61 blkLineComment
4 26 blkNumber
4 33 blkNumber
4 40 blkFloat
4 47 blkFloat
4 58 blkBoolean
5 5 blkBlockComment
5 17 blkBuiltin
5 23 blkString
5 28 blkEscape
5 33 blkConstant'
probes="$(awk '{printf "[%s,%s],", $1, $2}' <<<"$expected")"
vim -N -u NONE -i NONE -es --cmd "set rtp^=$src/editors/vim" \
  -c 'filetype on' -c 'syntax on' -c "e $src/tests/editors/vim/sample.blk" \
  -c "redir! > $out" -c 'echo "filetype" &ft' \
  -c "for [l,c] in [${probes%,}] | echo l c synIDattr(synID(l,c,1),'name') | endfor" \
  -c 'redir END' -c 'qa!'
actual="$(sed '/^$/d' "$out")"
want="filetype blk
$expected"
if [ "$actual" != "$want" ]; then
  diff <(echo "$want") <(echo "$actual")
  echo "FAIL: vim syntax groups differ (left expected, right actual)"
  exit 1
fi
echo "vim syntax test: PASS ($(wc -l <<<"$expected") probes)"
