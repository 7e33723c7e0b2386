"""Checks samples/attention.blk on blk's CPU interpreter (`blkc run`), no GPU
needed: small ragged sequence lengths, small tiles set with -D (several
programs, both loop phases, every mask), causal and not, f16 and bf16; O
and the per-row log-sum-exp against a float64 softmax(Q·Kᵀ·scale)·V
computed in pure Python.

  python3 bench/attention/interp_check.py [path/to/blkc]
"""
import importlib.util
import math
import os
import random
import struct
import subprocess
import sys
import tempfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# BLK_ATTN_SAMPLE: a variant of the sample to check instead
# (tests/lit/bench/attention-causal-groups.test checks one).
SAMPLE = os.environ.get("BLK_ATTN_SAMPLE", os.path.join(ROOT, "samples", "attention.blk"))
BLKC = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "bin", "blkc")
LOG2E = 1.0 / math.log(2.0)


# f16 / bf16 rounding and packing as the GEMM check does them (one copy).
_spec = importlib.util.spec_from_file_location(
    "gemm_interp_check", os.path.join(ROOT, "bench", "gemm", "interp_check.py"))
_gemm = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_gemm)
f16, bf16, pack, unpack_elems = _gemm.f16, _gemm.bf16, _gemm.pack, _gemm.unpack


ROUND = {"f16": f16, "bf16": bf16}
KERNEL = {"f16": "attention_fwd", "bf16": "attention_fwd_bf16"}
TOL_O = {"f16": 2e-3, "bf16": 1.6e-2}  # P is rounded to the input type before P·V


def reference(Q, K, V, Z, H, N, D, causal, scale):
    """O [Z*H*N*D] and lse [Z*H*N] (base 2, as the kernel stores it)."""
    O, L = [0.0] * (Z * H * N * D), [0.0] * (Z * H * N)
    for zh in range(Z * H):
        base = zh * N * D
        for i in range(N):
            q = Q[base + i * D: base + (i + 1) * D]
            cols = range(i + 1) if causal else range(N)
            s = [scale * sum(q[d] * K[base + j * D + d] for d in range(D)) for j in cols]
            m = max(s)
            p = [math.exp(x - m) for x in s]
            l = sum(p)
            for d in range(D):
                O[base + i * D + d] = sum(pj * V[base + j * D + d] for pj, j in zip(p, cols)) / l
            L[zh * N + i] = (m + math.log(l)) * LOG2E
    return O, L


