#!/usr/bin/env python3
"""The interpreter as the back end's oracle (docs/architecture.md, "Interpreter").

  backend_oracle.py [--bin DIR] [--arch SM] [--pipeline-option NAME=true|false]...
                    [--warp-specialized]
                    --work DIR SOURCE -k KERNEL [-D NAME=VALUE]...
                    [blkc run options: --arg, --grid, --print, --threads]...

SOURCE is a .blk file (the IR the back end receives is `blkc build
--emit=ir-opt`) or hand-written blk IR (.mlir). The script runs `blkc run` on
that IR and again after each prefix of the back-end pipeline (the pass list
comes from `blk-opt --blkgpu-pipeline --dump-pass-pipeline`, so a pass added
to the pipeline is covered without editing the tests), and for a .blk on the
driver's own `blkc build --emit=gpu-ir`. Each stage runs every specialisation
of KERNEL that matches the -D values (one per num_warps, per autotune config)
and every value variant (`@specialize`) whose classes the scalar arguments
satisfy, and from blkgpu-auto-specialize on every assumed variant whose
tests they pass. Every run must print exactly what the same specialisation (for a
variant: its generic entry) printed before layouts: the interpreter ignores
layouts, so a difference is a pass that changed what the kernel computes.
CI has no GPU; this is what catches it.

Prints one line per stage, then the first entry's output; at the first
difference (or failed run) prints a diff on stderr, names the stage, entry
and IR file, and exits 1.
"""
import argparse
import concurrent.futures
import difflib
import os
import re
import subprocess
import sys

FUNC = re.compile(r"^\s*func\.func @([\w$.]+)\((.*)$", re.M)


def fail(message):
    print("backend-oracle: error: " + message, file=sys.stderr)
    sys.exit(1)


def launch(cmd):
    return cmd, subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def checked(launched):
    """The stdout of a finished command; fails on a non-zero exit (e.g. the
    interpreter's out-of-bounds report when a pass broke index arithmetic)."""
    cmd, p = launched
    if p.returncode != 0:
        fail("`%s` exited with %d:\n%s%s" % (" ".join(cmd), p.returncode, p.stdout, p.stderr))
    return p.stdout


def run(cmd):
    return checked(launch(cmd))


def cancel(futures):
    """Drops the runs not started yet, so a failure reports at once."""
    for f in futures.values():
        f.cancel()


def attr(header, name, pattern):
    m = re.search(r"\b" + re.escape(name) + r" = " + pattern, header)
    return m.group(1) if m else None


def ints(text):
    return [int(v) for v in re.findall(r"-?\d+", text or "")]


def entries(ir, kernel, defines, scalars, warp_specialized):
    """(symbol, reference symbol) pairs to run: the specialisations of `kernel`
    whose blk.config holds every define, each its own reference, and the value
    variants of those the arguments satisfy, each referred to its generic
    entry. (Configs are not compared with each other: a kernel may cover
    only one block, as copy_2d's does.)"""
    generic, variants = [], []
    for m in FUNC.finditer(ir):
        sym, header = m.group(1), m.group(2)
        if (attr(header, "blk.kernel", r'"([^"]*)"') or sym) != kernel:
            continue
        text = attr(header, "blk.config", r"\{([^}]*)\}") or ""
        config = dict((k, int(v)) for k, v in re.findall(r"(\w+) = (-?\d+) : i64", text))
        config.update((k, int(v == "true")) for k, v in re.findall(r"(\w+) = (true|false)\b", text))
        # num_warps and the like shape specialisations but are not in blk.config.
        launch = ("num_warps", "num_stages", "programs_per_sm", "warp_specialize", "tma")
        if any(config.get(k) != v for k, v in defines.items() if k not in launch):
            continue
        # Warp-specialised specialisations only when asked for: their
        # producer and consumers take turns in the interpreter (slower).
        if re.search(r"\bblk\.warp_specialize\b", header) and not warp_specialized:
            continue
        of = attr(header, "blk.variant_of", r'"([^"]*)"')
        if of is None:
            generic.append(sym)
            continue
        names = re.findall(r'"(\w+)"', attr(header, "blk.param_names", r"\[([^\]]*)\]") or "")
        spec = ints(attr(header, "blk.specialize", r"array<i32: ([^>]*)>"))
        when = ints(attr(header, "blk.variant_when", r"array<i32: ([^>]*)>"))
        # docs/manifest.md: 1 = the value is 1, 16 = a multiple of 16, 0 = any.
        ok = len(spec) == len(when)
        for index, cls in zip(spec, when):
            value = scalars.get(names[index]) if index < len(names) else None
            if cls == 1:
                ok = ok and value == 1
            elif cls == 16:
                ok = ok and value is not None and value % 16 == 0
        if ok:
            variants.append((of, sym))
    return [(sym, sym) for sym in generic] + [(sym, of) for of, sym in variants if of in generic]


