"""The independent reference: evaluates a kernel.Kernel description in Python.

Programs run one after another; each value is a Block (shape, row-major
values, and for approximate values a per-element error bound). The rules
are docs/language.md's: promotion, wrapping, truncating division (by zero:
all ones / the dividend), saturating float-to-int casts, reductions in the
documented pairwise order (element j with j + L/2, halving), scans from the
first element, `dot` as one f32 fma per k with k ascending.

Error bounds (exact values have none): a libm function (exp, log, sin, ...)
may differ from the interpreter by LIBM_ULPS ulps of its type; a bound is
carried through + - * fma (|a| eb + |b| ea + ea eb, plus one ulp of the
result for its rounding), max/min/where/abs/neg (unchanged), float casts
and sums, and through exp/sin/... by the function's slope. evaluate.py
keeps, for every written buffer element, the bound it is compared within
(0: bit-exact; compare.py).
"""
import math

import numerics as nx


class Block:
    __slots__ = ("shape", "vals", "errs")

    def __init__(self, shape, vals, errs=None):
        self.shape, self.vals, self.errs = tuple(shape), vals, errs


class ReferenceError(Exception):
    """The description asked for something outside the language (a generator bug)."""


_MAPS = {}


def _spread(src, dst):
    """Flat source indices of every element of dst under broadcasting."""
    key = (src, dst)
    if key not in _MAPS:
        pad = (1,) * (len(dst) - len(src)) + src
        strides, acc = [], 1
        for d in reversed(pad):
            strides.append(acc if d != 1 else 0)
            acc *= d
        strides.reverse()
        idx = [0]
        for d, s in zip(dst, strides):
            idx = [i + k * s for i in idx for k in range(d)]
        _MAPS[key] = idx
    return _MAPS[key]


def spread(b, shape):
    if b.shape == tuple(shape):
        return b.vals, b.errs
    m = _spread(b.shape, tuple(shape))
    return [b.vals[i] for i in m], (None if b.errs is None else [b.errs[i] for i in m])


def fin(e):
    """A bound that became NaN (inf * 0) is no bound."""
    return math.inf if e != e else e


def conv(frm, to, vals, errs):
    """Values of frm as `to`; a narrowing float conversion adds an ulp to a bound."""
    out = [nx.convert(frm, to, x) for x in vals]
    if errs is None:
        return out, None
    if nx.is_float(frm) and nx.is_float(to) and nx.width(to) < nx.width(frm):
        errs = [e + nx.ulp(to, r) for e, r in zip(errs, out)]
    return out, errs


def bin_err(op, t, a, b, ea, eb, r):
    """The bound of r = a op b in t from the operands' bounds ea, eb."""
    if op in ("maximum", "minimum"):
        return max(ea, eb)
    rounding = nx.ulp(t, r)
    if op in ("+", "-"):
        return fin(ea + eb + rounding)
    if op == "*":
        return fin(abs(a) * eb + abs(b) * ea + ea * eb + rounding)
    raise ReferenceError("approximate operand of " + op)


def elementwise(t, shape, blocks, tys, fn, errfn=None):
    """fn(*xs) over blocks converted to t and broadcast to shape."""
    cols, ecols = [], []
    for b, ty in zip(blocks, tys):
        v, e = spread(b, shape)
        if ty is not None:
            v, e = conv(ty, t, v, e)
        cols.append(v)
        ecols.append(e)
    vals = [fn(*xs) for xs in zip(*cols)]
    if errfn is None or all(e is None for e in ecols):
        return Block(shape, vals)
    ecols = [e if e is not None else [0.0] * len(vals) for e in ecols]
    errs = [errfn(xs, es, r) for xs, es, r in zip(zip(*cols), zip(*ecols), vals)]
    return Block(shape, vals, errs)


def pairwise(items, combine):
    """Element j with element j + L/2, halving, as the interpreter documents."""
    items = list(items)
    while len(items) > 1:
        h = len(items) // 2
        items = [combine(items[j], items[j + h]) for j in range(h)]
    return items[0]


def lanes(shape, axis):
    """For each output position along `axis`: the flat indices of its lane."""
    if axis is None:
        n = 1
        for d in shape:
            n *= d
        return (), [list(range(n))]
    out_shape = shape[:axis] + shape[axis + 1:]
    stride = 1
    for d in shape[axis + 1:]:
        stride *= d
    outer = 1
    for d in shape[:axis]:
        outer *= d
    result = []
    for o in range(outer):
        for i in range(stride):
            base = o * shape[axis] * stride + i
            result.append([base + k * stride for k in range(shape[axis])])
    return out_shape, result
