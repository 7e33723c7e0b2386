"""Checks every GEMM benchmark kernel on blk's CPU interpreter (`blkc run`),
no GPU needed: small ragged shapes, small tiles set with -D (several
programs, the grouped order and every mask exercised), results against a
float64 reference in pure Python (same error measure as gemm_bench.cpp).

  python3 bench/gemm/interp_check.py [path/to/blkc [KERNEL]]   (KERNEL: only that one)
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
KDIR = os.path.join(ROOT, "bench", "gemm", "kernels")
BLKC = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build", "bin", "blkc")
ONLY = sys.argv[2] if len(sys.argv) > 2 else None


def f16(x):
    return struct.unpack("<e", struct.pack("<e", x))[0]


def bf16_bits(x):
    u = struct.unpack("<I", struct.pack("<f", x))[0]
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) & 0xFFFF


def bf16(x):
    return struct.unpack("<f", struct.pack("<I", bf16_bits(x) << 16))[0]


def f32(x):
    return struct.unpack("<f", struct.pack("<f", x))[0]


def e4m3_value(b):
    """The value of an f8e4m3 code (OCP E4M3: bias 7, no infinities)."""
    sign = -1.0 if b & 0x80 else 1.0
    e, m = (b >> 3) & 15, b & 7
    if e == 15 and m == 7:
        return math.nan
    return sign * (m * 2.0 ** -9 if e == 0 else (8 + m) * 2.0 ** (e - 10))


E4M3_CODES = sorted((e4m3_value(b), b) for b in range(256) if not math.isnan(e4m3_value(b)))


def e4m3_bits(x):
    """Nearest code, ties to the even code, saturated to +-448 (as cvt.rn.satfinite)."""
    x = max(-448.0, min(448.0, x))
    best = min(E4M3_CODES, key=lambda vb: (abs(vb[0] - x), vb[1] & 1))
    return best[1]


def e4m3(x):
    return e4m3_value(e4m3_bits(x))


def pack(t, vals):
    if t == "f8e4m3":
        return bytes(e4m3_bits(v) for v in vals)
    if t == "i8":
        return struct.pack(f"<{len(vals)}b", *vals)
    if t == "f16":
        return struct.pack(f"<{len(vals)}e", *vals)
    if t == "bf16":
        return struct.pack(f"<{len(vals)}H", *[bf16_bits(v) for v in vals])
    return struct.pack(f"<{len(vals)}f", *vals)


def unpack(t, data):
    if t == "i32":
        return list(struct.unpack(f"<{len(data) // 4}i", data))
    n = len(data) // (4 if t == "f32" else 2)
    if t == "f16":
        return list(struct.unpack(f"<{n}e", data))
    if t == "bf16":
        return [struct.unpack("<f", struct.pack("<I", h << 16))[0] for h in struct.unpack(f"<{n}H", data)]
    return list(struct.unpack(f"<{n}f", data))


def gelu_tanh(x):
    return 0.5 * x * (1.0 + math.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


# (file, kernel, element type, B transposed, bias+gelu, tol_max, tol_l2): as gemm_bench.cpp
KERNELS = [
    ("gemm_f16", "matmul_f16", "f16", False, False, 4e-3, 2e-3),
    ("gemm_f16_persistent", "matmul_f16_persistent", "f16", False, False, 4e-3, 2e-3),
    ("gemm_bf16", "matmul_bf16", "bf16", False, False, 2e-2, 1e-2),
    ("gemm_nt", "matmul_nt_trans", "f16", True, False, 4e-3, 2e-3),
    ("gemm_nt", "matmul_nt_strides", "f16", True, False, 4e-3, 2e-3),
    ("gemm_tf32", "matmul_tf32", "f32", False, False, 1e-2, 5e-3),
    ("gemm_tf32", "matmul_tf32x3", "f32", False, False, 1e-4, 5e-5),
    ("gemm_gelu", "matmul_bias_gelu", "f16", False, True, 4e-3, 2e-3),
    ("gemm_i8", "matmul_i8_nt", "i8", True, False, 0, 0),
    ("gemm_fp8", "matmul_fp8", "f8e4m3", True, False, 2e-2, 5e-3),
]
ROUND = {"f16": f16, "bf16": bf16, "f32": f32, "i8": lambda x: round(x * 8), "f8e4m3": e4m3}
OUT = {"i8": "i32", "f8e4m3": "f16"}  # the output's element type where it is not the inputs'
POISON = -2**31      # an i32 output's "not written" (|a|, |b| <= 8 cannot reach it)


def check(file, kernel, t, bt, gelu, tol_max, tol_l2, M, N, K, tiles, tmp):
    rnd = random.Random(zlib.crc32(f"{kernel} {M} {N} {K}".encode()))
    r = ROUND[t]
    bs = 3.0 / math.sqrt(K) if gelu else 1.0
    A = [r(rnd.uniform(-1, 1)) for _ in range(M * K)]
    B = [r(rnd.uniform(-bs, bs)) for _ in range(K * N)]   # [K, N], or [N, K] if bt
    bias = [f16(rnd.uniform(-1, 1)) for _ in range(N)]
    paths = {n: os.path.join(tmp, n) for n in ("a", "b", "bias", "c")}
    open(paths["a"], "wb").write(pack(t, A))
    open(paths["b"], "wb").write(pack(t, B))
    open(paths["bias"], "wb").write(pack("f16", bias))
    BM, BN, BK, G = tiles
    out_t = OUT.get(t, t)
    args = ["--arg", f"a=file:{t}:{paths['a']}", "--arg", f"b=file:{t}:{paths['b']}",
            "--arg", f"c=fill:{out_t}:{M * N}:{POISON if out_t == 'i32' else 'nan'}"]
    if gelu:
        args += ["--arg", f"bias=file:f16:{paths['bias']}"]
    # The tutorial's six strides; B^T handed over as the view of a row-major [N, K].
    sbk, sbn = (1, K) if bt else (N, 1)
    args += ["--arg", f"M={M}", "--arg", f"N={N}", "--arg", f"K={K}", "--arg", f"stride_am={K}",
             "--arg", "stride_ak=1", "--arg", f"stride_bk={sbk}", "--arg", f"stride_bn={sbn}",
             "--arg", f"stride_cm={N}", "--arg", "stride_cn=1"]
    cmd = [BLKC, "run", os.path.join(KDIR, file + ".blk"), "-I", os.path.join(ROOT, "stdlib"), "-k", kernel,
           "-D", f"BM={BM}", "-D", f"BN={BN}", "-D", f"BK={BK}", "-D", f"GROUP_M={G}",
           "--threads", "2", "--out", f"c={paths['c']}"] + args
    if kernel.endswith("_persistent"):
        cmd += ["-D", "NUM_SMS=3"]  # fewer programs than tiles: each walks several
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        return False, f"blkc run failed ({p.returncode}): {p.stderr.strip()[:2000]}"
    got = unpack(out_t, open(paths["c"], "rb").read())
    worst, num, den = 0.0, 0.0, 0.0
    for i in range(M):
        for j in range(N):
            ps = [A[i * K + k] * (B[j * K + k] if bt else B[k * N + j]) for k in range(K)]
            ref = sum(ps)
            if gelu:
                ref = gelu_tanh(ref + bias[j])
            g = got[i * N + j]
            if not math.isfinite(g) or g == POISON:
                return False, f"C[{i}][{j}] = {g} (not written?)"
            worst = max(worst, abs(g - ref) / (math.sqrt(sum(x * x for x in ps)) + abs(ref)))
            num += (g - ref) ** 2
            den += ref ** 2
    l2 = math.sqrt(num / den) if den else math.sqrt(num)
    return worst <= tol_max and l2 <= tol_l2, f"max err {worst:.3g} rel L2 {l2:.3g}"


def main():
    shapes = [(40, 48, 80), (16, 32, 48), (33, 80, 16)]
    tiles = [(16, 16, 32, 2), (32, 16, 16, 8)]
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for file, kernel, t, bt, gelu, tm, tl2 in KERNELS:
            if ONLY and kernel != ONLY:
                continue
            for (M, N, K) in shapes:
                for tl in tiles:
                    ok, why = check(file, kernel, t, bt, gelu, tm, tl2, M, N, K, tl, tmp)
                    failed += not ok
                    print(f"{'ok  ' if ok else 'FAIL'} {kernel:18s} {M}x{N}x{K} BM,BN,BK,G={tl}: {why}", flush=True)
    print(f"{'all passed' if not failed else f'{failed} failed'}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
