"""Prints, for each cubin of a fatbin, its arch-independent facts: the
number of `.text.<entry>` sections and whether `__blk_manifest` and
`__blk_resources` are symbols of it (tests/lit/target/build-many-entries.test).
  python3 cubin_entries.py FILE.fatbin
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "..", "fuzz"))
from artifact_format import Elf, read_fatbin  # noqa: E402

for entry in read_fatbin(open(sys.argv[1], "rb").read()):
    if not entry.payload.startswith(b"\x7fELF"):
        continue  # the PTX image
    elf = Elf(entry.payload)
    names = [elf.section_name(i) for i in range(elf.shnum)]
    texts = sorted(n for n in names if n.startswith(".text."))
    symbols = []
    for name in ("__blk_manifest", "__blk_resources"):
        try:
            elf.symbol(name)
            symbols.append(name)
        except KeyError:
            pass
    print(f"cubin: {len(texts)} entries, first {texts[0]}, last {texts[-1]}; symbols {' '.join(symbols)}")
