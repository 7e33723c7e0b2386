"""The generator's description of one kernel: values, statements, parameters.

The generator (generate.py) builds it, emit.py prints it as blk source and
reference.py evaluates it; blkc's output is never parsed back.
"""


class Val:
    """One value of the kernel: an expression node bound by `let` (or inlined).

    kind says which built-in or operator made it; args are operand Vals;
    attrs hold the rest (operator, axis, literal value...). approx is true
    when the value may carry libm error (see reference.py's bounds).
    """

    def __init__(self, kind, ty, shape, args=(), approx=False, **attrs):
        self.kind = kind
        self.ty = ty
        self.shape = tuple(shape)
        self.args = list(args)
        self.approx = approx
        self.attrs = attrs
        self.name = None  # set when bound by a statement
        self.uses = 0
        for a in self.args:
            if a is not None:
                a.uses += 1

    def inline(self):
        """Literals, parameters, loop variables and var reads are written in place."""
        return self.kind in ("lit", "param", "const", "nprog", "loopvar", "read")

    def __repr__(self):
        return "Val(%s %s%s %s)" % (self.kind, self.ty, list(self.shape), self.name)


class Param:
    """A kernel parameter: a buffer (`*T`) or a runtime scalar."""

    def __init__(self, name, ty, pointer, data=None, value=None, role="in", hint=None):
        self.name = name
        self.ty = ty
        self.pointer = pointer
        self.data = data  # initial buffer contents
        self.value = value  # scalar value
        self.role = role  # in | out | atomic
        self.hint = hint  # "@multiple_of(16)" or None


class Stmt:
    """let | var | assign | for | if | store | atomic."""

    def __init__(self, kind, **fields):
        self.kind = kind
        self.__dict__.update(fields)


class Kernel:
    def __init__(self, seed):
        self.seed = seed
        self.name = "fz%d" % seed
        self.params = []
        self.consts = {}  # const parameter -> value used by the run
        self.configs = []  # @config dicts; the first is the one run
        self.defines = {}  # -D values when there is no @config
        self.grid = [1]
        self.grid_text = "1"
        self.specialize = []
        self.body = []
        self.features = set()
        self.has_dot = False
        self.fns = {}  # generic helper fn name -> its source line

    def param(self, name):
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(name)

    def programs(self):
        n = 1
        for g in self.grid:
            n *= g
        return n
