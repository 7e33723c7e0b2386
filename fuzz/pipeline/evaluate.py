"""Runs a kernel.Kernel description on reference.py's Blocks: the expected outputs.

expected(kernel) -> {buffer name: (values, bounds)}, bounds None when every
element must match bit for bit (see reference.py for the error bounds).
"""
import numerics as nx
from reference import Block, ReferenceError, elementwise, lanes, pairwise, spread, bin_err, conv, fin


def _scalar(t, v):
    return Block((), [v])


class Program:
    def __init__(self, kernel, pid, memory, bounds):
        self.k = kernel
        self.pid = pid  # (x, y)
        self.env = {}
        self.vars = {}
        self.memory = memory
        self.bounds = bounds

    # -- values ----------------------------------------------------------
    def get(self, v):
        k = v.kind
        if k == "lit":
            return _scalar(v.ty, v.attrs["value"])
        if k == "param":
            return _scalar(v.ty, v.attrs["param"].value)
        if k == "const":
            return _scalar("i32", v.attrs["value"])
        if k == "read":
            return self.vars[id(v.attrs["var"])]
        if k == "nprog":
            return _scalar("i32", self.k.grid[v.attrs["axis"]])
        return self.env[id(v)]

    def eval(self, v):
        k, at = v.kind, v.attrs
        args = [self.get(a) if a is not None else None for a in v.args]
        tys = [a.ty if a is not None else None for a in v.args]
        t = v.ty
        if k == "pid":
            return _scalar("i32", self.pid[at["axis"]])
        if k == "arange":
            return Block((at["n"],), list(range(at["n"])))
        if k == "bin":
            op = at["op"]
            return elementwise(t, v.shape, args, tys, lambda x, y: nx.binary(op, t, x, y),
                               lambda xs, es, r: bin_err(op, t, xs[0], xs[1], es[0], es[1], r))
        if k == "cmp":
            ct, op = at["cmp_ty"], at["op"]
            return elementwise(ct, v.shape, args, tys, lambda x, y: nx.compare(op, x, y))
        if k == "un":
            return self.unary(at["op"], t, args[0])
        if k == "math":
            return self.math(at["fn"], t, args[0], tys[0])
        if k == "cast":
            vals, errs = conv(tys[0], t, args[0].vals, args[0].errs)
            return Block(v.shape, vals, errs)
        if k == "where":
            c = elementwise("i1", v.shape, [args[0]], [tys[0]], lambda x: x)
            x = elementwise(t, v.shape, [args[1]], [tys[1]], lambda x: x, lambda xs, es, r: es[0])
            y = elementwise(t, v.shape, [args[2]], [tys[2]], lambda x: x, lambda xs, es, r: es[0])
            vals = [a if s else b for s, a, b in zip(c.vals, x.vals, y.vals)]
            if x.errs is None and y.errs is None:
                return Block(v.shape, vals)
            ex = x.errs or [0.0] * len(vals)
            ey = y.errs or [0.0] * len(vals)
            return Block(v.shape, vals, [a if s else b for s, a, b in zip(c.vals, ex, ey)])
        if k == "minmax":
            op = at["op"]
            return elementwise(t, v.shape, args, tys, lambda x, y: nx.binary(op, t, x, y),
                               lambda xs, es, r: max(es))
        if k == "clamp":
            return elementwise(t, v.shape, args, tys,
                               lambda x, lo, hi: nx.binary("minimum", t, nx.binary("maximum", t, x, lo), hi),
                               lambda xs, es, r: es[0])
        if k == "fma":
            return elementwise(t, v.shape, args, tys, lambda a, b, c: nx.fma(t, a, b, c), self.fma_err(t))
        if k == "reduce":
            return self.reduce(at["op"], t, args[0], tys[0], at["axis"])
        if k == "cumsum":
            return self.cumsum(t, args[0], tys[0], at["axis"])
        if k in ("expand", "reshape", "hint"):
            return Block(v.shape, args[0].vals, args[0].errs)
        if k == "bcast":
            vals, errs = spread(args[0], v.shape)
            return Block(v.shape, vals, errs)
        if k == "trans":
            x, y = args[0].shape
            order = [i * y + j for j in range(y) for i in range(x)]
            a = args[0]
            return Block(v.shape, [a.vals[i] for i in order],
                         None if a.errs is None else [a.errs[i] for i in order])
        if k == "dot":
            return self.dot(v, args)
        if k == "full":
            n = 1
            for d in v.shape:
                n *= d
            x = nx.convert(tys[0], t, args[0].vals[0]) if v.args else nx.convert("i32", t, 0)
            return Block(v.shape, [x] * n)
        if k == "load":
            return self.load(v, args)
        if k == "ptreq":  # addresses are equal when buffer and index are
            same = at["buf"] is at["buf2"]
            eq = elementwise("i64", v.shape, args, tys, lambda x, y: 1 if same and x == y else 0)
            return Block(v.shape, [x if at["op"] == "==" else 1 - x for x in eq.vals])
        if k == "snap":
            b = self.vars[id(at["var"])]
            return Block(b.shape, list(b.vals), None if b.errs is None else list(b.errs))
        raise ReferenceError("cannot evaluate " + k)

    def unary(self, op, t, a):
        if op == "-":
            fn = (lambda x: -x) if nx.is_float(t) else (lambda x: nx.wrap(t, -x))
        elif op == "~":
            fn = (lambda x: 1 - x) if t == "i1" else (lambda x: nx.wrap(t, ~x))
        elif nx.is_float(t):
            fn = abs
        else:
            fn = (lambda x: x) if nx.is_unsigned(t) else (lambda x: nx.wrap(t, abs(x)))
        return Block(a.shape, [fn(x) for x in a.vals], a.errs)

    def math(self, fn, t, a, ty):
        vals, errs = conv(ty, t, a.vals, a.errs)
        if fn == "sigmoid":
            pairs = [nx.sigmoid(t, x, e) for x, e in zip(vals, errs or [0.0] * len(vals))]
            return Block(a.shape, [p[0] for p in pairs], [fin(p[1]) for p in pairs])
        out = [nx.math_op(fn, t, x) for x in vals]
        if fn in nx.EXACT_MATH:
            return Block(a.shape, out, errs)
        ulps = nx.LIBM_ULPS
        errs = errs or [0.0] * len(out)
        bounds = []
        for x, e, r in zip(vals, errs, out):
            if e == 0:
                slope = 0.0
            elif fn == "exp":
                slope = nx.MATH["exp"](x + e)
            elif fn == "exp2":
                slope = 0.6932 * nx.MATH["exp2"](x + e)
            else:
                slope = nx.MATH_SLOPE[fn]
            bounds.append(fin(slope * e + ulps * nx.ulp(t, r)))
        return Block(a.shape, out, bounds)

    def fma_err(self, t):
        def err(xs, es, r):
            a, b, c = xs
            ea, eb, ec = es
            return fin(abs(a) * eb + abs(b) * ea + ea * eb + ec + nx.ulp(t, r))
        return err

    def reduce(self, op, t, a, ty, axis):
        out_shape, groups = lanes(a.shape, axis)
        if op in ("argmax", "argmin"):
            better = (lambda c, x: c > x) if op == "argmax" else (lambda c, x: c < x)

            def combine(cur, cand):
                if better(cand[0], cur[0]) or (cand[0] == cur[0] and cand[1] < cur[1]):
                    return cand
                return cur
            vals = [pairwise([(a.vals[i], k) for k, i in enumerate(g)], combine)[1] for g in groups]
            return Block(out_shape, vals)
        vals, errs = conv(ty, t, a.vals, a.errs)
        bop = {"sum": "+", "prod": "*", "max": "maximum", "min": "minimum"}[op]
        if errs is None:
            out = [pairwise([vals[i] for i in g], lambda x, y: nx.binary(bop, t, x, y)) for g in groups]
            return Block(out_shape, out)

        def combine(p, q):
            r = nx.binary(bop, t, p[0], q[0])
            return r, bin_err(bop, t, p[0], q[0], p[1], q[1], r)
        pairs = [pairwise([(vals[i], errs[i]) for i in g], combine) for g in groups]
        return Block(out_shape, [p[0] for p in pairs], [p[1] for p in pairs])

    def cumsum(self, t, a, ty, axis):
        vals, errs = conv(ty, t, a.vals, a.errs)
        out, out_e = list(vals), (list(errs) if errs is not None else None)
        for g in lanes(a.shape, axis)[1]:
            for p, q in zip(g, g[1:]):
                out[q] = nx.binary("+", t, out[p], vals[q])
                if out_e is not None:
                    out_e[q] = bin_err("+", t, out[p], vals[q], out_e[p], errs[q], out[q])
        return Block(a.shape, out, out_e)

    def dot(self, v, args):
        a, b = args[0], args[1]
        m, kk = a.shape
        n = b.shape[1]
        t_in = v.attrs["ty_in"]
        acc = args[2].vals if len(args) > 2 else [nx.convert("i32", v.ty, 0)] * (m * n)
        out = []
        if v.ty == "i32":
            for i in range(m):
                for j in range(n):
                    c = acc[i * n + j]
                    for k in range(kk):
                        c = nx.wrap("i32", c + a.vals[i * kk + k] * b.vals[k * n + j])
                    out.append(c)
            return Block((m, n), out)
        av = [nx.convert(t_in, "f32", x) for x in a.vals]
        bv = [nx.convert(t_in, "f32", x) for x in b.vals]
        for i in range(m):
            row = av[i * kk:(i + 1) * kk]
            for j in range(n):
                c = acc[i * n + j]
                for k in range(kk):
                    c = nx.fma("f32", row[k], bv[k * n + j], c)
                out.append(c)
        return Block((m, n), out)

    def load(self, v, args):
        idx, mask, other, pick = args
        buf = v.attrs["buf"]
        data = self.memory[buf.name]
        if v.attrs.get("view"):  # the same bytes read as another type
            data = nx.unpack(v.attrs["view"], nx.pack(buf.ty, data))
        if pick is not None:  # where(pick, buf + idx, buf2 + idx), element by element
            picks = spread(pick, idx.shape)[0]
            other_data = self.memory[v.attrs["buf2"].name]
        shape = idx.shape
        m = spread(mask, shape)[0] if mask is not None else None
        o = nx.convert(v.args[2].ty, v.ty, other.vals[0]) if other is not None else None
        out = []
        for k, i in enumerate(idx.vals if shape else idx.vals[:1]):
            if m is not None and not m[k]:
                if o is None:
                    raise ReferenceError("masked load without other")
                out.append(o)
                continue
            if not 0 <= i < len(data):
                raise ReferenceError("load of %s[%d] out of its %d elements" % (buf.name, i, len(data)))
            out.append(data[i] if pick is None or picks[k] else other_data[i])
        return Block(shape, out)

    # -- statements ------------------------------------------------------
    def run(self, stmts):
        for s in stmts:
            if self.step(s) in ("break", "continue"):
                raise ReferenceError("jump outside a loop")

    def step(self, s):
        k = s.kind
        if k == "let":
            self.env[id(s.val)] = self.eval(s.val)
        elif k == "var":
            b = self.get(s.init)
            self.vars[id(s.var)] = Block(b.shape, list(b.vals), None if b.errs is None else list(b.errs))
        elif k == "assign":
            self.assign(s)
        elif k == "loop":
            self.loop(s)
        elif k == "if":
            arm = s.then if self.get(s.cond).vals[0] else s.orelse
            if arm:
                self.run(arm)
        elif k == "store":
            self.store(s)
        elif k == "atomic":
            self.atomic(s)
        else:
            raise ReferenceError(k)

    def assign(self, s):
        var = s.var
        cur = self.vars[id(var)]
        u = self.get(s.val)
        if s.op is None:
            vals, errs = spread(u, var.shape)
            self.vars[id(var)] = Block(var.shape, list(vals), None if errs is None else list(errs))
            return
        t, op = var.ty, s.op
        self.vars[id(var)] = elementwise(t, var.shape, [cur, u], [t, s.val.ty],
                                         lambda x, y: nx.binary(op, t, x, y),
                                         lambda xs, es, r: bin_err(op, t, xs[0], xs[1], es[0], es[1], r))

    def loop(self, s):
        end = self.get(s.end).vals[0]
        if s.form == "while":
            c = id(s.counter)
            while self.vars[c].vals[0] < end:
                if s.jump and self.vars[c].vals[0] == s.jump[1]:
                    break
                self.run(s.body)
                self.vars[c] = Block((), [nx.wrap("i32", self.vars[c].vals[0] + 1)])
            return
        start, step = self.get(s.start).vals[0], self.get(s.step).vals[0]
        for i in range(start, end, step):
            self.env[id(s.ivar)] = Block((), [i])
            if s.jump and i == s.jump[1]:
                if s.jump[0] == "break":
                    break
                continue
            self.run(s.body)

    def store(self, s):
        idx = self.get(s.idx)
        val = self.get(s.val)
        shape = idx.shape
        vals, errs = spread(val, shape)
        mask = spread(self.get(s.mask), shape)[0] if s.mask is not None else None
        data, bounds = self.memory[s.buf.name], self.bounds[s.buf.name]
        for k, i in enumerate(idx.vals):
            if mask is not None and not mask[k]:
                continue
            if not 0 <= i < len(data):
                raise ReferenceError("store of %s[%d] out of its %d elements" % (s.buf.name, i, len(data)))
            data[i] = nx.convert(s.val.ty, s.buf.ty, vals[k])
            bounds[i] = errs[k] if errs is not None else 0.0

    def atomic(self, s):
        idx = self.get(s.idx)
        vals = spread(self.get(s.val), idx.shape)[0]
        mask = spread(self.get(s.mask), idx.shape)[0] if s.mask is not None else None
        data, t = self.memory[s.buf.name], s.buf.ty
        op = {"add": "+", "max": "maximum", "min": "minimum", "and": "&", "or": "|", "xor": "^"}[s.op]
        for k, i in enumerate(idx.vals):
            if mask is None or mask[k]:
                data[i] = nx.binary(op, t, data[i], vals[k])


def expected(kernel):
    memory, bounds = {}, {}
    for p in kernel.params:
        if p.pointer:
            memory[p.name] = list(p.data)
            bounds[p.name] = [0.0] * len(p.data)
    g = kernel.grid + [1] * (2 - len(kernel.grid))
    for y in range(g[1]):
        for x in range(g[0]):
            Program(kernel, (x, y), memory, bounds).run(kernel.body)
    out = {}
    for p in kernel.params:
        if p.pointer and p.role != "in":
            b = bounds[p.name]
            out[p.name] = (memory[p.name], b if any(b) else None)
    return out
