"""A seeded generator of random valid blk kernels (kernel.Kernel descriptions).

generate(seed) lays out a 1-D kernel (BLOCK elements per program, masked
at n) or a 2-D one (tiles of BM x BN [x BK] with row or column layouts,
strides possibly runtime parameters under @specialize), loads inputs of
random element types, grows random expressions (ops.py), adds loops with
carried values, ifs, dots and atomics, and stores chosen values, each to a
buffer of its own. The same seed always gives the same kernel.
"""
import random

import ops
from kernel import Kernel, Param, Stmt, Val
from numerics import TYPES, byte_size, is_float, promote
from ops import bshape, lit
from values import random_scalar, random_values

SAME_SIZE = {1: ["i8", "u8"], 2: ["i16", "u16", "f16", "bf16"], 4: ["i32", "u32", "f32"],
             8: ["i64", "u64", "f64"]}
# Every scalar type spelling (docs/language.md §3), which no binding may take.
SCALAR_TYPE_NAMES = {"i1", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f16", "bf16",
                     "f32", "f64", "f8e4m3", "f8e5m2", "bool"}
LOAD_CACHE = ["", "ca", "cg", "cs", "lu", "cv", ".cg"]
STORE_CACHE = ["", "wb", "cg", "cs", "wt", ".wt"]


