"""Random expressions over the values in scope: one function per kind of op.

Each op picks operands that make a valid blk expression (types by the
promotion rules, shapes that broadcast), builds the Val with its result
type and shape, and binds it with `let`. Values that may carry libm error
(approx) never reach an op whose result could jump for a tiny change of
its input (comparisons, float-to-int casts, floor, division, argmax...),
so that a bound on the error stays a bound (reference.py).
"""
from kernel import Val
from numerics import (FLOAT_TYPES, TYPES, EXACT_MATH, MATH_SLOPE, int_range, is_float, promote,
                      width)


def bshape(*shapes):
    """NumPy broadcasting of shapes (aligned from the right), None if they clash."""
    rank = max(len(s) for s in shapes)
    out = []
    for k in range(rank):
        dims = {s[len(s) - rank + k] for s in shapes if len(s) - rank + k >= 0}
        dims.discard(1)
        if len(dims) > 1:
            return None
        out.append(dims.pop() if dims else 1)
    return tuple(out)


def lit(g, ty, value, text=None):
    """A literal adopting type ty (the caller checks that value fits ty)."""
    if text is None:
        if is_float(ty):
            text = "%d.0" % value if value == int(value) else repr(float(value))
        else:
            text = str(value)
        if text.startswith("-"):
            text = "(" + text + ")"
    return Val("lit", ty, (), value=value, text=text)


def literal_for(g, ty):
    """A small literal exactly representable in ty (its adopted type)."""
    r = g.rng
    if is_float(ty):
        return lit(g, ty, r.choice([0.5, 1.5, -2.25, 0.125, 3.0, -0.75, 2.0, -1.0]))
    lo, hi = int_range(ty)
    if ty == "i1":
        return None
    return lit(g, ty, r.randint(max(lo, -9), min(hi, 9)))


def typed_literal(g, other):
    """A literal against operand `other`: adopts its type, except a float
    literal against an integer, which is f32 (section 10.2)."""
    if g.rng.random() < 0.25 and not is_float(other.ty):
        return lit(g, "f32", g.rng.choice([0.5, 1.5, -2.0, 0.25]))
    return literal_for(g, other.ty)


FN_NAMES = {"+": "add", "-": "sub", "*": "mul", "&": "band", "|": "bor", "^": "bxor",
            "maximum": "maxi", "minimum": "mini"}


def via_fn(g, op, a, b):
    """Sometimes the op goes through a generic `fn` (inlined, typed per call);
    not with a literal operand, which would be typed i32/f32 inside."""
    if a.kind == "lit" or b.kind == "lit" or g.rng.random() > 0.15:
        return {}
    name = "h_" + FN_NAMES[op]
    body = "maximum(a, b)" if op == "maximum" else "minimum(a, b)" if op == "minimum" else "a %s b" % op
    g.kernel.fns[name] = "fn %s(a, b) { return %s; }" % (name, body)
    g.kernel.features.add("fn")
    return {"via": name}


def cast(g, v, ty):
    if v.ty == ty:
        return v
    return g.bind(Val("cast", ty, v.shape, [v], approx=v.approx))


def op_arith(g):
    a = g.pick(lambda v: v.ty != "i1")
    if a is None:
        return None
    op = g.rng.choice(["+", "-", "*"])
    b = g.pick(lambda v: v.ty != "i1" and bshape(a.shape, v.shape) is not None)
    if b is None or g.rng.random() < 0.3:
        b = typed_literal(g, a)
        if b is None:
            return None
    if g.rng.random() < 0.5:
        a, b = b, a
    ty = promote(a.ty, b.ty)
    return g.bind(Val("bin", ty, bshape(a.shape, b.shape), [a, b], approx=a.approx or b.approx, op=op,
                      **via_fn(g, op, a, b)))


def op_divmod(g):
    a = g.pick(lambda v: v.ty != "i1" and not v.approx)
    if a is None:
        return None
    op = g.rng.choice(["/", "%"])
    b = g.pick(lambda v: v.ty != "i1" and not v.approx and bshape(a.shape, v.shape) is not None)
    if b is None or g.rng.random() < 0.4:
        b = typed_literal(g, a)
        if b is None or b.attrs["value"] == 0:
            return None
    ty = promote(a.ty, b.ty)
    return g.bind(Val("bin", ty, bshape(a.shape, b.shape), [a, b], op=op))


