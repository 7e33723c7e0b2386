"""std.random checker: usage check_random.py BLKC SOURCE TMPDIR."""
import math
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from stdref import PHILOX_KAT, Checker, blkc_run, f32, philox4x32, uniform_f32  # noqa: E402

blkc, src, tmp = sys.argv[1:4]
chk = Checker()
kat = blkc_run(blkc, src, "kat", ["out=zeros:u32:12"], {"out": "I"}, tmp)["out"]
chk.check("kat", kat, [w for _, _, want in PHILOX_KAT for w in want])

N = 4096
normals = []
for seed, base in ((42, 0), (0x123456789ABCDEF, 1000)):
    o = blkc_run(blkc, src, "draws", ["ints=zeros:u32:%d" % N, "unif=zeros:f32:%d" % N,
                                      "normal=zeros:f32:%d" % N, "seed=%d" % seed,
                                      "base=%d" % base, "n=%d" % N],
                 {"ints": "I", "unif": "f", "normal": "f"}, tmp)
    key = (seed & 0xFFFFFFFF, seed >> 32)
    words = [philox4x32((base + k, 0, 0, 0), key) for k in range(N)]
    chk.check("randint_seed%d" % seed, o["ints"], [w[0] for w in words])
    # Triton's mapping, emulated exactly: bit-exact comparison.
    chk.check("rand_seed%d" % seed, o["unif"], [uniform_f32(w[0]) for w in words])
    want = []
    for w in words:
        u1 = max(f32(1e-7), uniform_f32(w[0]))
        th = f32(f32(2 * math.pi) * uniform_f32(w[1]))
        want.append(math.sqrt(-2 * math.log(u1)) * math.cos(th))
    # f32 log/cos/sqrt: a few ulps of the radius and angle.
    chk.check("randn_seed%d" % seed, o["normal"], want, 1e-5, 1e-5)
    chk.check("rand_range_seed%d" % seed, [float(0 <= u < 1) for u in o["unif"]], [1.0] * N)
    normals += o["normal"]
mean = sum(normals) / len(normals)
var = sum((v - mean) ** 2 for v in normals) / len(normals)
# 8192 samples: the standard error of the mean is ~0.011, of the variance ~0.016.
chk.check("randn_moments", [mean, var], [0.0, 1.0], 0.0, 0.06)
chk.finish()