def assumed(ir, kernel, generic, scalars):
    """(symbol, generic symbol) of the assumed variants (blkgpu-auto-specialize)
    in `ir` of the entries in `generic` whose tests the scalar arguments pass.
    docs/manifest.md: kind 0 = aligned (a pointer: the interpreter's buffers
    compute the same either way), 1 = equals, 2 = multiple of."""
    out = []
    for m in FUNC.finditer(ir):
        sym, header = m.group(1), m.group(2)
        of = attr(header, "blk.variant_of", r'"([^"]*)"')
        triples = ints(attr(header, "blk.variant_assume", r"array<i64: ([^>]*)>"))
        if of not in generic or not triples:
            continue
        names = re.findall(r'"(\w+)"', attr(header, "blk.param_names", r"\[([^\]]*)\]") or "")
        ok = True
        for index, kind, value in zip(triples[0::3], triples[1::3], triples[2::3]):
            arg = scalars.get(names[index]) if index < len(names) else None
            if kind == 1:
                ok = ok and arg == value
            elif kind == 2:
                ok = ok and arg is not None and arg % value == 0
        if ok:
            out.append((sym, of))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", default="")
    ap.add_argument("--work", required=True)
    ap.add_argument("-k", dest="kernel", required=True)
    ap.add_argument("-D", dest="defines", action="append", default=[])
    ap.add_argument("--arch", default="", help="target of blkc and of the passes' arch option")
    ap.add_argument("--pipeline-option", dest="pipeline_options", action="append", default=[],
                    metavar="NAME=true|false",
                    help="an option of blk-opt's --blkgpu-pipeline, named as blkc build's "
                         "flag (stores-from-registers=true: --stores-from-registers; "
                         "tma=false: --no-tma)")
    ap.add_argument("--warp-specialized", action="store_true",
                    help="also the warp-specialised specialisations (off: faster)")
    ap.add_argument("source")
    args, run_options = ap.parse_known_args()
    tool = lambda name: os.path.join(args.bin, name) if args.bin else name
    blkc, blk_opt = tool("blkc"), tool("blk-opt")
    def define_value(text):  # as blkc's -D: an integer, or true / false
        return {"true": 1, "false": 0}[text] if text in ("true", "false") else int(text, 0)
    defines = dict((d.split("=")[0], define_value(d.split("=")[1])) for d in args.defines)
    define_flags = [f for d in args.defines for f in ("-D", d)]
    build_flags = ["--arch", args.arch] if args.arch else []
    # The same choice for blk-opt's pipeline and for blkc's --emit=gpu-ir.
    pipeline = "--blkgpu-pipeline"
    if args.pipeline_options:
        pipeline += "=" + " ".join(args.pipeline_options)
    for option in args.pipeline_options:
        m = re.fullmatch(r"([\w-]+)=(true|false)", option)
        if not m:
            fail("--pipeline-option takes NAME=true or NAME=false, not `%s`" % option)
        build_flags.append(("--" if m.group(2) == "true" else "--no-") + m.group(1))
    scalars = {}
    for opt, value in zip(run_options, run_options[1:]):
        m = re.fullmatch(r"(\w+)=(-?\d+)", value)
        if opt == "--arg" and m:
            scalars[m.group(1)] = int(m.group(2))
    os.makedirs(args.work, exist_ok=True)

    # Stage files: the blk IR, then one per pipeline prefix.
    base = os.path.join(args.work, "0-blk.mlir")
    if args.source.endswith(".blk"):
        run([blkc, "build", args.source, "--emit=ir-opt", "-o", base] + define_flags + build_flags)
    else:  # printed once, so every func header is one line
        run([blk_opt, args.source, "-o", base])
    # --dump-pass-pipeline writes to stderr.
    dump = subprocess.run([blk_opt, pipeline, "--dump-pass-pipeline", base, "-o",
                           os.devnull], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          text=True).stdout
    # builtin.module(func.func(a,b{opt=1}),c): names before `(` are anchors,
    # the rest are passes (with their options), in pipeline order.
    line = next((l for l in dump.splitlines() if l.startswith("builtin.module(")), "")
    passes = ["--" + name + ("=" + opts[1:-1] if opts else "")
              for name, opts, open_ in re.findall(r"([\w.-]+)(\{[^}]*\})?(\(?)", line)
              if not open_]
    if args.arch:  # the registered pipeline is sm_90's: retarget its passes
        passes = [re.sub(r"\barch=[\w]+", "arch=" + args.arch, p) for p in passes]
    if not passes:
        fail("no pass list in `blk-opt --blkgpu-pipeline --dump-pass-pipeline`:\n" + dump)
    stages = [("blk", base)]
    for k, flag in enumerate(passes, 1):
        name = flag[2:].split("=")[0]
        path = os.path.join(args.work, "%d-%s.mlir" % (k, name))
        run([blk_opt, base] + passes[:k] + ["-o", path])
        stages.append((name, path))
    if args.source.endswith(".blk"):
        path = os.path.join(args.work, "%d-gpu-ir.mlir" % (len(passes) + 1))
        run([blkc, "build", args.source, "--emit=gpu-ir", "-o", path] + define_flags + build_flags)
        stages.append(("gpu-ir", path))

    syms = entries(open(base).read(), args.kernel, defines, scalars, args.warp_specialized)
    if not syms:
        fail("no specialisation of `%s` in %s" % (args.kernel, base))
    # Assumed variants exist from blkgpu-auto-specialize on: each runs in the
    # stages that hold it, against its generic entry's output.
    syms += assumed(open(stages[-1][1]).read(), args.kernel, [s for s, _ in syms], scalars)
    print("entries: " + ", ".join(sym for sym, _ in syms))
    # Every run at once (they are independent processes), reported in order.
    # A stage whose IR text equals an earlier one's (a pass with nothing to
    # do) reuses that run: the interpreter is deterministic.
    texts = dict((path, open(path).read()) for _, path in stages)
    first = {}  # IR text -> the first stage file holding it
    for _, path in stages:
        first.setdefault(texts[path], path)
    with concurrent.futures.ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        present = lambda sym, path: re.search(r"func\.func @%s\(" % re.escape(sym), texts[path])
        outputs = {(path, sym): pool.submit(launch, [blkc, "run", path, "-k", sym] +
                                            define_flags + run_options)
                   for path in set(first.values()) for sym, _ in syms if present(sym, path)}
        reference = {}  # symbol -> its output before layouts
        for name, path in stages:
            ir = texts[path]
            # assign-layouts marks each kernel; without it nothing was compared.
            if path == stages[len(passes)][1] and "blkgpu.num_warps" not in ir:
                fail("the pipeline left %s without layouts" % path)
            for sym, ref in syms:
                if (first[ir], sym) not in outputs:
                    continue  # an assumed variant, before the pass that makes it
                done = outputs[(first[ir], sym)].result()
                if done[1].returncode != 0:
                    cancel(outputs)
                out = checked(done)
                expected = reference.setdefault(ref, out)
                if out != expected:
                    cancel(outputs)
                    sys.stderr.writelines(difflib.unified_diff(
                        expected.splitlines(True), out.splitlines(True),
                        "%s before layouts" % ref, "%s after %s" % (sym, name)))
                    fail("%s changes what `%s` computes (IR: %s)" % (name, sym, path))
            converts = len(re.findall(r"= blkgpu\.convert_layout ", ir))
            print("%s: agree%s" % (name, " (%d convert_layout)" % converts
                                   if name != "blk" else ""))
    sys.stdout.write(reference[syms[0][0]])


if __name__ == "__main__":
    main()