def check(t, Z, H, N, D, causal, tiles, overlap, tmp):
    BM, BN = tiles
    r = ROUND[t]
    rnd = random.Random(zlib.crc32(f"{t} {Z} {H} {N} {D} {causal} {tiles} {overlap}".encode()))
    n = Z * H * N * D
    # Q spread wider than K and V so that rows have a clear maximum and the
    # running max moves as the loop goes (the rescaling is exercised).
    Q = [r(rnd.uniform(-3, 3)) for _ in range(n)]
    K = [r(rnd.uniform(-1, 1)) for _ in range(n)]
    V = [r(rnd.uniform(-1, 1)) for _ in range(n)]
    paths = {x: os.path.join(tmp, x) for x in ("q", "k", "v", "o", "lse")}
    for name, vals in (("q", Q), ("k", K), ("v", V)):
        open(paths[name], "wb").write(pack(t, vals))
    scale = 1.0 / math.sqrt(D)
    cmd = [BLKC, "run", SAMPLE, "-k", KERNEL[t], "--threads", "2",
           "-D", f"BM={BM}", "-D", f"BN={BN}", "-D", f"HEAD_DIM={D}",
           "-D", f"CAUSAL={'true' if causal else 'false'}",
           "-D", f"OVERLAP={'true' if overlap else 'false'}",
           "--arg", f"q=file:{t}:{paths['q']}", "--arg", f"k=file:{t}:{paths['k']}",
           "--arg", f"v=file:{t}:{paths['v']}", "--arg", f"o=fill:{t}:{n}:nan",
           "--arg", f"lse=fill:f32:{Z * H * N}:nan", "--arg", f"sm_scale={scale!r}",
           "--arg", f"Z={Z}", "--arg", f"H={H}", "--arg", f"N_CTX={N}", "--arg", f"head_dim={D}",
           "--arg", f"causal={'true' if causal else 'false'}",
           "--out", f"o={paths['o']}", "--out", f"lse={paths['lse']}"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return False, f"blkc run failed ({p.returncode}): {p.stderr.strip()[:2000]}"
    got_o = unpack_elems(t, open(paths["o"], "rb").read())
    data = open(paths["lse"], "rb").read()
    got_l = list(struct.unpack(f"<{len(data) // 4}f", data))
    ref_o, ref_l = reference(Q, K, V, Z, H, N, D, causal, scale)
    # O is a convex combination of V's rows (|v| < 1): its error is absolute.
    # P is rounded to the input type before P·V and O is stored in it.
    err_o = max(abs(g - r) if math.isfinite(g) else math.inf for g, r in zip(got_o, ref_o))
    err_l = max(abs(g - r) if math.isfinite(g) else math.inf for g, r in zip(got_l, ref_l))
    ok = err_o <= TOL_O[t] and err_l <= 1e-4 * max(1.0, max(abs(r) for r in ref_l))
    return ok, f"max |O err| {err_o:.3g}, max |lse err| {err_l:.3g}"


def grads(Q, K, V, dO, Z, H, N, D, causal, scale):
    """O (float64), lse (base 2), Δ from O rounded to f16, and dQ, dK, dV."""
    n = Z * H * N * D
    O, dQ, dK, dV = [0.0] * n, [0.0] * n, [0.0] * n, [0.0] * n
    L, delta = [0.0] * (Z * H * N), [0.0] * (Z * H * N)
    for zh in range(Z * H):
        b = zh * N * D
        row = lambda X, i: X[b + i * D: b + (i + 1) * D]
        P = []
        for i in range(N):
            cols = range(i + 1) if causal else range(N)
            s = [scale * sum(x * y for x, y in zip(row(Q, i), row(K, j))) for j in cols]
            m = max(s)
            e = [math.exp(x - m) for x in s]
            l = sum(e)
            P.append([x / l for x in e] + [0.0] * (N - len(e)))
            L[zh * N + i] = (m + math.log(l)) * LOG2E
            for d in range(D):
                O[b + i * D + d] = sum(P[i][j] * V[b + j * D + d] for j in range(N))
        for i in range(N):
            o16 = [f16(O[b + i * D + d]) for d in range(D)]
            delta[zh * N + i] = sum(x * y for x, y in zip(o16, row(dO, i)))
            dp = [sum(x * y for x, y in zip(row(dO, i), row(V, j))) for j in range(N)]
            ds = [P[i][j] * (dp[j] - delta[zh * N + i]) for j in range(N)]
            for d in range(D):
                dQ[b + i * D + d] = scale * sum(ds[j] * K[b + j * D + d] for j in range(N))
            for j in range(N):
                for d in range(D):
                    dK[b + j * D + d] += scale * ds[j] * Q[b + i * D + d]
                    dV[b + j * D + d] += P[i][j] * dO[b + i * D + d]
    return O, L, delta, dQ, dK, dV


def run_kernel(kernel, defines, args, outs, tmp):
    cmd = [BLKC, "run", SAMPLE, "-k", kernel, "--threads", "2"]
    for name, value in defines.items():
        cmd += ["-D", f"{name}={value}"]
    for a in args:
        cmd += ["--arg", a]
    for name in outs:
        cmd += ["--out", f"{name}={os.path.join(tmp, name)}"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return f"{kernel}: blkc run failed ({p.returncode}): {p.stderr.strip()[:2000]}"
    return ""


def max_rel(got, ref):
    """Largest error over the largest reference value (NaN: infinite)."""
    scale = max(abs(r) for r in ref) or 1.0
    return max(abs(g - r) / scale if math.isfinite(g) else math.inf for g, r in zip(got, ref))


def check_backward(Z, H, N, D, causal, tiles, tmp):
    BM, BN = tiles
    rnd = random.Random(zlib.crc32(f"bwd {Z} {H} {N} {D} {causal} {tiles}".encode()))
    n = Z * H * N * D
    Q = [f16(rnd.uniform(-3, 3)) for _ in range(n)]
    K, V, dO = ([f16(rnd.uniform(-1, 1)) for _ in range(n)] for _ in range(3))
    scale = 1.0 / math.sqrt(D)
    O, L, delta, dQ, dK, dV = grads(Q, K, V, dO, Z, H, N, D, causal, scale)
    files = {"q": Q, "k": K, "v": V, "d_o": dO, "o": [f16(x) for x in O]}
    for name, vals in files.items():
        open(os.path.join(tmp, name + ".in"), "wb").write(pack("f16", vals))
    for name, vals in (("lse", L), ("delta", delta)):
        open(os.path.join(tmp, name + ".in"), "wb").write(struct.pack(f"<{len(vals)}f", *vals))
    src = lambda name, t="f16": f"{name}=file:{t}:{os.path.join(tmp, name + '.in')}"
    flag = "true" if causal else "false"
    common = [f"sm_scale={scale!r}", f"Z={Z}", f"H={H}", f"N_CTX={N}", f"head_dim={D}"]
    rows = Z * H * N
    why = run_kernel("attention_bwd_delta", {"BM": BM, "HEAD_DIM": D},
                     [src("o"), src("d_o"), f"delta=fill:f32:{rows}:nan"] + common[1:],
                     ["delta"], tmp)
    if why:
        return False, why
    data = open(os.path.join(tmp, "delta"), "rb").read()
    err_delta = max_rel(struct.unpack(f"<{rows}f", data), delta)
    tensors = [src("q"), src("k"), src("v"), src("d_o"), src("lse", "f32"), src("delta", "f32")]
    defines = {"BM": BM, "BN": BN, "HEAD_DIM": D, "CAUSAL": flag}
    why = run_kernel("attention_bwd_dkdv", defines, tensors + [f"dk=fill:f16:{n}:nan", f"dv=fill:f16:{n}:nan"]
                     + common + [f"causal={flag}"], ["dk", "dv"], tmp)
    if why:
        return False, why
    why = run_kernel("attention_bwd_dq", defines, tensors + [f"dq=fill:f16:{n}:nan"] + common
                     + [f"causal={flag}"], ["dq"], tmp)
    if why:
        return False, why
    got = {x: unpack_elems("f16", open(os.path.join(tmp, x), "rb").read()) for x in ("dq", "dk", "dv")}
    errs = {"dQ": max_rel(got["dq"], dQ), "dK": max_rel(got["dk"], dK), "dV": max_rel(got["dv"], dV)}
    # P and dS are rounded to f16 before their products, the results stored
    # as f16: about 1e-3 of the largest gradient (2e-2 allowed).
    ok = err_delta <= 1e-5 and all(e <= 2e-2 for e in errs.values())
    return ok, f"Δ {err_delta:.2g}, " + ", ".join(f"{k} {v:.2g}" for k, v in errs.items()) + " (of max |ref|)"


def main():
    cases = [
        # (type, Z, H, N, D, causal, (BM, BN), OVERLAP): the plain forward
        # and the overlapped one (P·V of the block before under this
        # block's softmax; the sample's D = 64 and warp-specialised
        # D = 128 configs).
        ("f16", 1, 2, 50, 16, False, (32, 16), False),
        ("f16", 1, 2, 50, 16, True, (32, 16), False),
        ("f16", 2, 1, 64, 32, True, (32, 16), False),
        ("f16", 1, 1, 40, 32, False, (16, 16), False),
        ("f16", 1, 1, 17, 16, True, (16, 16), False),
        ("bf16", 1, 2, 50, 16, False, (32, 16), False),
        ("bf16", 1, 1, 33, 32, True, (16, 16), False),
        ("f16", 1, 2, 50, 16, False, (32, 16), True),
        ("f16", 2, 1, 64, 32, True, (32, 16), True),
        ("bf16", 1, 1, 33, 32, True, (16, 16), True),
        # BN > BM under the causal mask (a row block's diagonal starts
        # inside a column block), in both forward forms.
        ("f16", 1, 2, 45, 16, True, (16, 32), False),
        ("f16", 1, 1, 40, 64, True, (16, 32), True),
        # Three heads: a variant's groups of two heads end in a smaller one.
        ("f16", 1, 3, 40, 16, True, (16, 16), True),
        # The overlapped form's edges: no whole column block (N < BN), and
        # exactly one (block 0 alone, then the tail).
        ("f16", 1, 2, 12, 16, False, (16, 16), True),
        ("f16", 1, 1, 20, 16, True, (32, 32), True),
        ("f16", 1, 2, 40, 16, False, (16, 32), True),
    ]
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for t, Z, H, N, D, causal, tiles, overlap in cases:
            ok, why = check(t, Z, H, N, D, causal, tiles, overlap, tmp)
            failed += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {KERNEL[t]} Z={Z} H={H} N={N} D={D} "
                  f"causal={int(causal)} BM,BN={tiles} overlap={int(overlap)}: {why}", flush=True)
        for Z, H, N, D, causal, tiles in [(1, 2, 40, 16, False, (16, 16)), (1, 1, 50, 16, True, (16, 16)),
                                          (2, 1, 33, 32, True, (32, 16)),
                                          (1, 3, 40, 16, True, (16, 16))]:
            ok, why = check_backward(Z, H, N, D, causal, tiles, tmp)
            failed += not ok
            print(f"{'ok  ' if ok else 'FAIL'} attention_bwd Z={Z} H={H} N={N} D={D} "
                  f"causal={int(causal)} BM,BN={tiles}: {why}", flush=True)
    print("all passed" if not failed else f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
