"""Prints the `__blk_manifest` bytes of a PTX file as text (lit helper)."""
import re
import sys

ptx = open(sys.argv[1]).read()
match = re.search(r"__blk_manifest\[(\d+)\]\s*=\s*\{([^}]*)\}", ptx)
if not match:
    sys.exit("no __blk_manifest in " + sys.argv[1])
data = bytes(int(b) for b in match.group(2).replace("\n", " ").split(","))
if len(data) != int(match.group(1)):
    sys.exit(f"declared {match.group(1)} bytes, initialised {len(data)}")
print(data.decode("utf-8"))
