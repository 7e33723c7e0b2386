"""std.reduce checker: usage check_reduce.py BLKC SOURCE TMPDIR."""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(__file__))
from stdref import Checker, blkc_run, f32, write  # noqa: E402

blkc, src, tmp = sys.argv[1:4]
rng = random.Random(10)
R, C = 8, 16
x = [[float(rng.randint(0, 3)) for _ in range(C)] for _ in range(R)]   # many ties
x[1] = [f32(rng.uniform(-100, 100)) for _ in range(C)]
x[2] = [f32(1e4 + rng.uniform(0, 1)) for _ in range(C)]   # E[x^2]-E[x]^2 would cancel
x[3] = [2.0] * C                                            # all tied
xi = [[rng.randint(-2**31, 2**31 - 1) for _ in range(C)] for _ in range(R)]
m = [[rng.randint(0, 1) for _ in range(C)] for _ in range(R)]
m[0] = [1] * C
m[1] = [0] * C
m[5] = [0] * C
m[5][9] = 1
for r in range(R):          # column 4 all false
    m[r][4] = 0
flat = lambda t: [v for row in t for v in row]  # noqa: E731
write(os.path.join(tmp, "x.f32"), "f", flat(x))
write(os.path.join(tmp, "xi.i32"), "i", flat(xi))
write(os.path.join(tmp, "m.i32"), "i", flat(m))
o = blkc_run(blkc, src, "stats", ["x=file:f32:%s/x.f32" % tmp, "xi=file:i32:%s/xi.i32" % tmp,
                                  "m=file:i32:%s/m.i32" % tmp, "f=zeros:f32:64",
                                  "idx=zeros:i32:136"], {"f": "f", "idx": "i"}, tmp)
f, idx = o["f"], o["idx"]
rows = x
cols = [[x[r][c] for r in range(R)] for c in range(C)]
mrows = m
mcols = [[m[r][c] for r in range(R)] for c in range(C)]


def mean(vs):
    return sum(vs) / len(vs)


def variance(vs):
    mu = mean(vs)
    return sum((v - mu) ** 2 for v in vs) / len(vs)


def first(vs, pick):
    best = pick(vs)
    return vs.index(best)   # lowest index of the extreme


chk = Checker()
chk.check("mean", f[0:24], [mean(v) for v in rows] + [mean(v) for v in cols], 2e-6, 1e-6)
chk.check("variance", f[24:48], [variance(v) for v in rows] + [variance(v) for v in cols],
          1e-4, 1e-5)
mm = []
for vs, ms in zip(rows, mrows):
    sel = [v for v, k in zip(vs, ms) if k]
    mm.append(mean(sel) if sel else float("nan"))
chk.check("masked_mean", f[48:56], mm, 2e-6, 1e-6)
# Values near 2^31 summed in f32: each rounding costs up to 128 (16 terms).
chk.check("mean_i32", f[56:64], [mean(v) for v in xi], 2e-6, 4096.0 / 16)
chk.check("argmax_first", idx[0:8] + idx[8:24],
          [first(v, max) for v in rows] + [first(v, max) for v in cols])
chk.check("argmin_first", idx[24:32] + idx[32:48],
          [first(v, min) for v in rows] + [first(v, min) for v in cols])
ninf, pinf = float("-inf"), float("inf")
chk.check("masked_argmax", idx[48:56],
          [first([v if k else ninf for v, k in zip(vs, ms)], max) for vs, ms in zip(rows, mrows)])
chk.check("masked_argmin", idx[56:64],
          [first([v if k else pinf for v, k in zip(vs, ms)], min) for vs, ms in zip(rows, mrows)])


def xor_all(vs):
    acc = 0
    for v in vs:
        acc ^= v & 0xFFFFFFFF
    return acc - (1 << 32) if acc >= 1 << 31 else acc


xcols = [[xi[r][c] for r in range(R)] for c in range(C)]
chk.check("xor_sum", idx[64:88], [xor_all(v) for v in xi] + [xor_all(v) for v in xcols])
chk.check("any_all", idx[88:136],
          [int(any(v)) for v in mrows] + [int(all(v)) for v in mrows]
          + [int(any(v)) for v in mcols] + [int(all(v)) for v in mcols])
chk.finish()
