#!/usr/bin/env python3
"""CPU references for the samples run through `blkc run` (tests/lit/interp/samples.test).

Usage: reference.py KERNEL DIR [NAME=VALUE...]. DIR holds the raw buffers the
run wrote with --out (inputs and outputs); the reference recomputes every
output from the inputs in double precision and compares within a tolerance
suited to the element type. Prints "ok KERNEL: N values" or the first
mismatches and exits 1.
"""
import math
import struct
import sys

FMT = {"f32": "f", "f16": "e", "i32": "i"}


def read(path, kind):
    data = open(path, "rb").read()
    size = struct.calcsize(FMT[kind])
    return list(struct.unpack("<%d%s" % (len(data) // size, FMT[kind]), data))


def compare(name, got, want, rel, abs_tol):
    bad = [(i, g, w) for i, (g, w) in enumerate(zip(got, want))
           if not math.isclose(g, w, rel_tol=rel, abs_tol=abs_tol)]
    if len(got) != len(want):
        bad.append(("size", len(got), len(want)))
    if bad:
        for b in bad[:5]:
            print("mismatch %s[%s]: got %r want %r" % ((name,) + tuple(b)))
        sys.exit(1)
    return len(got)


def main():
    kernel, d = sys.argv[1], sys.argv[2]
    p = {k: float(v) for k, v in (a.split("=") for a in sys.argv[3:])}
    f = lambda name, kind="f32": read("%s/%s" % (d, name), kind)
    n = 0
    if kernel == "vector_add":
        x, y, out = f("x"), f("y"), f("out")
        n = compare("out", out, [a + b for a, b in zip(x, y)], 1e-7, 0)
    elif kernel == "double_grid":
        x, out = f("x"), f("out")
        n = compare("out", out, [2 * a for a in x], 0, 0)
    elif kernel == "tile_2d":
        a, b = f("a"), f("b")
        n = compare("b", b, [p["alpha"] * v for v in a], 1e-7, 0)
    elif kernel == "softmax":
        inp, out = f("inp"), f("out")
        rows, cols = int(p["rows"]), int(p["cols"])
        want = []
        for r in range(rows):
            row = inp[r * cols:(r + 1) * cols]
            m = max(row)
            e = [math.exp(v - m) for v in row]
            s = sum(e)
            want += [v / s for v in e]
        n = compare("out", out, want, 1e-5, 1e-9)
    elif kernel == "matmul":
        a, b, c = f("a"), f("b"), f("c")
        M, N, K = int(p["M"]), int(p["N"]), int(p["K"])
        want = [sum(a[i * K + k] * b[k * N + j] for k in range(K))
                for i in range(M) for j in range(N)]
        n = compare("c", c, want, 1e-5, 1e-5)
    elif kernel == "layernorm":
        x, y, w, b = f("x", "f16"), f("y", "f16"), f("w", "f16"), f("b", "f16")
        mean, rstd = f("mean"), f("rstd")
        M, N, eps = int(p["M"]), int(p["N"]), p["eps"]
        wy, wm, wr = [], [], []
        for r in range(M):
            row = x[r * N:(r + 1) * N]
            mu = sum(row) / N
            var = sum((v - mu) ** 2 for v in row) / N
            rs = 1 / math.sqrt(var + eps)
            wm.append(mu)
            wr.append(rs)
            wy += [(v - mu) * rs * w[i] + b[i] for i, v in enumerate(row)]
        n = compare("mean", mean, wm, 1e-5, 1e-6)
        n += compare("rstd", rstd, wr, 1e-5, 0)
        n += compare("y", y, wy, 2e-3, 2e-3)  # f16 output: 11 significant bits
    else:
        print("unknown kernel " + kernel)
        sys.exit(2)
    print("ok %s: %d values" % (kernel, n))


main()
