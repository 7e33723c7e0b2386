"""blk source text for a kernel.Kernel description."""


def _name(v):
    if v.kind == "param":
        return v.attrs["param"].name
    if v.kind in ("lit",):
        return v.attrs["text"]
    if v.kind == "const":
        return v.attrs["name"]
    if v.kind == "nprog":
        return "num_programs(%d)" % v.attrs["axis"]
    return v.name if v.uses or v.inline() else "_" + v.name


def _shape(shape):
    return "[" + ", ".join(str(d) for d in shape) + "]"


def expr(v):
    a = [_name(x) if x is not None else None for x in v.args]
    k, at = v.kind, v.attrs
    if at.get("via"):
        return "%s(%s, %s)" % (at["via"], a[0], a[1])
    if k == "pid":
        return "program_id(%d)" % at["axis"]
    if k == "arange":
        return "arange(0, %s)" % at["text"]
    if k in ("bin", "cmp"):
        return "%s %s %s" % (_wrap(v.args[0], a[0]), at["op"], _wrap(v.args[1], a[1]))
    if k == "un":
        return "abs(%s)" % a[0] if at["op"] == "abs" else at["op"] + _wrap(v.args[0], a[0])
    if k == "math":
        return "%s(%s)" % (at["fn"], a[0])
    if k == "cast":
        return "%s as %s" % (_wrap(v.args[0], a[0]), v.ty)
    if k == "where":
        return "where(%s, %s, %s)" % tuple(a)
    if k == "minmax":
        return "%s(%s, %s)" % (at["op"], a[0], a[1])
    if k == "clamp":
        return "clamp(%s, %s, %s)" % tuple(a)
    if k == "fma":
        return "fma(%s, %s, %s)" % tuple(a)
    if k == "reduce":
        if at["axis"] is None:
            return "%s(%s)" % (at["op"], a[0])
        if at["form"] == "named":
            return "%s(%s, axis: %d)" % (at["op"], a[0], at["axis"])
        return "%s(%s, %d)" % (at["op"], a[0], at["axis"])
    if k == "cumsum":
        return "cumsum(%s, axis: %d)" % (a[0], at["axis"]) if at["axis"] else "cumsum(%s)" % a[0]
    if k == "expand":
        if at["form"] == "call":
            return "expand_dims(%s, %d)" % (a[0], at["axis"])
        return "%s[%s]" % (a[0], ":, None" if at["axis"] == 1 else "None, :")
    if k == "trans":
        return "trans(%s)" % a[0] if at["form"] == "trans" else "permute(%s, [1, 0])" % a[0]
    if k == "bcast":
        return "broadcast_to(%s, %s)" % (a[0], _shape(v.shape))
    if k == "reshape":
        return "reshape(%s, %s)" % (a[0], _shape(v.shape))
    if k == "dot":
        return "dot(%s)" % ", ".join(a)
    if k == "full":
        if at.get("zero"):
            return "zeros(%s, %s)" % (_shape(v.shape), v.ty)
        return "full(%s, %s, %s)" % (_shape(v.shape), a[0], v.ty)
    if k == "load":
        buf = at["buf"].name
        if at.get("view"):
            buf = "(%s as *%s)" % (buf, at["view"])
        ptr = pointer(buf, a[0], at)
        if at.get("buf2"):
            ptr = "where(%s, %s, %s + %s)" % (a[3], ptr, at["buf2"].name, a[0])
        text = "load(%s" % ptr
        if a[1]:
            text += ", mask: %s" % a[1]
        if a[2]:
            text += ", other: %s" % a[2]
        return text + hints(at) + ")"
    if k == "ptreq":
        return "(%s + %s) %s (%s + %s)" % (at["buf"].name, a[0], at["op"], at["buf2"].name, a[1])
    if k == "hint":
        return "%s(%s, %d)" % (at["fn"], a[0], at["value"])
    if k == "snap":
        return at["var"].name
    raise ValueError("no text for " + k)


