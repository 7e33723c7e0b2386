"""Comparing an output buffer with the reference, exactly or within a bound.

An element whose bound is 0 must match bit for bit (any NaN matches any
NaN; -0 and +0 differ). An element with a bound e > 0 (it depends on a
libm function) matches when |got - expected| <= e + 1 ulp of the buffer's
type at the expected value (the final rounding into the buffer may go
either way); an infinity counts as one ulp beyond the largest finite value.
"""
import math

import numerics as nx


def _finite(t, x):
    if math.isinf(x):
        top = nx.max_finite(t)
        return math.copysign(top + nx.ulp(t, top), x)
    return x


def within(t, got, ref, bound):
    if not bound:
        return nx.same(t, got, ref)
    if math.isinf(bound):
        return True
    if math.isnan(ref) or math.isnan(got):
        return math.isnan(ref) and math.isnan(got)
    if got == ref:
        return True
    g, r = _finite(t, got), _finite(t, ref)
    return abs(g - r) <= bound + nx.ulp(t, min(abs(r), nx.max_finite(t)))


def first_difference(t, got, ref, bounds=None):
    """None, or (index, got, expected, bound) of the first element that differs."""
    if len(got) != len(ref):
        return (-1, len(got), len(ref), 0)
    for i, (g, r) in enumerate(zip(got, ref)):
        b = bounds[i] if bounds else 0.0
        if not within(t, g, r, b):
            return (i, g, r, b)
    return None


def show(t, x):
    if nx.is_float(t):
        return repr(float(x))
    return str(x)