class Gen:
    def __init__(self, seed):
        self.rng = random.Random(seed)
        self.kernel = Kernel(seed)
        self.scopes = [[]]
        self.blocks = [self.kernel.body]
        self.count = 0
        self.names = {}
        self.ranges = {}
        self.dims = []

    # -- bookkeeping -----------------------------------------------------
    def fresh(self, prefix):
        # Never a scalar type's name (`i1`, `i8`, `i16`...): a binding so
        # named hides the type, and `zeros(shape, i1)` would mean the binding.
        while True:
            n = self.names.get(prefix, 0)
            self.names[prefix] = n + 1
            name = "%s%d" % (prefix, n)
            if name not in SCALAR_TYPE_NAMES:
                return name

    def emit(self, kind, **fields):
        for name, v in fields.items():
            if isinstance(v, Val) and kind != "let":
                v.uses += 1
        self.blocks[-1].append(Stmt(kind, **fields))

    def bind(self, v, pool=True):
        """`let vN = v;` (index arithmetic stays out of the pool: pool=False)."""
        v.name = self.fresh("v")
        self.emit("let", val=v)
        if pool:
            self.scopes[-1].append(v)
        return v

    def pick(self, pred):
        cands = [v for s in self.scopes for v in s if pred(v)]
        if not cands:
            return None
        if len(cands) > 4 and self.rng.random() < 0.6:
            return self.rng.choice(cands[len(cands) // 2:])
        return self.rng.choice(cands)

    def buffer(self, ty, data, role):
        p = Param(self.fresh({"in": "x", "out": "o", "atomic": "a"}[role]), ty, True,
                  data=data, role=role)
        self.kernel.params.append(p)
        return p

    def scalar(self, ty, value, prefix="s"):
        p = Param(self.fresh(prefix), ty, False, value=value)
        self.kernel.params.append(p)
        return Val("param", ty, (), param=p)

    def const(self, name, value):
        return Val("const", "i32", (), name=name, value=value)

    # -- layout ----------------------------------------------------------
    def layout(self):
        r, k = self.rng, self.kernel
        self.rank = r.choice([1, 2, 2])
        self.want_dot = self.rank == 2 and r.random() < 0.35
        if self.rank == 1:
            b = r.choice([16, 32, 64, 128])
            self.dims = [b]
            self.consts = {"BLOCK": b}
            self.programs = r.choice([1, 2, 3])
        else:
            choices = [16, 32] if self.want_dot else [1, 2, 4, 8, 16, 32]
            names = ["BM", "BN", "BK"] if self.want_dot else ["BM", "BN"]
            self.consts = {n: r.choice(choices) for n in names}
            if self.want_dot and r.random() < 0.3:
                self.consts["BM"] = 64  # a warpgroup's M: wgmma on sm_90a
            self.dims = sorted(set(self.consts.values()))
            self.programs = r.choice([1, 2])
        k.consts = dict(self.consts)
        warps = r.choice([1, 2, 4, 8]) if not self.want_dot else 4
        if r.random() < 0.15:
            k.defines = dict(self.consts)
        else:
            k.configs.append(dict(self.consts, num_warps=warps))
            if r.random() < 0.4:
                # Shapes are written with literals too: only the warps (and
                # so every layout) differ in another specialisation.
                other = dict(self.consts, num_warps=r.choice([w for w in (1, 2, 4, 8) if w != warps]))
                if self.want_dot:
                    other["num_stages"] = r.choice([1, 2, 3])
                k.configs.append(other)
        self.pid = self.program_index()
        if self.rank == 1:
            self.layout_1d()
        for v in self.dims:
            self.arange(v)

    def arange(self, n):
        """arange(0, n), shared by everything at the top level."""
        if n in self.ranges:
            return self.ranges[n]
        v = self.bind(Val("arange", "i32", (n,), n=n, text=self.dim_text(n)))
        if len(self.scopes) == 1:
            self.ranges[n] = v
        return v

    def dim_text(self, v):
        named = [n for n, x in self.consts.items() if x == v]
        return self.rng.choice(named + [str(v)]) if named else str(v)

    def program_index(self):
        r, k = self.rng, self.kernel
        p = self.programs
        if self.rank == 1:
            k.grid, k.grid_text = [p], None  # cdiv(n, BLOCK), set by layout_1d
            return self.bind(Val("pid", "i32", (), axis=0))
        if p > 1 and r.random() < 0.4:
            k.grid, k.grid_text = [1, p], "1, %d" % p
            p1 = self.bind(Val("pid", "i32", (), axis=1))
            k.features.add("grid-2d")
            return self.bind(Val("bin", "i32", (), [p1, Val("nprog", "i32", (), axis=0)], op="*"))
        k.grid, k.grid_text = [p], str(p)
        return self.bind(Val("pid", "i32", (), axis=0))

    def layout_1d(self):
        b = self.consts["BLOCK"]
        total = self.programs * b
        self.n = total - self.rng.randrange(b)
        n = self.scalar("i32", self.n, prefix="n")
        if self.n % 16 == 0 and self.rng.random() < 0.5:
            n.attrs["param"].hint = "@multiple_of(16)"
        self.kernel.grid_text = "cdiv(%s, BLOCK)" % n.attrs["param"].name
        ar = self.ranges[b] = self.bind(Val("arange", "i32", (b,), n=b, text="BLOCK"))
        base = self.bind(Val("bin", "i32", (), [self.pid, self.const("BLOCK", b)], op="*"), pool=False)
        if self.rng.random() < 0.3:
            base = self.bind(Val("hint", "i32", (), [base], fn="multiple_of", value=16), pool=False)
        self.offs = self.bind(Val("bin", "i32", (b,), [base, ar], op="+"))
        if self.rng.random() < 0.3:
            self.offs = self.bind(Val("hint", "i32", (b,), [self.offs], fn="max_contiguous", value=b))
            self.kernel.features.add("hints")
        self.mask = self.bind(Val("cmp", "i1", (b,), [self.offs, n], op="<", cmp_ty="i32"))

    # -- loads and stores ------------------------------------------------
    def index(self, shape, layers=1, layer_var=None):
        """An index block for a block of `shape` of every program, the size
        of the buffer it needs, and a mask (None or (mask, needed size))."""
        r = self.rng
        if self.rank == 1 and shape == (self.consts["BLOCK"],):
            total = self.programs * shape[0]
            stride = 1
            if r.random() < 0.3:
                stride = r.choice([1, 2, 3, 16])
                s = self.scalar("i32", stride, prefix="stride")
                if r.random() < 0.7:
                    self.kernel.specialize.append(s.attrs["param"].name)
                idx = self.bind(Val("bin", "i32", shape, [self.offs, s], op="*"), pool=False)
            else:
                idx = self.offs
            masked = stride != 1 or r.random() < 0.6
            size = ((self.n if masked else total) - 1) * stride + 1
            return self.layered(idx, size, layers, layer_var), (self.mask if masked else None)
        if shape == ():
            return self.layered(self.pid, self.programs, layers, layer_var), None
        if len(shape) == 1:
            (x,) = shape
            base = self.bind(Val("bin", "i32", (), [self.pid, lit(self, "i32", x)], op="*"), pool=False)
            idx = self.bind(Val("bin", "i32", shape, [base, self.arange(x)], op="+"), pool=False)
            return self.layered(idx, self.programs * x, layers, layer_var), None
        x, y = shape
        rows = self.bind(Val("expand", "i32", (x, 1), [self.arange(x)], axis=1, form="index"), pool=False)
        cols = self.bind(Val("expand", "i32", (1, y), [self.arange(y)], axis=0, form="index"), pool=False)
        sx, sy = (y, 1) if r.random() < 0.7 else (1, x)
        terms = []
        for ax, s in ((rows, sx), (cols, sy)):
            if s == 1 and r.random() < 0.5:
                terms.append(ax)
                continue
            if r.random() < 0.3:
                sv = self.scalar("i32", s, prefix="stride")
                if r.random() < 0.7:
                    self.kernel.specialize.append(sv.attrs["param"].name)
            else:
                sv = lit(self, "i32", s)
            terms.append(self.bind(Val("bin", "i32", ax.shape, [ax, sv], op="*"), pool=False))
        base = self.bind(Val("bin", "i32", (), [self.pid, lit(self, "i32", x * y)], op="*"), pool=False)
        tile = self.bind(Val("bin", "i32", (x, y), terms, op="+"), pool=False)
        idx = self.bind(Val("bin", "i32", (x, y), [base, tile], op="+"), pool=False)
        mask = None
        if r.random() < 0.35:
            lx = self.scalar("i32", r.randint(1, x), prefix="lim")
            ly = self.scalar("i32", r.randint(1, y), prefix="lim")
            mx = self.bind(Val("cmp", "i1", (x, 1), [rows, lx], op="<", cmp_ty="i32"), pool=False)
            my = self.bind(Val("cmp", "i1", (1, y), [cols, ly], op="<", cmp_ty="i32"), pool=False)
            mask = self.bind(Val("bin", "i1", (x, y), [mx, my], op="&"))
            self.kernel.features.add("mask")
        return self.layered(idx, self.programs * x * y, layers, layer_var), mask

    def layered(self, idx, size, layers, layer_var):
        if layers == 1:
            return idx, size
        off = self.bind(Val("bin", "i32", (), [layer_var, lit(self, "i32", size)], op="*"), pool=False)
        return self.bind(Val("bin", "i32", idx.shape, [idx, off], op="+"), pool=False), size * layers

    def load(self, ty, shape, layers=1, layer_var=None):
        r = self.rng
        (idx, size), mask = self.index(shape, layers, layer_var)
        stored, view, pick = ty, None, None
        same_size = [t for t in SAME_SIZE.get(byte_size(ty), []) if t != ty]
        if same_size and r.random() < 0.12:  # `(x as *ty)`: the bits of another type
            stored, view = r.choice(same_size), ty
            self.kernel.features.add("ptr-cast")
        elif r.random() < 0.1:  # `where(c, x + i, y + i)`: pointers from two buffers
            pick = self.pick(lambda v: v.ty == "i1" and not v.approx and bshape(v.shape, shape) == shape)
        buf = self.buffer(stored, random_values(r, stored, size), "in")
        other = None  # masked-off lanes are undefined without `other`
        if mask is not None:
            other = ops.literal_for(self, ty) if ty != "i1" else lit(self, "i1", 1, "true")
        extra = {}
        if pick is not None:
            extra = {"buf2": self.buffer(stored, random_values(r, stored, size), "in")}
            self.kernel.features.add("ptr-where")
        return self.bind(Val("load", ty, shape, [idx, mask, other, pick], buf=buf, view=view,
                             **extra, **self.access_form(LOAD_CACHE)))

    def access_form(self, caches):
        """How the pointer is written (`x + i`, `i + x`, `x + 3 + i - 3`) and cache hints."""
        r = self.rng
        form = {"ptr": r.choice(["plain", "plain", "plain", "swapped", "offset"])}
        if r.random() < 0.2:
            form["cache"] = r.choice(caches)
        if r.random() < 0.1:
            form["evict"] = r.choice(["evict_normal", "evict_first", "evict_last"])
        return form

    def load_type(self):
        """Floats more often than their share: their rounding is where bugs hide."""
        if self.rng.random() < 0.55:
            return self.rng.choice(["f32", "f32", "f16", "bf16", "f64"])
        return self.rng.choice(TYPES)

    def tile_shapes(self):
        if self.rank == 1:
            return [(self.consts["BLOCK"],)]
        d = self.dims
        return [(x, y) for x in d for y in d] + [(x,) for x in d]

    def store(self, v):
        r = self.rng
        shape = v.shape
        if self.rank == 2 and len(shape) == 2:
            shape = tuple(r.choice(self.dims) if s == 1 else s for s in shape)
        elif self.rank == 2 and len(shape) == 1 and r.random() < 0.3:
            shape = (r.choice(self.dims),) + shape
        (idx, size), mask = self.index(shape)
        ty = v.ty
        if r.random() < 0.3:
            ty = r.choice([t for t in TYPES if is_float(t) or not v.approx])
        buf = self.buffer(ty, random_values(r, ty, size), "out")
        self.emit("store", buf=buf, idx=idx, val=v, mask=mask, form=self.access_form(STORE_CACHE))

    # -- statements ------------------------------------------------------
    def grow(self, steps):
        weights = [(fn, w if fn is not ops.op_dot else (6 if self.want_dot else 0), feat)
                   for fn, w, feat in ops.OPS]
        total = sum(w for _, w, _ in weights)
        for _ in range(steps):
            x = self.rng.uniform(0, total)
            for fn, w, feat in weights:
                x -= w
                if x <= 0:
                    break
            if fn(self) is not None:
                self.kernel.features.add(feat)

    def open_body(self):
        """Opens a scope and a statement list for a loop or branch body."""
        self.scopes.append([])
        stmts = []
        self.blocks.append(stmts)
        return stmts

    def close(self):
        self.blocks.pop()
        self.scopes.pop()

    def carried(self, init):
        """`var accN = init;`: the Val standing for the variable."""
        var = Val("var", init.ty, init.shape, [init], approx=init.approx)
        var.name = self.fresh("acc")
        self.emit("var", var=var, init=init)
        return var

    def update(self, var, read):
        """The last statement of a body: var = var op u (or var = u)."""
        r = self.rng
        u = self.pick(lambda v: (var.approx or not v.approx) and bshape(v.shape, var.shape) == var.shape
                      and v is not read and v in self.scopes[-1])
        if u is None:
            u = read
        u = ops.cast(self, u, var.ty)
        if var.ty == "i1":
            op = r.choice(["^", "|", None])
        else:
            op = r.choice(["+", "-", "*", "maximum", None] + (["^"] if not is_float(var.ty) else []))
        compound = op in ("+", "-", "*", "^") and r.random() < 0.5
        self.emit("assign", var=var, val=u, op=op, compound=compound, read=read)

    def loop(self):
        r, k = self.rng, self.kernel
        init = self.pick(lambda v: v.kind != "lit")
        if init is None:
            return
        var = self.carried(init)
        trips = r.randint(0, 4)
        form = r.choice(["range", "range", "static_range", "while"])
        end = lit(self, "i32", trips)
        if form != "static_range" and r.random() < 0.4:
            end = self.scalar("i32", trips, prefix="trips")
            if r.random() < 0.5:
                k.specialize.append(end.attrs["param"].name)
        start, step = lit(self, "i32", 0), lit(self, "i32", 1)
        if form != "while" and r.random() < 0.25:
            start = lit(self, "i32", 1)
        elif form != "while" and r.random() < 0.25:  # trips - 1 down to 0
            if end.kind == "lit":
                start = lit(self, "i32", trips - 1)
            else:
                start = self.bind(Val("bin", "i32", (), [end, lit(self, "i32", 1)], op="-"), pool=False)
            end, step = lit(self, "i32", -1), lit(self, "i32", -1)
            k.features.add("loop-down")
        if form == "range" and step.attrs.get("value") == 1 and r.random() < 0.25:
            step = lit(self, "i32", 2) if r.random() < 0.5 else self.scalar("i32", r.randint(1, 2), prefix="step")
        if form == "while":
            counter = Val("var", "i32", (), [lit(self, "i32", 0)])
            counter.name = self.fresh("j")
            self.emit("var", var=counter, init=counter.args[0])
        jump = None
        if r.random() < 0.3:
            jump = (r.choice(["break"] if form == "while" else ["break", "continue"]), r.randint(0, 3))
            k.features.add("break-continue")
        stmts = self.open_body()
        ivar = Val("loopvar", "i32", ()) if form != "while" else Val("read", "i32", (), var=counter)
        ivar.name = self.fresh("i") if form != "while" else counter.name
        read = Val("read", var.ty, var.shape, approx=var.approx, var=var)
        read.name = var.name
        self.scopes[-1] += [ivar, read]
        for _ in range(r.randint(0, 2)):
            self.load(self.load_type(), r.choice(self.tile_shapes()), layers=max(trips, 1) + 1,
                      layer_var=ivar)
        self.grow(r.randint(1, 5))
        self.update(var, read)
        self.close()
        self.emit("loop", form=form, ivar=ivar, start=start, end=end, step=step, body=stmts,
                  jump=jump, counter=counter if form == "while" else None)
        k.features.add("loop")
        self.bind(Val("snap", var.ty, var.shape, approx=var.approx, var=var))

    def dot_loop(self):
        """acc = dot(a_k, b_k, acc) over k, as a tiled matmul does."""
        r = self.rng
        m, n, kk = self.consts["BM"], self.consts["BN"], self.consts["BK"]
        t = r.choice(["f16", "bf16", "f32", "i8"])
        acc_ty = "i32" if t == "i8" else "f32"
        init = self.bind(Val("full", acc_ty, (m, n), [], zero=True))
        var = self.carried(init)
        trips = r.randint(1, 3)
        end = lit(self, "i32", trips)
        stmts = self.open_body()
        ivar = Val("loopvar", "i32", ())
        ivar.name = self.fresh("i")
        read = Val("read", acc_ty, (m, n), var=var)
        read.name = var.name
        a = self.load(r.choice([t, t, r.choice(TYPES)]), (m, kk), layers=trips + 1, layer_var=ivar)
        b = self.load(r.choice([t, t, r.choice(TYPES)]), (kk, n), layers=trips + 1, layer_var=ivar)
        a, b = ops.cast(self, a, t), ops.cast(self, b, t)
        d = self.bind(Val("dot", acc_ty, (m, n), [a, b, read], ty_in=t))
        self.emit("assign", var=var, val=d, op=None, compound=False, read=read)
        self.close()
        self.emit("loop", form="range", ivar=ivar, start=lit(self, "i32", 0), end=end,
                  step=lit(self, "i32", 1), body=stmts, jump=None, counter=None)
        self.kernel.has_dot = True
        self.kernel.features.update(["loop", "dot"])
        self.bind(Val("snap", acc_ty, (m, n), var=var))

    def branch(self):
        r = self.rng
        init = self.pick(lambda v: v.kind != "lit")
        cond = self.pick(lambda v: v.shape == () and not v.approx and not is_float(v.ty))
        if init is None or cond is None:
            return
        if cond.ty != "i1" and r.random() < 0.6:
            other = ops.typed_literal(self, cond) or lit(self, cond.ty, 1)
            cond = self.bind(Val("cmp", "i1", (), [cond, other], op=r.choice(["==", "<", ">="]),
                                 cmp_ty=promote(cond.ty, other.ty)))
        var = self.carried(init)
        arms = []
        for _ in range(2 if r.random() < 0.6 else 1):
            stmts = self.open_body()
            read = Val("read", var.ty, var.shape, approx=var.approx, var=var)
            read.name = var.name
            self.scopes[-1].append(read)
            self.grow(r.randint(0, 3))
            self.update(var, read)
            self.close()
            arms.append(stmts)
        self.emit("if", cond=cond, then=arms[0], orelse=arms[1] if len(arms) > 1 else None)
        self.kernel.features.add("if")
        self.bind(Val("snap", var.ty, var.shape, approx=var.approx, var=var))

    def atomic(self):
        r = self.rng
        op = r.choice(["add", "add", "max", "min", "and", "or", "xor"])
        tys = ["i16", "u16", "i32", "u32", "i64", "u64"] + (["f32", "f64"] if op == "add" else [])
        ty = r.choice(tys)
        v = self.pick(lambda x: not x.approx and x.ty != "i1" and (not is_float(ty) or not is_float(x.ty)))
        if v is None:
            return
        if is_float(ty):  # small integers: every order of the adds is exact
            v = self.bind(Val("bin", v.ty, v.shape, [v, lit(self, v.ty, 7)], op="&"), pool=False)
        v = ops.cast(self, v, ty)
        slots = r.choice([1, 2, 4, 8])
        u = self.pick(lambda x: not x.approx and not is_float(x.ty) and x.ty != "i1" and x.shape == v.shape)
        if u is None:
            return
        idx = self.bind(Val("bin", u.ty, u.shape, [u, lit(self, u.ty, slots - 1)], op="&"), pool=False)
        mask = None
        if r.random() < 0.5:
            mask = self.pick(lambda x: x.ty == "i1" and not x.approx and bshape(x.shape, v.shape) == v.shape)
        buf = self.buffer(ty, random_values(r, ty, slots), "atomic")
        self.emit("atomic", op=op, buf=buf, idx=idx, val=v, mask=mask)
        self.kernel.features.add("atomic")

    # -- the whole kernel ------------------------------------------------
    def run(self):
        r, k = self.rng, self.kernel
        self.layout()
        shapes = self.tile_shapes()
        for _ in range(r.randint(1, 4)):
            self.load(self.load_type(), r.choice(shapes))
        for _ in range(r.randint(0, 2)):
            t = r.choice(TYPES)
            self.scopes[-1].append(self.scalar(t, random_scalar(r, t)))
        self.grow(r.randint(2, 6))
        if self.want_dot and r.random() < 0.5:
            self.dot_loop()
        for _ in range(r.randint(2, 5)):
            c = r.random()
            if c < 0.25:
                self.loop()
            elif c < 0.4:
                self.branch()
            elif c < 0.55:
                self.atomic()
            self.grow(r.randint(1, 5))
        if self.want_dot and not k.has_dot:
            ops.op_dot(self)
        self.finish()
        return k

    def finish(self):
        r, k = self.rng, self.kernel
        values = [v for v in self.scopes[0] if v.kind not in ("param", "lit", "const", "arange")]
        unused = [v for v in values if v.uses == 0]
        chosen = unused[-r.randint(2, 6):] + r.sample(values, min(len(values), r.randint(0, 2)))
        if not chosen and values:
            chosen = [values[-1]]
        seen = set()
        for v in chosen:
            if id(v) not in seen:
                seen.add(id(v))
                self.store(v)
        order = [p.name for p in k.params]  # the variants' letters follow the parameters
        k.specialize = sorted(set(k.specialize), key=order.index)[:2]  # 3^k entries each
        if k.specialize:
            k.features.add("specialize")
        k.features.add("%dd" % self.rank)
        k.types = sorted({p.ty for p in k.params} | {v.ty for v in values})


def generate(seed):
    return Gen(seed).run()