def op_bitwise(g):
    a = g.pick(lambda v: not is_float(v.ty))
    if a is None:
        return None
    b = g.pick(lambda v: not is_float(v.ty) and bshape(a.shape, v.shape) is not None)
    if b is None:
        return None
    ty, op = promote(a.ty, b.ty), g.rng.choice("&|^")
    return g.bind(Val("bin", ty, bshape(a.shape, b.shape), [a, b], op=op, **via_fn(g, op, a, b)))


def op_shift(g):
    a = g.pick(lambda v: not is_float(v.ty) and v.ty != "i1")
    if a is None:
        return None
    op = g.rng.choice(["<<", ">>"])
    b = g.pick(lambda v: not is_float(v.ty) and v.ty != "i1" and bshape(a.shape, v.shape) is not None)
    if b is None or g.rng.random() < 0.4:
        amount = lit(g, a.ty, g.rng.randrange(width(a.ty)))
        return g.bind(Val("bin", a.ty, a.shape, [a, amount], op=op))
    # (b & (w - 1)) < w <= the promoted width
    masked = g.bind(Val("bin", b.ty, b.shape, [b, lit(g, b.ty, width(b.ty) - 1)], op="&"))
    ty = promote(a.ty, b.ty)
    return g.bind(Val("bin", ty, bshape(a.shape, b.shape), [a, masked], op=op))


def op_compare(g):
    a = g.pick(lambda v: not v.approx)
    if a is None:
        return None
    b = g.pick(lambda v: not v.approx and bshape(a.shape, v.shape) is not None)
    if b is None or g.rng.random() < 0.3:
        b = typed_literal(g, a)
        if b is None:
            return None
    op = g.rng.choice(["==", "!=", "<", "<=", ">", ">="])
    return g.bind(Val("cmp", "i1", bshape(a.shape, b.shape), [a, b], op=op, cmp_ty=promote(a.ty, b.ty)))


def op_unary(g):
    op = g.rng.choice(["-", "~", "abs"])
    if op == "~":
        a = g.pick(lambda v: not is_float(v.ty))
    else:
        a = g.pick(lambda v: v.ty != "i1")
    if a is None:
        return None
    return g.bind(Val("un", a.ty, a.shape, [a], approx=a.approx, op=op))


MATH_FNS = ["exp", "exp2", "log", "log2", "sqrt", "rsqrt", "floor", "ceil", "sin", "cos",
            "tanh", "erf", "sigmoid", "abs"]


def op_math(g):
    fn = g.rng.choice(MATH_FNS)
    if fn == "abs":
        return None  # abs of floats is op_unary's
    carries = fn in MATH_SLOPE or fn in ("exp", "exp2")
    a = g.pick(lambda v: v.ty != "i1" and (carries or not v.approx))
    if a is None:
        return None
    ty = a.ty if is_float(a.ty) else "f32"  # integers compute in f32
    return g.bind(Val("math", ty, a.shape, [a], approx=a.approx or fn not in EXACT_MATH, fn=fn))


def op_cast(g):
    to = g.rng.choice(TYPES)
    a = g.pick(lambda v: v.ty != to and (is_float(to) or not v.approx))
    if a is None:
        return None
    return g.bind(Val("cast", to, a.shape, [a], approx=a.approx))


def op_where(g):
    c = g.pick(lambda v: not v.approx and v.ty == "i1")
    if c is None:
        return None
    a = g.pick(lambda v: bshape(c.shape, v.shape) is not None)
    if a is None:
        return None
    b = g.pick(lambda v: bshape(c.shape, a.shape, v.shape) is not None)
    if b is None or g.rng.random() < 0.3:
        b = typed_literal(g, a)
        if b is None:
            return None
    ty = promote(a.ty, b.ty)
    shape = bshape(c.shape, a.shape, b.shape)
    return g.bind(Val("where", ty, shape, [c, a, b], approx=a.approx or b.approx))


