#!/usr/bin/env python3
"""Fails when a diagnostic kind of DiagnosticKinds.def has no test.

Every id declared as DIAG(id, ...) in
compiler/include/blk/Support/DiagnosticKinds.def must appear, as a whole
word, in some test file under tests/lit/ (e.g. a `// DIAG: <id>` comment in
the fail_*.blk test that triggers it, or a FileCheck line on JSON output,
where diagnostics print their id). Usage: diag-coverage.py SOURCE_ROOT
"""
import os
import re
import sys

root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
table = os.path.join(root, "compiler", "include", "blk", "Support", "DiagnosticKinds.def")
ids = re.findall(r"^\s*DIAG\(\s*(\w+)\s*,", open(table, encoding="utf-8").read(), re.M)
if not ids:
    sys.exit("diag-coverage: no DIAG rows found in " + table)

words = set()
lit_dir = os.path.join(root, "tests", "lit")
for dirpath, dirnames, filenames in os.walk(lit_dir):
    dirnames[:] = [d for d in dirnames if d != "Output"]
    for name in filenames:
        if name.endswith(".py"):
            continue
        with open(os.path.join(dirpath, name), encoding="utf-8", errors="replace") as f:
            words.update(re.findall(r"\w+", f.read()))

missing = [i for i in ids if i not in words]
for i in missing:
    print("diag-coverage: no test under tests/lit/ names diagnostic kind `%s`" % i)
print("diag-coverage: %d kinds, %d covered, %d missing" % (len(ids), len(ids) - len(missing), len(missing)))
sys.exit(1 if missing else 0)