def pointer(buf, idx, form):
    if form.get("ptr") == "swapped":
        return "%s + %s" % (idx, buf)
    if form.get("ptr") == "offset":
        return "%s + 3 + %s - 3" % (buf, idx)
    return "%s + %s" % (buf, idx)


def hints(form):
    text = ""
    if "cache" in form:
        text += ', cache: "%s"' % form["cache"]
    if "evict" in form:
        text += ', evict: "%s"' % form["evict"]
    return text


def _wrap(v, text):
    """Operands of operators in parentheses unless they are names or literals."""
    return text if v.inline() or v.name else "(" + text + ")"


def _stmts(stmts, indent, out):
    pad = "    " * indent
    for s in stmts:
        if s.kind == "let":
            out.append("%slet %s = %s;" % (pad, _name(s.val), expr(s.val)))
        elif s.kind == "var":
            out.append("%svar %s = %s;" % (pad, s.var.name, _name(s.init)))
        elif s.kind == "assign":
            var, u = s.var.name, _name(s.val)
            if s.op is None:
                out.append("%s%s = %s;" % (pad, var, u))
            elif s.compound:
                out.append("%s%s %s= %s;" % (pad, var, s.op, u))
            elif s.op == "maximum":
                out.append("%s%s = maximum(%s, %s);" % (pad, var, var, u))
            else:
                out.append("%s%s = %s %s %s;" % (pad, var, var, s.op, u))
        elif s.kind == "loop":
            end = _name(s.end)
            i = s.ivar.name
            if s.form == "while":
                out.append("%swhile %s < %s {" % (pad, i, end))
            else:
                start, step = _name(s.start), _name(s.step)
                if start == "0" and step == "1" and end.isdigit():
                    bounds = end
                elif step == "1":
                    bounds = "%s, %s" % (start, end)
                else:
                    bounds = "%s, %s, %s" % (start, end, step)
                out.append("%sfor %s in %s(%s) {" % (pad, i, s.form, bounds))
            if s.jump:
                out.append("%s    if %s == %d { %s; }" % (pad, i, s.jump[1], s.jump[0]))
            _stmts(s.body, indent + 1, out)
            if s.form == "while":
                out.append("%s    %s += 1;" % (pad, i))
            out.append(pad + "}")
        elif s.kind == "if":
            out.append("%sif %s {" % (pad, _name(s.cond)))
            _stmts(s.then, indent + 1, out)
            if s.orelse is not None:
                out.append(pad + "} else {")
                _stmts(s.orelse, indent + 1, out)
            out.append(pad + "}")
        elif s.kind in ("store", "atomic"):
            fn = "store" if s.kind == "store" else "atomic_" + s.op
            form = getattr(s, "form", {})
            text = "%s%s(%s, %s" % (pad, fn, pointer(s.buf.name, _name(s.idx), form), _name(s.val))
            if s.mask is not None:
                text += ", mask: %s" % _name(s.mask)
            out.append(text + hints(form) + ");")
        else:
            raise ValueError(s.kind)


def source(k):
    out = ["// blk pipeline fuzzer, seed %d (fuzz/pipeline/fuzz.py --seeds %d:%d)"
           % (k.seed, k.seed, k.seed + 1)]
    out += [k.fns[name] for name in sorted(k.fns)]
    for c in k.configs:
        out.append("@config(%s)" % ", ".join("%s = %d" % kv for kv in c.items()))
    out.append("@grid(%s)" % k.grid_text)
    if k.specialize:
        out.append("@specialize(%s)" % ", ".join(k.specialize))
    params = []
    for p in k.params:
        text = "%s: %s%s" % (p.name, "*" if p.pointer else "", p.ty)
        if p.hint:
            text += " " + p.hint
        params.append(text)
    params += ["const %s: i32" % c for c in k.consts]
    out.append("kernel %s(%s) {" % (k.name, ", ".join(params)))
    _stmts(k.body, 1, out)
    out.append("}")
    return "\n".join(out) + "\n"
