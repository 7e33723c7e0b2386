"""Random input data for each element type: never all zeros.

Besides small and uniform values, every type draws from classes that hit
the corners of blk's numerics: type limits, powers of two and their
neighbours, values whose products or conversions land on a rounding
midpoint of some float format (1 + 2^-h, 2^e + 2^(e-p) + tiny), values
a double sum next to 1 would lose, and (rarely) infinities, NaN, -0 and subnormals.
"""
import math

from numerics import int_range, is_float, max_finite, round_float, wrap

_PRECISIONS = (8, 11, 24, 53)  # bf16, f16, f32, f64 significand bits


def _int_value(rng, t):
    lo, hi = int_range(t)
    if t == "i1":
        return rng.randrange(2)
    bits = hi.bit_length()
    c = rng.random()
    if c < 0.45:
        return max(lo, min(hi, rng.randrange(-9, 10)))
    if c < 0.55:
        return rng.choice([lo, hi, lo + 1, hi - 1, 0, 1, wrap(t, -1)])
    if c < 0.7:
        return wrap(t, (1 << rng.randrange(bits + 1)) + rng.choice([-1, 0, 1]))
    if c < 0.8:
        # a top bit, a bit one float precision below it, and a few low bits:
        # converting to that float is a rounding midpoint plus a little
        top = rng.randrange(bits // 2, bits + 1)
        p = rng.choice(_PRECISIONS)
        v = (1 << top) + ((1 << (top - p)) if top > p else 0) + rng.randrange(4)
        return wrap(t, v if rng.random() < 0.7 else -v)
    return rng.randint(lo, hi)


def _float_value(rng, t):
    c = rng.random()
    span = 10 if t == "f16" else 30
    if c < 0.15:
        v = float(rng.randrange(-9, 10))
    elif c < 0.25:
        v = rng.randrange(-32, 33) / 8.0
    elif c < 0.55:
        v = rng.uniform(-4.0, 4.0)
    elif c < 0.6 and t != "f16":
        # below half an ulp of a double next to 1: lost in a double sum,
        # not in one exact rounding
        v = rng.choice([1.0, -1.0]) * math.ldexp(1.0, rng.randrange(-80, -53))
    elif c < 0.8:
        # a few powers of two; a quarter of them anywhere in the type's range
        lo, hi = {"f16": (-24, 15), "bf16": (-133, 127), "f32": (-149, 127), "f64": (-1074, 1023)}[t]
        e = rng.randrange(-span, span) if rng.random() < 0.75 else rng.randrange(lo, hi + 1)
        v = 0.0
        for _ in range(rng.randrange(1, 4)):
            v += rng.choice([1.0, -1.0]) * math.ldexp(1.0, e)
            e -= rng.randrange(1, 26)
    elif c < 0.97:
        # 1 + 2^-h: products of two such values land near a rounding midpoint
        p = {"bf16": 8, "f16": 11, "f32": 24, "f64": 53}[t]
        h = max(1, p // 2 + rng.randrange(-1, 2))
        v = math.ldexp(1.0 + math.ldexp(1.0, -h), rng.randrange(-4, 5))
        v = v if rng.random() < 0.7 else -v
    else:
        v = rng.choice([math.inf, -math.inf, math.nan, -0.0, max_finite(t), -max_finite(t),
                        math.ldexp(1.0, {"f16": -24, "bf16": -133, "f32": -149, "f64": -1074}[t])])
    return round_float(t, v)


def random_values(rng, t, n):
    make = _float_value if is_float(t) else _int_value
    values = [make(rng, t) for _ in range(n)]
    if all(v == 0 for v in values):
        values[rng.randrange(n)] = 1.0 if is_float(t) else 1
    return values


def random_scalar(rng, t):
    """A value for a runtime scalar parameter (floats finite and nonzero)."""
    v = random_values(rng, t, 1)[0]
    while is_float(t) and (not math.isfinite(v) or v == 0):
        v = _float_value(rng, t)
    return v
