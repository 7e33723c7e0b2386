#!/usr/bin/env python3
"""Fails when a scope of the blk TextMate grammar is never asserted.

Every `name` in editors/vscode/syntaxes/blk.tmLanguage.json (except meta.*
wrappers) must appear in a positive `^`/`<-` assertion of some file under
tests/editors/grammar/, so a new token class cannot land untested.
Usage: check_grammar_coverage.py <grammar.json> <test files...>
"""
import json
import re
import sys


def scopeNames(node, out):
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("name", "contentName") and isinstance(value, str):
                out.add(value)
            else:
                scopeNames(value, out)
    elif isinstance(node, list):
        for item in node:
            scopeNames(item, out)


def main():
    grammar = json.load(open(sys.argv[1]))
    names = set()
    scopeNames(grammar.get("repository", {}), names)
    names = {n for n in names if not n.startswith("meta.")}
    asserted = set()
    assertion = re.compile(r"^\s*//\s*(?:\^+|<-+)\s+([^-].*)$")
    for path in sys.argv[2:]:
        for line in open(path):
            m = assertion.match(line)
            if m:
                asserted.update(m.group(1).split())
    missing = sorted(names - asserted)
    if missing:
        print("grammar scopes without a test assertion:")
        for name in missing:
            print("  " + name)
        return 1
    print(f"all {len(names)} grammar scopes are asserted")
    return 0


if __name__ == "__main__":
    sys.exit(main())
