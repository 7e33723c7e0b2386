"""Checks samples/attention.blk on blk's CPU interpreter (`blkc run`), no GPU
needed: small ragged sequence lengths, small tiles set with -D (several
programs, both loop phases, every mask), causal and not, f16 and bf16; O
and the per-row log-sum-exp against a float64 softmax(Q·Kᵀ·scale)·V
computed in pure Python.

  python3 bench/attention/interp_check.py [path/to/blkc]
"""
import math
import os
import random
import struct
import subprocess
import sys
import tempfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SAMPLE = os.path.join(ROOT, "samples", "attention.blk")
BLKC = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "bin", "blkc")
LOG2E = 1.0 / math.log(2.0)


def f16(x):
    return struct.unpack("<e", struct.pack("<e", x))[0]


def bf16_bits(x):
    u = struct.unpack("<I", struct.pack("<f", x))[0]
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) & 0xFFFF


def bf16(x):
    return struct.unpack("<f", struct.pack("<I", bf16_bits(x) << 16))[0]


ROUND = {"f16": f16, "bf16": bf16}
KERNEL = {"f16": "attention_fwd", "bf16": "attention_fwd_bf16"}
TOL_O = {"f16": 2e-3, "bf16": 1.6e-2}  # P is rounded to the input type before P·V


def pack(t, vals):
    if t == "bf16":
        return struct.pack(f"<{len(vals)}H", *[bf16_bits(v) for v in vals])
    return struct.pack(f"<{len(vals)}e", *vals)


def unpack_elems(t, data):
    if t == "bf16":
        return [struct.unpack("<f", struct.pack("<I", h << 16))[0]
                for h in struct.unpack(f"<{len(data) // 2}H", data)]
    return list(struct.unpack(f"<{len(data) // 2}e", data))


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


def check(t, Z, H, N, D, causal, tiles, tmp):
    BM, BN = tiles
    r = ROUND[t]
    rnd = random.Random(zlib.crc32(f"{t} {Z} {H} {N} {D} {causal} {tiles}".encode()))
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


def main():
    cases = [
        # (type, Z, H, N, D, causal, (BM, BN))
        ("f16", 1, 2, 50, 16, False, (32, 16)),
        ("f16", 1, 2, 50, 16, True, (32, 16)),
        ("f16", 2, 1, 64, 32, True, (32, 16)),
        ("f16", 1, 1, 40, 32, False, (16, 16)),
        ("f16", 1, 1, 17, 16, True, (16, 16)),
        ("bf16", 1, 2, 50, 16, False, (32, 16)),
        ("bf16", 1, 1, 33, 32, True, (16, 16)),
    ]
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for t, Z, H, N, D, causal, tiles in cases:
            ok, why = check(t, Z, H, N, D, causal, tiles, tmp)
            failed += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {KERNEL[t]} Z={Z} H={H} N={N} D={D} "
                  f"causal={int(causal)} BM,BN={tiles}: {why}", flush=True)
    print("all passed" if not failed else f"{failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
