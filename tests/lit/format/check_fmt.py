#!/usr/bin/env python3
"""`blkc fmt` on every sample and stdlib file: formatting is idempotent
(fmt(fmt(x)) == fmt(x)), and the formatted file is the same program: the
same AST (positions aside) and, for files with kernels, the same blk IR
(the source path and hash attributes aside).
Usage: check_fmt.py <blkc> <source root>
"""
import glob
import os
import re
import subprocess
import sys
import tempfile

blkc, root = sys.argv[1:]
files = sorted(glob.glob(os.path.join(root, "samples", "*.blk")) +
               glob.glob(os.path.join(root, "stdlib", "std", "*.blk")))
assert len(files) >= 10, files


def run(*args):
    return subprocess.run([blkc, *args], capture_output=True, text=True)


def ast(path):
    r = run("check", "--dump-ast", path)
    assert r.returncode == 0, (path, r.stderr)
    return re.sub(r" <[^<>]*:\d+:\d+-\d+:\d+>", "", r.stdout)


def ir(path, out):
    r = run("build", "--emit=ir", path, "-I", os.path.dirname(path), "-o", out)
    assert r.returncode == 0, (path, r.stderr)
    text = open(out).read()
    return re.sub(r'blk\.source(_hash)? = "[^"]*"', "", text)


failed = 0
work = tempfile.mkdtemp(prefix="blk-fmt-")
for path in files:
    name = os.path.relpath(path, root)
    try:
        once = run("fmt", path)
        assert once.returncode == 0, once.stderr
        formatted = os.path.join(work, os.path.basename(path))
        with open(formatted, "w") as f:
            f.write(once.stdout)
        twice = run("fmt", formatted)
        assert twice.returncode == 0, twice.stderr
        assert twice.stdout == once.stdout, "fmt(fmt(x)) != fmt(x)"
        check = run("fmt", "--check", formatted)
        assert check.returncode == 0 and check.stdout == "", check
        assert ast(formatted) == ast(path), "the AST changed"
        a = ir(path, os.path.join(work, "a.mlir"))
        b = ir(formatted, os.path.join(work, "b.mlir"))
        assert a == b, "the IR changed"
        print("ok", name, "(%d kernels)" % a.count("func.func @"))
    except AssertionError as e:
        failed += 1
        print("FAIL", name, e)
print("fmt: %d files, %d failed" % (len(files), failed))
sys.exit(1 if failed else 0)
