#!/usr/bin/env python3
"""Checks that README.md shows files of the repository verbatim.

A block shown as a file is preceded by `<!-- file: PATH -->` (PATH relative
to the repository root) and must equal that file byte for byte, so the
package test, which builds the files, builds exactly what the README shows.
Usage: check_readme_files.py ROOT README PATH...  (each PATH must be shown).
"""
import re
import sys

MARKER = re.compile(r"<!-- file: (\S+) -->\n```[a-z]*\n(.*?)^```$", re.S | re.M)


def main() -> int:
    root, readme, required = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(readme, encoding="utf-8") as f:
        text = f.read()
    shown = {}
    for m in MARKER.finditer(text):
        shown[m.group(1)] = m.group(2)
    failures = []
    for path in required:
        if path not in shown:
            failures.append(f"{readme} does not show `{path}` (no `<!-- file: {path} -->` block)")
    for path, block in shown.items():
        with open(f"{root}/{path}", encoding="utf-8") as f:
            actual = f.read()
        if block != actual:
            failures.append(f"the block of `{path}` in {readme} differs from the file; "
                            "copy one onto the other")
    for failure in failures:
        print(f"error: {failure}")
    if not failures:
        print(f"ok: {len(shown)} files shown verbatim in {readme}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
