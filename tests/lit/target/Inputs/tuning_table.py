"""Writes a tuning table for Inputs/tuned.blk's `rows` from a build's
manifest, as the runtime's tuner would (lit helper; docs/manifest.md).

  tuning_table.py FILE.ptx [stale]

`stale`: the first timing carries a code_hash of other code. Fields are in
an order of their own, with extra ones, so that embedding shows it
normalises.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
import re

ptx = open(sys.argv[1]).read()
match = re.search(r"__blk_manifest\[(\d+)\]\s*=\s*\{([^}]*)\}", ptx)
manifest = json.loads(bytes(int(b) for b in match.group(2).replace("\n", " ").split(",")))
rows = next(k for k in manifest["kernels"] if k["name"] == "rows")
specs = rows["specializations"]
timings = [{"ms": 0.25 + i, "code_hash": s["code_hash"], "config": s["config_key"]}
           for i, s in enumerate(specs)]
if sys.argv[2:] == ["stale"]:
    timings[0]["code_hash"] = "0123456789abcdef"
table = {
    "version": 1, "format": "blk-tuning", "artifact": "tuned.fatbin",
    "device": {"sm": 90, "name": "NVIDIA H200", "memory_gb": 141},
    "entries": [
        {"config": specs[1]["config_key"], "key": {"n_cols": 1000, "n_rows": 4096},
         "kernel": "rows", "timings": timings, "note": "dropped",
         "skipped": [{"reason": "requires fails", "config": specs[0]["config_key"]}]},
        {"kernel": "rows", "key": {"n_rows": 16, "n_cols": 64}, "config": specs[0]["config_key"]},
    ],
}
print(json.dumps(table, indent=1))
