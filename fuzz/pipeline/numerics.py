"""Scalar semantics of blk's 13 element types, written from docs/language.md.

Integers are canonical Python ints (signed types in their signed range,
unsigned types and i1 in 0 .. 2^w - 1); floats are Python floats already
rounded to their type. Every function here is one rule of the language
reference (section 10.2 promotion, section 11 interpreter numerics), written
independently of the interpreter's C++.
"""
import math
import struct
from fractions import Fraction

INT_TYPES = ["i1", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64"]
FLOAT_TYPES = ["f16", "bf16", "f32", "f64"]
TYPES = INT_TYPES + FLOAT_TYPES

# precision p (with the implicit bit), exponent of the smallest subnormal
# step, largest finite value
_FORMATS = {
    "f16": (11, -24, 65504.0),
    "bf16": (8, -133, math.ldexp(255, 120)),
    "f32": (24, -149, math.ldexp((1 << 24) - 1, 104)),
    "f64": (53, -1074, 1.7976931348623157e308),
}


class SemanticsError(Exception):
    """The generator asked for something the language leaves undefined."""


def is_float(t):
    return t in _FORMATS


def is_unsigned(t):
    """i1 extends and compares as unsigned (true is 1)."""
    return t[0] == "u" or t == "i1"


def width(t):
    return 16 if t == "bf16" else int(t[1:])


def int_range(t):
    w = width(t)
    if is_unsigned(t):
        return 0, (1 << w) - 1
    return -(1 << (w - 1)), (1 << (w - 1)) - 1


def wrap(t, v):
    """An integer reduced to the width of t (two's complement)."""
    w = width(t)
    v &= (1 << w) - 1
    if not is_unsigned(t) and v >> (w - 1):
        v -= 1 << w
    return v


def max_finite(t):
    return _FORMATS[t][2]


def ulp(t, x):
    """The spacing of t's values at |x| (the subnormal step below the normals)."""
    p, qmin, top = _FORMATS[t]
    if not math.isfinite(x):
        return math.inf
    if x == 0:
        return math.ldexp(1.0, qmin)
    return math.ldexp(1.0, max(math.frexp(x)[1] - p, qmin))


def round_float(t, x):
    """The double x rounded to nearest-even in t (overflow to infinity)."""
    if t == "f64" or not math.isfinite(x) or x == 0:
        return x
    p, qmin, top = _FORMATS[t]
    if abs(x) >= 2 * top:
        return math.copysign(math.inf, x)
    q = max(math.frexp(x)[1] - p, qmin)
    r = math.ldexp(float(round(math.ldexp(x, -q))), q)
    if abs(r) > top:
        return math.copysign(math.inf, x)
    if r == 0:
        return math.copysign(0.0, x)
    return r


def round_exact(t, q):
    """An exact rational (int or Fraction) rounded once to nearest-even in t."""
    if q == 0:
        return 0.0
    p, qmin, top = _FORMATS[t]
    sign = -1.0 if q < 0 else 1.0
    a = abs(Fraction(q))
    e = a.numerator.bit_length() - a.denominator.bit_length()
    if a >= Fraction(2) ** e:
        e += 1
    while a < Fraction(2) ** (e - 1):
        e -= 1
    step = max(e - p, qmin)
    r = round(a / Fraction(2) ** step)  # Fraction rounds half to even
    if r * Fraction(2) ** step > Fraction(top):
        return sign * math.inf
    return sign * math.ldexp(float(r), step)


def int_to_float(t, v):
    if abs(v) < (1 << 53):
        return round_float(t, float(v))
    return round_exact(t, v)


def float_to_int(t, x):
    """Float to integer: truncate toward zero, saturate, NaN gives 0; to i1 it is x != 0."""
    if t == "i1":
        return 1 if (x != 0 or math.isnan(x)) else 0
    if math.isnan(x):
        return 0
    lo, hi = int_range(t)
    if x >= hi + 1:
        return hi
    if x <= lo - 1:
        return lo
    return max(lo, min(hi, int(x)))  # int() truncates toward zero


def convert(frm, to, v):
    """`v as to` for a value of type frm (also the implicit conversions)."""
    if frm == to:
        return v
    if is_float(frm):
        if is_float(to):
            return round_float(to, v)
        return float_to_int(to, v)
    if is_float(to):
        return int_to_float(to, v)
    if to == "i1":
        return 1 if v != 0 else 0
    return wrap(to, v)


def promote(a, b):
    """The common type of two typed operands (section 10.2)."""
    if a == b:
        return a
    fa, fb = is_float(a), is_float(b)
    if fa and fb:
        if {a, b} == {"f16", "bf16"}:
            return "f32"
        return a if width(a) > width(b) else b
    if fa or fb:
        return a if fa else b
    if a == "i1":
        return b
    if b == "i1":
        return a
    if width(a) != width(b):
        return a if width(a) > width(b) else b
    return a if is_unsigned(a) else b


def _fdiv(x, y):
    if y == 0:
        if x == 0 or math.isnan(x):
            return math.nan
        neg = (x < 0) != (math.copysign(1.0, y) < 0)
        return -math.inf if neg else math.inf
    return x / y


def _fmod(x, y):
    if math.isnan(x) or math.isnan(y) or math.isinf(x) or y == 0:
        return math.nan
    if math.isinf(y):
        return x
    return math.fmod(x, y)


def _maximum(x, y):
    """IEEE maximum: NaN wins, -0 < +0."""
    if math.isnan(x) or math.isnan(y):
        return math.nan
    if x == y:
        return y if math.copysign(1.0, x) < 0 else x
    return x if x > y else y


def _minimum(x, y):
    if math.isnan(x) or math.isnan(y):
        return math.nan
    if x == y:
        return x if math.copysign(1.0, x) < 0 else y
    return x if x < y else y


FLOAT_BINARY = {
    "+": lambda x, y: x + y,
    "-": lambda x, y: x - y,
    "*": lambda x, y: x * y,
    "/": _fdiv,
    "%": _fmod,
    "maximum": _maximum,
    "minimum": _minimum,
}


def _tdiv(x, y):
    q = abs(x) // abs(y)
    return q if (x < 0) == (y < 0) else -q


def int_binary(op, t, x, y):
    w = width(t)
    if op == "+":
        return wrap(t, x + y)
    if op == "-":
        return wrap(t, x - y)
    if op == "*":
        return wrap(t, x * y)
    if op == "/":  # truncates; by zero: all ones
        return wrap(t, -1) if y == 0 else wrap(t, _tdiv(x, y))
    if op == "%":  # by zero: the dividend
        return x if y == 0 else wrap(t, x - _tdiv(x, y) * y)
    if op == "&":
        return wrap(t, x & y)
    if op == "|":
        return wrap(t, x | y)
    if op == "^":
        return wrap(t, x ^ y)
    if op in ("<<", ">>"):
        if not 0 <= y < w:
            raise SemanticsError("shift by %d of a %d-bit value" % (y, w))
        return wrap(t, x << y) if op == "<<" else wrap(t, x >> y)
    if op == "maximum":
        return max(x, y)
    if op == "minimum":
        return min(x, y)
    raise SemanticsError("no integer operator " + op)


def binary(op, t, x, y):
    """x op y, both already of the promoted type t."""
    if is_float(t):
        return round_float(t, FLOAT_BINARY[op](x, y))
    return int_binary(op, t, x, y)


COMPARE = {
    "==": lambda x, y: x == y,
    "!=": lambda x, y: x != y,  # unordered: NaN != NaN is true, as UNE
    "<": lambda x, y: x < y,
    "<=": lambda x, y: x <= y,
    ">": lambda x, y: x > y,
    ">=": lambda x, y: x >= y,
}


def compare(op, x, y):
    return 1 if COMPARE[op](x, y) else 0


def _guard(fn):
    """A libm call with IEEE results instead of Python's exceptions."""
    def call(x):
        if math.isnan(x):
            return math.nan
        try:
            return fn(x)
        except OverflowError:
            return math.inf
        except ValueError:
            return math.nan
    return call


def _log(fn):
    def call(x):
        if x == 0:
            return -math.inf
        if x < 0 or math.isnan(x):
            return math.nan
        return math.inf if math.isinf(x) else fn(x)
    return call


def _rsqrt(x):
    return math.nan if x < 0 or math.isnan(x) else _fdiv(1.0, math.sqrt(x))


MATH = {
    "exp": _guard(math.exp),
    "exp2": _guard(lambda x: math.pow(2.0, x)),
    "log": _log(math.log),
    "log2": _log(math.log2),
    "sqrt": lambda x: math.nan if x < 0 or math.isnan(x) else math.sqrt(x),
    "rsqrt": _rsqrt,
    "floor": lambda x: x if not math.isfinite(x) else math.copysign(float(math.floor(x)), x),
    "ceil": lambda x: x if not math.isfinite(x) else math.copysign(float(math.ceil(x)), x),
    "sin": _guard(math.sin),
    "cos": _guard(math.cos),
    "tanh": _guard(math.tanh),
    "erf": _guard(math.erf),
    "abs": abs,
}
# Correctly rounded in t (the rest are libm results rounded to t: approximate).
EXACT_MATH = {"sqrt", "floor", "ceil", "abs"}
# |f'| bounds used to carry an input error through (None: exact inputs only).
MATH_SLOPE = {"sin": 1.0, "cos": 1.0, "tanh": 1.0, "erf": 1.1284, "sigmoid": 0.25}
# Allowed ulps of t for the libm functions.
LIBM_ULPS = 2


def sigmoid(t, x, ex):
    """`1 / (1 + exp(-x))` with each op rounded in t, as blk defines it
    (docs/ir.md), and its bound: exp's ulps and x's bound ex carried through."""
    e = math_op("exp", t, -x)
    d = round_float(t, 1.0 + e)
    r = round_float(t, _fdiv(1.0, d))
    if math.isinf(e) and ex == 0:
        return r, 0.0  # exp overflows in t either way: 1 / inf
    ed = LIBM_ULPS * ulp(t, e) + e * math.expm1(min(ex, 700.0)) + ulp(t, d)
    return r, ed / (d * max(d - ed, 1.0)) + ulp(t, r)


def math_op(name, t, x):
    return round_float(t, MATH[name](x))


def fma(t, a, b, c):
    """a * b + c with one rounding in t."""
    if not (math.isfinite(a) and math.isfinite(b) and math.isfinite(c)):
        return round_float(t, a * b + c)
    if t == "f64":
        exact = Fraction(a) * Fraction(b) + Fraction(c)
        if exact == 0:
            return _zero_sum(a * b, c)
        return round_exact(t, exact)
    p = a * b  # exact: at most 2 * 24 bits
    s = p + c
    if s == 0:
        return _zero_sum(p, c)
    bb = s - p
    err = (p - (s - bb)) + (c - bb)
    if err != 0:
        # Round to odd in double, so that rounding to t (p <= 24 bits) is exact.
        m, e = math.frexp(s)
        if int(math.ldexp(m, 53)) % 2 == 0:
            s = math.nextafter(s, math.inf if err > 0 else -math.inf)
    return round_float(t, s)


def _zero_sum(p, c):
    """The sign of an exact zero sum in round-to-nearest: -0 only for -0 + -0."""
    if p == 0 and c == 0 and math.copysign(1, p) < 0 and math.copysign(1, c) < 0:
        return -0.0
    return 0.0


# -- bytes ---------------------------------------------------------------
_PACK = {"i1": "B", "i8": "b", "i16": "h", "i32": "i", "i64": "q", "u8": "B",
         "u16": "H", "u32": "I", "u64": "Q", "f16": "e", "f32": "f", "f64": "d"}


def byte_size(t):
    return 1 if t == "i1" else width(t) // 8


def pack(t, values):
    if t == "bf16":
        words = struct.unpack("<%dI" % len(values), struct.pack("<%df" % len(values), *values))
        return struct.pack("<%dH" % len(values), *[w >> 16 for w in words])
    return struct.pack("<%d%s" % (len(values), _PACK[t]), *values)


def unpack(t, data):
    n = len(data) // byte_size(t)
    if t == "bf16":
        halves = struct.unpack("<%dH" % n, data)
        return list(struct.unpack("<%df" % n, struct.pack("<%dI" % n, *[h << 16 for h in halves])))
    values = list(struct.unpack("<%d%s" % (n, _PACK[t]), data))
    if t == "i1":
        # A byte read as i1 is true when nonzero (the GPU's load compares
        # with 0, as Triton's does; found by the fuzzer with an i8 buffer
        # read through a `*i1` cast, where `& 1` said 2 was false).
        values = [1 if v else 0 for v in values]
    return values


def same(t, x, y):
    """Bit-for-bit equality of two values of t (any NaN equals any NaN)."""
    if not is_float(t):
        return x == y
    if math.isnan(x) or math.isnan(y):
        return math.isnan(x) and math.isnan(y)
    return x == y and math.copysign(1, x) == math.copysign(1, y)


def literal(t, v):
    """blk source text for the value v of type t (finite)."""
    if not is_float(t):
        return str(v)
    if v == int(v) and abs(v) < 1e15:
        return "%d.0" % int(v)
    return repr(float(v))