def op_minmax(g):
    a = g.pick(lambda v: True)
    if a is None:
        return None
    b = g.pick(lambda v: bshape(a.shape, v.shape) is not None)
    if b is None or g.rng.random() < 0.3:
        b = typed_literal(g, a)
        if b is None:
            return None
    ty, op = promote(a.ty, b.ty), g.rng.choice(["maximum", "minimum"])
    return g.bind(Val("minmax", ty, bshape(a.shape, b.shape), [a, b],
                      approx=a.approx or b.approx, op=op, **via_fn(g, op, a, b)))


def op_clamp(g):
    x = g.pick(lambda v: v.ty != "i1")
    if x is None:
        return None
    lo, hi = literal_for(g, x.ty), literal_for(g, x.ty)
    if lo is None or hi is None:
        return None
    if lo.attrs["value"] > hi.attrs["value"]:
        lo, hi = hi, lo
    return g.bind(Val("clamp", x.ty, x.shape, [x, lo, hi], approx=x.approx))


def op_fma(g):
    t = g.rng.choice(FLOAT_TYPES)
    if g.rng.random() < 0.4:
        # straight from memory, so the inputs' rounding-midpoint classes
        # reach the one rounding of a * b + c
        shape = g.rng.choice(g.tile_shapes())
        args = [g.load(t, shape) for _ in range(3)]
        return g.bind(Val("fma", t, shape, args))
    a = g.pick(lambda v: v.ty != "i1")
    b = g.pick(lambda v: a is not None and v.ty != "i1" and bshape(a.shape, v.shape) is not None)
    if a is None or b is None:
        return None
    c = g.pick(lambda v: v.ty != "i1" and bshape(a.shape, b.shape, v.shape) is not None)
    if c is None:
        return None
    args = [cast(g, v, t) for v in (a, b, c)]
    return g.bind(Val("fma", t, bshape(a.shape, b.shape, c.shape), args,
                      approx=any(v.approx for v in args)))


def reduce_type(kind, t):
    """sum/prod/cumsum of i1/i8/i16 (u8/u16) accumulate in i32 (u32)."""
    if kind in ("argmax", "argmin"):
        return "i32"
    if kind in ("sum", "prod", "cumsum") and not is_float(t) and width(t) < 32:
        return "u32" if t in ("u8", "u16") else "i32"
    return t


def op_reduce(g):
    kind = g.rng.choice(["sum", "sum", "sum", "prod", "max", "min", "argmax", "argmin"])
    floats = kind == "sum" and g.rng.random() < 0.7  # where the documented order shows
    a = g.pick(lambda v: len(v.shape) >= 1 and (kind in ("sum", "max", "min") or not v.approx)
               and (is_float(v.ty) or not floats))
    if a is None:
        return None
    axis = g.rng.choice([None] + list(range(len(a.shape))))
    if axis is None:
        shape = ()
    else:
        shape = a.shape[:axis] + a.shape[axis + 1:]
    form = g.rng.choice(["named", "positional"]) if axis is not None else "none"
    return g.bind(Val("reduce", reduce_type(kind, a.ty), shape, [a], approx=a.approx,
                      op=kind, axis=axis, form=form))


def op_cumsum(g):
    floats = g.rng.random() < 0.7
    a = g.pick(lambda v: len(v.shape) >= 1 and (is_float(v.ty) or not floats))
    if a is None:
        return None
    axis = g.rng.randrange(len(a.shape))
    return g.bind(Val("cumsum", reduce_type("cumsum", a.ty), a.shape, [a], approx=a.approx, axis=axis))


