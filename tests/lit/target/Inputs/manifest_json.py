"""Prints parts of the manifest in a PTX file, one per line (lit helper).

  manifest_json.py FILE.ptx hashes   -> `kernel | config_key | code_hash` per spec
  manifest_json.py FILE.ptx access   -> `kernel param access` per pointer param
  manifest_json.py FILE.ptx FIELD... -> json.dumps of manifest[FIELD][...]
                                        (integers index arrays)
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(__file__))
ptx = open(sys.argv[1]).read()
match = re.search(r"__blk_manifest\[(\d+)\]\s*=\s*\{([^}]*)\}", ptx)
if not match:
    sys.exit("no __blk_manifest in " + sys.argv[1])
manifest = json.loads(bytes(int(b) for b in match.group(2).replace("\n", " ").split(",")))
what = sys.argv[2:]
if what == ["hashes"]:
    for k in manifest["kernels"]:
        for s in k["specializations"]:
            print(k["name"], "|", s["config_key"], "|", s["code_hash"])
elif what == ["access"]:
    for k in manifest["kernels"]:
        for p in k["params"]:
            if "access" in p:
                print(k["name"], p["name"], p["access"])
else:
    node = manifest
    for step in what:
        node = node[int(step)] if isinstance(node, list) else node[step]
    print(json.dumps(node, separators=(",", ":")))
