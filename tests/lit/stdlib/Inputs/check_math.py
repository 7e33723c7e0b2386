"""std.math checker: usage check_math.py BLKC SOURCE TMPDIR."""
import math
import os
import random
import struct
import sys

sys.path.insert(0, os.path.dirname(__file__))
from stdref import Checker, blkc_run, f32, write  # noqa: E402

blkc, src, tmp = sys.argv[1:4]
rng = random.Random(9)
edge = [0.0, -0.0, 1e-30, -1e-30, 1e-10, -1e-10, 1e-6, -1e-6, 1e-3, -1e-3, 0.5, -0.5,
        1.0, -1.0, 10.0, -10.0, 20.0, -20.0, 50.0, -50.0, 88.0, -88.0, 89.0, -89.0, 100.0,
        -100.0, 1000.0, -1000.0, 1e30, -1e30, -0.999, -0.9999999, 3e-8, -3e-8, 15.9, -15.9]
xs = edge + [rng.uniform(-30, 30) for _ in range(150)] + [rng.gauss(0, 1) for _ in range(134)]
xs = [f32(v) for v in xs]
n = len(xs)
write(os.path.join(tmp, "x.f32"), "f", xs)
out = blkc_run(blkc, src, "unary", ["x=file:f32:%s/x.f32" % tmp, "out=zeros:f32:%d" % (7 * n),
                                    "n=%d" % n], {"out": "f"}, tmp)["out"]


def sigmoid(v):
    return 1 / (1 + math.exp(-v)) if v >= 0 else math.exp(v) / (1 + math.exp(v))


def softplus(v):
    return max(v, 0.0) + math.log1p(math.exp(-abs(v)))


def expm1(v):
    return math.expm1(v) if v < 700 else math.inf


def log1p(v):
    return math.log1p(v) if v > -1 else (-math.inf if v == -1 else math.nan)


def gelu_tanh(v):
    return 0.5 * v * (1 + math.tanh(math.sqrt(2 / math.pi) * (v + 0.044715 * v ** 3)))


def ref_f32(v):
    """The float64 value as float32 would hold it (overflow -> inf)."""
    if math.isnan(v) or math.isinf(v) or abs(v) < 3.4028235e38:
        return v
    return math.copysign(math.inf, v)


# (name, reference, rtol, atol). rtol ~ 100 f32 ulps at most; atol is 0
# for the functions whose point is relative accuracy near 0 (log1p, expm1,
# softplus, sigmoid tails). gelu's erf/tanh forms lose absolute precision
# where 1 + erf(..) cancels (x < -5), hence its atol.
funcs = [
    ("sigmoid", sigmoid, 2e-6, 0.0),
    ("silu", lambda v: v * sigmoid(v), 2e-6, 1e-37),
    ("softplus", softplus, 2e-6, 0.0),
    ("gelu", lambda v: 0.5 * v * (1 + math.erf(v / math.sqrt(2))), 2e-6, 1e-6),
    ("gelu_tanh", gelu_tanh, 2e-6, 1e-6),
    ("log1p", log1p, 4e-6, 0.0),
    ("expm1", expm1, 4e-6, 0.0),
]
chk = Checker()
for k, (name, fn, rtol, atol) in enumerate(funcs):
    want = [ref_f32(fn(v)) for v in xs]
    # Results below the f32 normal range are flushed or denormal: compare
    # those absolutely at the denormal scale.
    chk.check(name, out[k * n:(k + 1) * n], want, rtol, max(atol, 1.2e-38), inputs=xs)

# Axis functions on an 8 x 16 tile with edge rows.
R, C = 8, 16
ninf = -math.inf
tile = [[f32(rng.uniform(-5, 5)) for _ in range(C)] for _ in range(R)]
tile[1] = [ninf] * C                                   # all -inf
tile[2] = [ninf if c % 3 else f32(rng.uniform(-5, 5)) for c in range(C)]   # some -inf
tile[3] = [f32(1000.0 + c) for c in range(C)]          # exp would overflow
tile[4] = [f32(-1000.0 - c) for c in range(C)]         # exp would underflow
tile[5] = [f32(88.0 + 0.25 * c) for c in range(C)]
tile[6][5] = ninf
flat = [v for row in tile for v in row]
write(os.path.join(tmp, "t.f32"), "f", flat)
o = blkc_run(blkc, src, "rows", ["x=file:f32:%s/t.f32" % tmp, "out=zeros:f32:539"],
             {"out": "f"}, tmp)["out"]


def lse(vs):
    m = max(vs)
    if m == ninf:
        return ninf
    return m + math.log(sum(math.exp(v - m) for v in vs))


def softmax(vs):
    m = max(vs)
    if m == ninf:
        return [math.nan] * len(vs)
    s = sum(math.exp(v - m) for v in vs)
    return [math.exp(v - m) / s for v in vs]


def log_softmax(vs):
    m = lse(vs)
    return [v - m if m != ninf else math.nan for v in vs]


cols = [[tile[r][c] for r in range(R)] for c in range(C)]
chk.check("logsumexp_1", o[0:8], [lse(row) for row in tile], 2e-6, 1e-6)
chk.check("softmax_1", o[8:136], [p for row in tile for p in softmax(row)], 4e-6, 1e-38)
chk.check("log_softmax_1", o[136:264], [p for row in tile for p in log_softmax(row)], 2e-6, 2e-6)
chk.check("logsumexp_0", o[264:280], [lse(col) for col in cols], 2e-6, 1e-6)
sm0 = [softmax(col) for col in cols]
ls0 = [log_softmax(col) for col in cols]
chk.check("softmax_0", o[280:408], [sm0[c][r] for r in range(R) for c in range(C)], 4e-6, 1e-38)
chk.check("log_softmax_0", o[408:536], [ls0[c][r] for r in range(R) for c in range(C)], 2e-6, 2e-6)
chk.check("constants", o[536:539], [math.pi, math.e, math.log2(math.e)], 1e-7, 0.0)

# f16: softplus and sigmoid of f16 inputs, to f16 precision.
hx = [v for v in xs if abs(v) < 60000]
h16 = [struct.unpack("<e", struct.pack("<e", v))[0] for v in hx]
write(os.path.join(tmp, "h.f16"), "e", h16)
hn = len(h16)
ho = blkc_run(blkc, src, "half", ["x=file:f16:%s/h.f16" % tmp, "out=zeros:f16:%d" % (2 * hn),
                                  "n=%d" % hn], {"out": "e"}, tmp)["out"]
# f16 has 11 significant bits, and intermediates round to f16 too; below
# 6.1e-5 they are subnormal (steps of 6e-8), hence the absolute 4 steps.
chk.check("f16_softplus_sigmoid", ho,
          [softplus(v) for v in h16] + [sigmoid(v) for v in h16], 4e-3, 2.4e-7, inputs=h16 + h16)
chk.finish()
