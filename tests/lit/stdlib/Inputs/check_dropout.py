"""samples/dropout.blk checker: usage check_dropout.py X OUT P SCALE SEED."""
import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
from stdref import Checker, f32, philox4x32, read, uniform_f32  # noqa: E402

x, out = read(sys.argv[1], "f"), read(sys.argv[2], "f")
p, scale, seed = f32(float(sys.argv[3])), f32(float(sys.argv[4])), int(sys.argv[5])
factor = f32(scale / f32(1.0 - p))   # the kernel's f32 arithmetic
key = (seed & 0xFFFFFFFF, seed >> 32)
want, kept = [], 0
for k, v in enumerate(x):
    u = uniform_f32(philox4x32((k, 0, 0, 0), key)[0])
    keep = u >= p
    kept += keep
    want.append(f32(v * factor) if keep else 0.0)
chk = Checker()
chk.check("dropout_exact", out, want)
# 5000 Bernoulli(0.7) draws: the standard deviation of the fraction is 0.0065.
chk.check("kept_fraction", [kept / len(x)], [1.0 - p], 0.0, 0.03)
chk.finish()