def op_shape(g):
    r = g.rng
    a = g.pick(lambda v: len(v.shape) in (1, 2) and len(g.dims) > 0)
    if a is None:
        return None
    if len(a.shape) == 1:
        if g.rank == 1:
            return None  # rank-2 values have nowhere to be stored in 1-D kernels
        form = r.choice(["rows", "cols", "expand0", "expand1", "bcast"])
        if form == "bcast":
            shape = (r.choice(g.dims),) + a.shape
            return g.bind(Val("bcast", a.ty, shape, [a], approx=a.approx))
        axis = 1 if form in ("rows", "expand1") else 0
        shape = a.shape + (1,) if axis == 1 else (1,) + a.shape
        return g.bind(Val("expand", a.ty, shape, [a], approx=a.approx, axis=axis,
                          form="index" if form in ("rows", "cols") else "call"))
    x, y = a.shape
    form = r.choice(["trans", "permute", "reshape", "bcast"])
    if form == "bcast":
        if 1 not in a.shape:
            return None
        shape = (r.choice(g.dims) if x == 1 else x, r.choice(g.dims) if y == 1 else y)
        return g.bind(Val("bcast", a.ty, shape, [a], approx=a.approx))
    if form == "reshape":
        if x == y or 1 in a.shape:
            return None
        return g.bind(Val("reshape", a.ty, (y, x), [a], approx=a.approx))
    return g.bind(Val("trans", a.ty, (y, x), [a], approx=a.approx, form=form))


def op_dot(g):
    r = g.rng
    a = g.pick(lambda v: len(v.shape) == 2 and min(v.shape) >= 16 and not v.approx)
    if a is None:
        return None
    m, k = a.shape
    b = g.pick(lambda v: len(v.shape) == 2 and v.shape[0] == k and v.shape[1] >= 16 and not v.approx)
    if b is None:
        return None
    n = b.shape[1]
    t = r.choice(["f16", "bf16", "f32", "i8"])
    acc_ty = "i32" if t == "i8" else "f32"
    args = [cast(g, a, t), cast(g, b, t)]
    if r.random() < 0.5:
        c = g.pick(lambda v: not v.approx and bshape(v.shape, (m, n)) == (m, n))
        if c is not None:
            c = cast(g, c, acc_ty)
            if c.shape != (m, n):
                c = g.bind(Val("bcast", acc_ty, (m, n), [c]))
            args.append(c)
    g.kernel.has_dot = True
    return g.bind(Val("dot", acc_ty, (m, n), args, ty_in=t))


def op_full(g):
    s = g.pick(lambda v: v.shape == () and not v.approx)
    if s is None:
        return None
    shape = tuple(g.rng.choice(g.dims) for _ in range(g.rank))
    ty = g.rng.choice(TYPES)
    if g.rng.random() < 0.3:
        return g.bind(Val("full", ty, shape, [], zero=True))
    return g.bind(Val("full", ty, shape, [s]))


def op_ptr_compare(g):
    """`(x + a) == (y + b)`: the same buffer and equal offsets, or not."""
    small = lambda v: not is_float(v.ty) and v.ty != "i1" and width(v.ty) <= 32 and not v.approx
    a = g.pick(small)
    b = g.pick(lambda v: small(v) and a is not None and bshape(a.shape, v.shape) is not None)
    bufs = [p for p in g.kernel.params if p.pointer]
    if b is None or not bufs:
        return None
    x = g.rng.choice(bufs)
    y = x if g.rng.random() < 0.8 else g.rng.choice(bufs)
    return g.bind(Val("ptreq", "i1", bshape(a.shape, b.shape), [a, b], op=g.rng.choice(["==", "!="]),
                      buf=x, buf2=y))


# op, weight, feature it counts toward
OPS = [
    (op_arith, 10, "elementwise"), (op_divmod, 3, "elementwise"), (op_bitwise, 3, "elementwise"),
    (op_shift, 2, "elementwise"), (op_compare, 4, "elementwise"), (op_unary, 3, "elementwise"),
    (op_math, 5, "math"), (op_cast, 8, "cast"), (op_where, 4, "elementwise"),
    (op_minmax, 3, "elementwise"), (op_clamp, 1, "elementwise"), (op_fma, 2, "fma"),
    (op_reduce, 6, "reduction"), (op_cumsum, 2, "reduction"), (op_shape, 3, "broadcast"),
    (op_dot, 0, "dot"), (op_full, 1, "elementwise"), (op_ptr_compare, 1, "ptr-compare"),
]
