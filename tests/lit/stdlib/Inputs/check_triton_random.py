"""std.random against Triton: usage check_triton_random.py BLKC SOURCE TMPDIR.

Compares blkc run's randint4x (four lanes), randint, rand and randn, and
uniform_f32 on edge bit patterns, with triton_random.expected (written by
triton_random_ref.py, a numpy reference of Triton's random.py). Integers
and rand must match bit for bit; randn within two f32 ulps (log, sqrt and
cos may round differently)."""
import os
import struct
import sys

sys.path.insert(0, os.path.dirname(__file__))
from stdref import Checker, blkc_run, write  # noqa: E402

blkc, src, tmp = sys.argv[1:4]
draws, edges = {}, []
with open(os.path.join(os.path.dirname(__file__), "triton_random.expected")) as f:
    for line in f:
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            continue
        if fields[0] == "draw":
            seed, off = int(fields[1]), int(fields[2])
            draws.setdefault(seed, []).append((off, [int(h, 16) for h in fields[3:]]))
        else:
            edges.append((int(fields[1], 16), int(fields[2], 16)))


def f32_bits(values):
    return list(struct.unpack("<%dI" % len(values), struct.pack("<%df" % len(values), *values)))


def ordered(b):
    """f32 bits as an integer whose order is the floats' order."""
    return b if b < 0x80000000 else 0x80000000 - b


chk = Checker()
for seed, rows in draws.items():
    n = len(rows)
    offs = os.path.join(tmp, "offs.bin")
    write(offs, "i", [off for off, _ in rows])
    o = blkc_run(blkc, src, "draws", ["offs=file:i32:" + offs, "ints4=zeros:u32:%d" % (4 * n),
                                      "ints=zeros:u32:%d" % n, "unif=zeros:f32:%d" % n,
                                      "normal=zeros:f32:%d" % n, "seed=%d" % seed, "n=%d" % n],
                 {"ints4": "I", "ints": "I", "unif": "f", "normal": "f"}, tmp)
    want = [w for _, w in rows]
    chk.check("randint4x_seed%d" % seed, o["ints4"], [x for w in want for x in w[:4]])
    chk.check("randint_seed%d" % seed, o["ints"], [w[0] for w in want])
    # The lane-0 words whose i32 is negative: Triton's -x - 1 branch.
    negative = sum(w[0] >= 0x80000000 for w in want)
    chk.check("rand_seed%d_negative%d" % (seed, negative), f32_bits(o["unif"]),
              [w[4] for w in want])
    ulps = [float(abs(ordered(g) - ordered(w[5]))) for g, w in zip(f32_bits(o["normal"]), want)]
    chk.check("randn_seed%d" % seed, ulps, [0.0] * n, 0.0, 2.0)

bits = os.path.join(tmp, "bits.bin")
write(bits, "I", [b for b, _ in edges])
o = blkc_run(blkc, src, "uniform", ["bits=file:u32:" + bits, "out=zeros:f32:%d" % len(edges),
                                    "n=%d" % len(edges)], {"out": "f"}, tmp)
chk.check("uniform_edges", f32_bits(o["out"]), [f for _, f in edges])
chk.finish()
