"""std.index checker: usage check_index.py BLKC SOURCE TMPDIR."""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(__file__))
from stdref import Checker, blkc_run, write  # noqa: E402

blkc, src, tmp = sys.argv[1:4]
chk = Checker()


def swizzle2d(i, j, size_i, size_j, size_g):
    """triton.language.swizzle2d, operation for operation."""
    ij = i * size_j + j
    size_gj = size_g * size_j
    group_id = ij // size_gj
    off_i = group_id * size_g
    size_g = min(size_i - off_i, size_g)
    ij = ij % size_gj
    return off_i + ij % size_g, ij // size_g


perms = []
for si, sj, sg in ((5, 7, 3), (8, 8, 2), (6, 3, 4), (4, 5, 1)):
    o = blkc_run(blkc, src, "swizzle", ["out=zeros:i32:192", "size_i=%d" % si,
                                        "size_j=%d" % sj, "size_g=%d" % sg], {"out": "i"}, tmp)["out"]
    n = si * sj
    want = [swizzle2d(k // sj, k % sj, si, sj, sg) for k in range(n)]
    got = list(zip(o[64:64 + n], o[128:128 + n]))
    packed = [a * sj + b for a, b in want]
    name = "swizzle2d_%dx%d_g%d" % (si, sj, sg)
    if got != want:
        print("FAIL %s: (i, j) got %r want %r" % (name, got, want))
        chk.failures += 1
    chk.check(name, o[0:n], packed)
    perms.append(float(sorted(o[0:n]) == list(range(n))))
chk.check("swizzle2d_is_a_permutation", perms, [1.0] * len(perms))

rng = random.Random(11)
ns = [0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 33, 63, 64, 65, 100, 127, 128, 129, 1000,
      1023, 1024, 1025, 65535, 65536, 65537, (1 << 30) - 1, 1 << 30, -5]  # 2^30 + 1 would need 2^31: not an i32
ns += [rng.randint(1, 1 << 30) for _ in range(64 - len(ns))]
write(os.path.join(tmp, "n.i32"), "i", ns)
o = blkc_run(blkc, src, "pow2", ["n=file:i32:%s/n.i32" % tmp, "out=zeros:i32:64"],
             {"out": "i"}, tmp)["out"]
chk.check("next_power_of_2", o, [1 if v <= 1 else 1 << (v - 1).bit_length() for v in ns])

o = blkc_run(blkc, src, "tiles", ["off=zeros:i32:128", "mask=zeros:i32:128"],
             {"off": "i", "mask": "i"}, tmp)
rows = [8 + r for r in range(8)]
cols = [32 + c for c in range(16)]
chk.check("tile_offsets", o["off"], [r * 3 + c * 2 for r in rows for c in cols])
chk.check("tile_mask", o["mask"], [int(r < 12 and c < 40) for r in rows for c in cols])
chk.finish()
