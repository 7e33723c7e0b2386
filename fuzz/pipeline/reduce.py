#!/usr/bin/env python3
"""Shrinks a failing kernel: drops statements while a test still says "interesting".

  reduce.py KERNEL.blk TEST [--out SMALL.blk]

TEST is a shell command run in a scratch directory holding the candidate as
k.blk; it exits 0 when the candidate still shows the problem (and should
check that `blkc check k.blk` passes, so that a broken candidate is not
mistaken for the bug). Lines inside the kernel body are removed in chunks
that halve down to one line (a line ending in `{` goes with its block), then
unused `let`s and parameters are dropped. The result is written to --out
(default: KERNEL.min.blk).
"""
import argparse
import os
import re
import subprocess
import tempfile


def interesting(lines, test, scratch):
    with open(os.path.join(scratch, "k.blk"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return subprocess.run(test, shell=True, cwd=scratch, stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0


def block_end(lines, i):
    """The index after the statement starting at line i (a whole block for `{`)."""
    if not lines[i].rstrip().endswith("{"):
        return i + 1
    depth = 0
    for j in range(i, len(lines)):
        depth += lines[j].count("{") - lines[j].count("}")
        if depth == 0:
            return j + 1
    return len(lines)


def statements(lines):
    """(start, end) of each top-level and nested statement of the kernel body."""
    body = next(i for i, l in enumerate(lines) if l.startswith("kernel ")) + 1
    out, i = [], body
    while i < len(lines) - 1:
        if lines[i].strip() in ("}", "} else {"):
            i += 1
            continue
        out.append((i, block_end(lines, i)))
        i += 1
    return out


def shrink(lines, test, scratch):
    chunk = max(1, len(statements(lines)) // 2)
    while True:
        changed = False
        stmts = statements(lines)
        k = len(stmts) - 1
        while k >= 0:
            lo = max(0, k - chunk + 1)
            drop = set()
            for s, e in stmts[lo:k + 1]:
                drop.update(range(s, e))
            candidate = [l for i, l in enumerate(lines) if i not in drop]
            if interesting(candidate, test, scratch):
                lines, changed = candidate, True
                stmts = statements(lines)  # the statements before lo keep their places
            k = lo - 1
        if chunk == 1 and not changed:
            return lines
        chunk = max(1, chunk // 2)


def drop_params(lines, test, scratch):
    head = next(i for i, l in enumerate(lines) if l.startswith("kernel "))
    m = re.match(r"(kernel \w+\()(.*)(\) \{)", lines[head])
    params = [p.strip() for p in m.group(2).split(",")]
    body = "\n".join(lines[head + 1:])
    for p in list(params):
        name = p.replace("const ", "").split(":")[0].strip()
        if re.search(r"\b%s\b" % name, body + "".join(l for l in lines[:head] if not l.startswith("//"))):
            continue
        trial = [q for q in params if q != p]
        candidate = list(lines)
        candidate[head] = m.group(1) + ", ".join(trial) + m.group(3)
        if interesting(candidate, test, scratch):
            lines, params = candidate, trial
    return lines


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("kernel")
    ap.add_argument("test")
    ap.add_argument("--out")
    args = ap.parse_args()
    lines = open(args.kernel).read().rstrip("\n").split("\n")
    with tempfile.TemporaryDirectory() as scratch:
        if not interesting(lines, args.test, scratch):
            raise SystemExit("reduce.py: the test does not hold for the original kernel")
        lines = shrink(lines, args.test, scratch)
        lines = drop_params(lines, args.test, scratch)
    out = args.out or re.sub(r"\.blk$", "", args.kernel) + ".min.blk"
    with open(out, "w") as f:
        f.write("\n".join(lines) + "\n")
    print("reduce.py: %d lines in %s" % (len(lines), out))


if __name__ == "__main__":
    main()
