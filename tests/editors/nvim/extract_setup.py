#!/usr/bin/env python3
"""Prints the Neovim setup snippet of editors/vim/README.md that fits a
Neovim version, with its two placeholder paths replaced, so the test runs
exactly what users copy. Each snippet starts with a line
`-- init.lua (Neovim >= X.Y)` or `-- init.lua (Neovim X.Y to Z.W)`; the
newest form that fits wins.
Usage: extract_setup.py <README.md> <nvim version X.Y.Z> <editors/vim dir> <blkc>
"""
import re
import sys

readme, version, vimDir, blkc = sys.argv[1:]
have = tuple(int(x) for x in version.split(".")[:2])
blocks = re.findall(r"```lua\n(.*?)```", open(readme).read(), re.S)
best = None
for block in blocks:
    head = block.split("\n", 1)[0]
    m = re.match(r"-- init\.lua \(Neovim (?:>= (\d+)\.(\d+)|(\d+)\.(\d+) to (\d+)\.(\d+))\)$", head)
    if not m:
        continue
    if m.group(1):
        low, high = (int(m.group(1)), int(m.group(2))), (99, 99)
    else:
        low, high = (int(m.group(3)), int(m.group(4))), (int(m.group(5)), int(m.group(6)))
    if low <= have <= high and (best is None or low > best[0]):
        best = (low, block)
if best is None:
    sys.exit("no Neovim setup snippet in %s fits Neovim %s" % (readme, version))
code = best[1]
for old, new in (("'/path/to/blk/editors/vim'", repr(vimDir)), ("'blkc', 'lsp'", "%r, 'lsp'" % blkc)):
    if old not in code:
        sys.exit("the snippet no longer contains %s" % old)
    code = code.replace(old, new)
sys.stdout.write(code)
