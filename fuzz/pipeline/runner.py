"""One seed through the pipeline: check, build, run (three ways), compare.

run_seed(blkc, seed, out) returns a Result; a failing kernel's directory
(the .blk, its input files, cmds.sh and reason.txt) is kept as
out/seed-N, a passing one is deleted.
"""
import os
import re
import shutil
import subprocess

import compare
import emit
import numerics as nx
from evaluate import expected
from generate import generate

TIMEOUT = 120


class Result:
    def __init__(self):
        self.features, self.types, self.stages = set(), set(), set()
        self.failure = None


class Failure(Exception):
    pass


def _scalar_text(p):
    if p.ty == "i1":
        return "true" if p.value else "false"
    return nx.literal(p.ty, p.value) if nx.is_float(p.ty) else str(p.value)


class Seed:
    def __init__(self, blkc, seed, work):
        self.blkc, self.seed, self.work = blkc, seed, work
        self.cmds = []

    def call(self, what, args):
        cmd = [self.blkc] + args
        self.cmds.append(" ".join(cmd))
        try:
            p = subprocess.run(cmd, cwd=self.work, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            raise Failure("%s: timed out after %d s" % (what, TIMEOUT))
        if p.returncode != 0:
            lines = [l for l in p.stderr.splitlines() if "error" in l] or p.stderr.splitlines() or [""]
            kind = "crashed" if p.returncode < 0 or p.returncode > 2 else "failed"
            raise Failure("%s %s (exit %d): %s" % (what, kind, p.returncode, lines[0].strip()))
        return p.stdout

    def run_args(self, k, tag):
        args = []
        for p in k.params:
            if not p.pointer:
                args += ["--arg", "%s=%s" % (p.name, _scalar_text(p))]
                continue
            path = "%s.bin" % p.name
            args += ["--arg", "%s=file:%s:%s" % (p.name, p.ty, path)]
            if p.role != "in":
                args += ["--out", "%s=%s.%s.bin" % (p.name, p.name, tag)]
        return args

    def outputs(self, k, tag):
        got = {}
        for p in k.params:
            if p.pointer and p.role != "in":
                with open(os.path.join(self.work, "%s.%s.bin" % (p.name, tag)), "rb") as f:
                    got[p.name] = nx.unpack(p.ty, f.read())
        return got


def _defines(k):
    return [a for n, v in k.defines.items() for a in ("-D", "%s=%d" % (n, v))]


def _entry(k, text):
    """The entry a launch with these arguments runs: the value variant whose
    classes (1, a multiple of 16, any) match, or the generic entry."""
    entries = re.findall(r"func\.func @(\w+)\(", text)
    generic = [e for e in entries if re.search(r"__w\d+(__ws)?$", e)]
    if not k.specialize or not generic:
        return k.name
    letters = ""
    for name in k.specialize:
        v = k.param(name).value
        letters += "1" if v == 1 else "d" if v % 16 == 0 else "x"
    variant = generic[0] + "__v" + letters
    return variant if variant in entries else generic[0]


def pipeline(s, k, src, result):
    s.call("check", ["check", src] + _defines(k))
    result.stages.add("check")
    archs = ["sm_90"] + (["sm_90a"] if k.has_dot else [])
    for arch in archs:
        s.call("build " + arch, ["build", src, "-o", "k.%s.fatbin" % arch, "--arch", arch] + _defines(k))
    result.stages.add("build")
    try:
        want = expected(k)
    except Exception as e:  # the description asked for something the reference cannot do
        raise Failure("reference: %s: %s (a fuzzer bug)" % (type(e).__name__, e))
    base = ["run", src, "-k", k.name] + _defines(k)
    s.call("run", base + s.run_args(k, "run"))
    got = s.outputs(k, "run")
    for p in k.params:
        if p.pointer and p.role != "in":
            values, bounds = want[p.name]
            d = compare.first_difference(p.ty, got[p.name], values, bounds)
            if d:
                raise Failure("run: %s[%d] is %s, the reference says %s%s" % (
                    p.name, d[0], compare.show(p.ty, d[1]), compare.show(p.ty, d[2]),
                    " (within %g)" % d[3] if d[3] else ""))
    result.stages.add("run")
    s.call("run --opt", base + ["--opt"] + s.run_args(k, "opt"))
    same(k, got, s.outputs(k, "opt"), "run --opt")
    result.stages.add("run-opt")
    for arch in archs:
        ir = "k.%s.mlir" % arch
        s.call("build --emit=gpu-ir " + arch, ["build", src, "--emit=gpu-ir", "-o", ir, "--arch", arch]
               + _defines(k))
        with open(os.path.join(s.work, ir)) as f:
            entry = _entry(k, f.read())
        s.call("run gpu-ir " + arch, ["run", ir, "-k", entry] + _defines(k) + s.run_args(k, arch))
        same(k, got, s.outputs(k, arch), "run of the %s GPU IR (%s)" % (arch, entry))
    result.stages.add("run-gpu-ir")


def same(k, base, other, what):
    for p in k.params:
        if p.pointer and p.role != "in":
            d = compare.first_difference(p.ty, other[p.name], base[p.name])
            if d:
                raise Failure("%s: %s[%d] is %s, without --opt it is %s" % (
                    what, p.name, d[0], compare.show(p.ty, d[1]), compare.show(p.ty, d[2])))


def run_seed(blkc, seed, out):
    result = Result()
    work = os.path.join(out, "work-%d" % seed)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    s = Seed(blkc, seed, work)
    try:
        k = generate(seed)
    except Exception as e:  # a generator crash is a fuzzer bug, reported like the others
        result.failure = "generator: %s: %s" % (type(e).__name__, e)
        return result
    result.features, result.types = set(k.features), set(k.types)
    src = "%s.blk" % k.name
    with open(os.path.join(work, src), "w") as f:
        f.write(emit.source(k))
    for p in k.params:
        if p.pointer:
            with open(os.path.join(work, "%s.bin" % p.name), "wb") as f:
                f.write(nx.pack(p.ty, p.data))
    try:
        pipeline(s, k, src, result)
    except Failure as e:
        result.failure = str(e)
    if result.failure is None:
        shutil.rmtree(work)
        return result
    keep = os.path.join(out, "seed-%d" % seed)
    shutil.rmtree(keep, ignore_errors=True)
    os.rename(work, keep)
    with open(os.path.join(keep, "reason.txt"), "w") as f:
        f.write("seed %d: %s\n" % (seed, result.failure))
    with open(os.path.join(keep, "cmds.sh"), "w") as f:
        f.write("# run in this directory\n" + "\n".join(s.cmds) + "\n")
    return result
