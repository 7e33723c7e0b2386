"""Triton 3.6 and cuBLAS (PyTorch) side of the GEMM benchmark (issue 14).

`python3 bench/gemm/gemm_ref.py BLK_JSON OUT_DIR MODE FATBIN_DIR [SASS_COUNTS]`
runs the shapes of cases.txt whose set is MODE, in the same process for
Triton and cuBLAS: random inputs (fixed seed, never zeros), for every
Triton config of the matmul tutorial's CUDA autotune list (best kept, as
its autotuner would) and for torch.matmul: output poisoned with NaN, one
launch, the whole output checked against a float64 product computed on the
GPU (same error measure and tolerances as gemm_bench.cpp), then timed the
way triton.testing.do_bench times (25 ms warm-up, ~100 ms of launches each
after a 256 MB L2 flush, events around the launch, median; 10 to 100
launches, the same rule as gemm_bench.cpp). It merges blk's figures
(BLK_JSON from gemm-bench), the registers / spills / shared memory of each
blk entry (FATBIN_DIR/inspect/*.txt from build_gemm_fatbins.sh) and the SASS
instruction counts (SASS_COUNTS from run_gemm_on_device.sh), prints the
tables and writes OUT_DIR/table.md and OUT_DIR/results.json.

The Triton kernel below is written here in the tutorial's style (grouped
order, `% M` / `% N` wrap, K masks, f32 accumulator, the epilogue fused);
`a @ b.T` hands it B^T through its strides, as the tutorial does for fp8.
"""
import glob
import json
import math
import os
import re
import statistics
import sys
import time

import torch
import triton
import triton.language as tl

# do_bench's defaults; BLK_BENCH_WARMUP_MS lengthens the warm-up as it does
# for the C++ side (bench/common/DoBench.h says why).
WARMUP_MS, REP_MS, MIN_RUNS, MAX_RUNS = float(os.environ.get("BLK_BENCH_WARMUP_MS") or 25.0), 100.0, 10, 100
HERE = os.path.dirname(os.path.abspath(__file__))


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, bias_ptr, M, N, K,
                  stride_am, stride_ak, stride_bk, stride_bn, stride_cm, stride_cn,
                  BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr,
                  BLOCK_SIZE_K: tl.constexpr, GROUP_SIZE_M: tl.constexpr,
                  ACTIVATION: tl.constexpr):
    # Grouped program order: GROUP_SIZE_M rows of tiles, column by column.
    pid = tl.program_id(axis=0)
    num_pid_m = tl.cdiv(M, BLOCK_SIZE_M)
    num_pid_n = tl.cdiv(N, BLOCK_SIZE_N)
    num_pid_in_group = GROUP_SIZE_M * num_pid_n
    group_id = pid // num_pid_in_group
    first_pid_m = group_id * GROUP_SIZE_M
    group_size_m = min(num_pid_m - first_pid_m, GROUP_SIZE_M)
    pid_m = first_pid_m + ((pid % num_pid_in_group) % group_size_m)
    pid_n = (pid % num_pid_in_group) // group_size_m
    tl.assume(pid_m >= 0)
    tl.assume(pid_n >= 0)
    tl.assume(stride_am > 0)
    tl.assume(stride_ak > 0)
    tl.assume(stride_bn > 0)
    tl.assume(stride_bk > 0)
    tl.assume(stride_cm > 0)
    tl.assume(stride_cn > 0)

    offs_am = (pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)) % M
    offs_bn = (pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)) % N
    offs_k = tl.arange(0, BLOCK_SIZE_K)
    a_ptrs = a_ptr + (offs_am[:, None] * stride_am + offs_k[None, :] * stride_ak)
    b_ptrs = b_ptr + (offs_k[:, None] * stride_bk + offs_bn[None, :] * stride_bn)
    accumulator = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BLOCK_SIZE_K)):
        a = tl.load(a_ptrs, mask=offs_k[None, :] < K - k * BLOCK_SIZE_K, other=0.0)
        b = tl.load(b_ptrs, mask=offs_k[:, None] < K - k * BLOCK_SIZE_K, other=0.0)
        accumulator = tl.dot(a, b, accumulator)
        a_ptrs += BLOCK_SIZE_K * stride_ak
        b_ptrs += BLOCK_SIZE_K * stride_bk

    offs_cm = pid_m * BLOCK_SIZE_M + tl.arange(0, BLOCK_SIZE_M)
    offs_cn = pid_n * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    if ACTIVATION == "bias_gelu":
        # gelu, tanh form: 0.5 x (1 + tanh(u)) = x * sigmoid(2 u).
        bias = tl.load(bias_ptr + offs_cn, mask=offs_cn < N, other=0.0).to(tl.float32)
        x = accumulator + bias[None, :]
        u = 0.7978845608028654 * (x + 0.044715 * x * x * x)
        accumulator = x * tl.sigmoid(2.0 * u)
    c = accumulator.to(c_ptr.dtype.element_ty)
    c_ptrs = c_ptr + stride_cm * offs_cm[:, None] + stride_cn * offs_cn[None, :]
    c_mask = (offs_cm[:, None] < M) & (offs_cn[None, :] < N)
    tl.store(c_ptrs, c, mask=c_mask)


# The tutorial's CUDA autotune list: (BM, BN, BK, GROUP_M, num_stages, num_warps).
TRITON_CONFIGS = [
    (128, 256, 64, 8, 3, 8), (64, 256, 32, 8, 4, 4), (128, 128, 32, 8, 4, 4),
    (128, 64, 32, 8, 4, 4), (64, 128, 32, 8, 4, 4), (128, 32, 32, 8, 4, 4),
    (64, 32, 32, 8, 5, 2), (32, 64, 32, 8, 5, 2),
    (128, 256, 128, 8, 3, 8), (256, 128, 128, 8, 3, 8), (256, 64, 128, 8, 4, 4),
    (64, 256, 128, 8, 4, 4), (128, 128, 128, 8, 4, 4), (128, 64, 64, 8, 4, 4),
    (64, 128, 64, 8, 4, 4), (128, 32, 64, 8, 4, 4),
]
# Quick mode, small ragged shapes: two configs only (compile time).
TRITON_SMALL = [TRITON_CONFIGS[0], TRITON_CONFIGS[4]]

# case -> (torch dtype, B transposed, bias + gelu, tol_max, tol_l2): as gemm_bench.cpp
KINDS = {
    "f16": (torch.float16, False, False, 4e-3, 2e-3),
    "bf16": (torch.bfloat16, False, False, 2e-2, 1e-2),
    "f16_nt": (torch.float16, True, False, 4e-3, 2e-3),
    "tf32": (torch.float32, False, False, 1e-2, 5e-3),
    "f16_gelu": (torch.float16, False, True, 4e-3, 2e-3),
    # fp8 e4m3, B handed over as B^T (the tutorial's fp8 case), fp16 out.
    "fp8": (torch.float8_e4m3fn, True, False, 2e-2, 5e-3),
}
OUT_DTYPE = {"fp8": torch.float16}  # where the output is not the inputs' type
TITLES = {
    "f16": "fp16 A·B (row-major)", "bf16": "bf16 A·B (row-major)",
    "f16_nt": "fp16 A·Bᵀ (B [N,K])", "tf32": "tf32 (f32 in/out)",
    "f16_gelu": "fp16 gelu_tanh(A·B + bias)",
    "i8_nt": "i8 A·Bᵀ (i32 acc, blk only)",
    "tf32x3": "tf32x3 (f32 in/out, blk only)",
    "fp8": "fp8 e4m3 A·B (B as Bᵀ, f16 out)",
}

FLUSH = None


def bench_ms(fn):
    """do_bench's method; returns (median ms, launches timed)."""
    est = []
    for _ in range(3):
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        FLUSH.zero_()
        s.record()
        fn()
        e.record()
        torch.cuda.synchronize()
        est.append(s.elapsed_time(e))
    t = max(statistics.median(est), 1e-3)
    warm = max(int(WARMUP_MS / t), 1)  # do_bench caps only the timed runs
    runs = min(max(int(REP_MS / t), MIN_RUNS), MAX_RUNS)
    for _ in range(warm):
        fn()
    ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(runs)]
    for s, e in ev:
        FLUSH.zero_()
        s.record()
        fn()
        e.record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in ev), runs


def read_cases(mode):
    out = []
    for line in open(os.path.join(HERE, "cases.txt")):
        f = line.split()
        if f and f[0] == mode:
            out.append((f[1], int(f[2]), int(f[3]), int(f[4])))
    return out


def gelu_tanh(x):
    return 0.5 * x * (1.0 + torch.tanh(0.7978845608028654 * (x + 0.044715 * x ** 3)))


class Checker:
    """Float64 reference on the GPU; error per element |got - ref| /
    (sqrt(sum_k (a_ik b_kj)^2) + |ref|), and ||got - ref|| / ||ref||."""

    def __init__(self, a, b_kn, bias, gelu, tol_max, tol_l2):
        ad, bd = a.double(), b_kn.double()
        ref = ad @ bd
        scale = torch.sqrt((ad * ad) @ (bd * bd))
        del ad, bd
        if gelu:
            ref = gelu_tanh(ref + bias.double()[None, :])
        self.ref, self.denom = ref, scale + ref.abs()
        self.ref_norm = ref.norm().item()
        self.tol_max, self.tol_l2 = tol_max, tol_l2

    def __call__(self, got):
        g = got.double()
        bad = (~torch.isfinite(g)).sum().item()
        if bad:
            return False, math.inf, math.inf, f"{bad} of {g.numel()} elements not finite (unwritten or NaN)"
        d = g - self.ref
        max_err = (d.abs() / self.denom).max().item()
        rel_l2 = d.norm().item() / self.ref_norm
        ok = max_err <= self.tol_max and rel_l2 <= self.tol_l2
        why = "" if ok else f"max err {max_err:.3g} (tol {self.tol_max:g}), rel L2 {rel_l2:.3g} (tol {self.tol_l2:g})"
        return ok, max_err, rel_l2, why


def run_one(label, launch, out, poison, check, flops, extra=None):
    """Poison, launch once, check, time. Returns a record."""
    rec = {"config": label, "ok": False, "ms": None, "tflops": None, "runs": 0,
           "max_err": None, "rel_l2": None, "error": ""}
    try:
        poison()
        res = launch()
        torch.cuda.synchronize()
        if extra:
            rec.update(extra(res))
        ok, max_err, rel_l2, why = check(out())
        rec.update(ok=ok, max_err=max_err if math.isfinite(max_err) else None,
                   rel_l2=rel_l2 if math.isfinite(rel_l2) else None, error=why)
        if ok:
            ms, runs = bench_ms(launch)
            rec.update(ms=ms, runs=runs, tflops=flops / (ms * 1e-3) * 1e-12)
    except Exception as e:  # out of resources, compile errors: recorded
        rec["error"] = f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}"[:300]
    print(f"    {label:44s} {'ok  ' if rec['ok'] else 'FAIL'} "
          f"{rec['ms'] or 0:9.4f} ms {rec['tflops'] or 0:7.1f} TFLOP/s runs {rec['runs']:3d} {rec['error']}",
          flush=True)
    return rec


def triton_resources(ck):
    out = {}
    for key, attr in (("regs", "n_regs"), ("spills", "n_spills")):
        try:
            out[key] = int(getattr(ck, attr))
        except Exception:
            pass
    try:
        out["shared"] = int(ck.metadata.shared)
    except Exception:
        pass
    return out


def run_shape(kind, M, N, K, mode):
    if kind not in KINDS:  # a blk-only case (i8): nothing to compare with here
        print(f"== {kind} {M}x{N}x{K}: no Triton/cuBLAS reference", flush=True)
        return {"case": kind, "shape": f"{M}x{N}x{K}", "M": M, "N": N, "K": K, "triton": [], "cublas": []}
    dtype, bt, gelu, tol_max, tol_l2 = KINDS[kind]
    g = torch.Generator(device="cuda").manual_seed(1234 + M + N + K)
    bs = 3.0 / math.sqrt(K) if gelu else 1.0
    a = ((torch.rand(M, K, generator=g, device="cuda") * 2 - 1)).to(dtype)
    if bt:
        b_nk = ((torch.rand(N, K, generator=g, device="cuda") * 2 - 1)).to(dtype)
        b = b_nk.T  # [K, N] view, strides (1, K)
    else:
        b = ((torch.rand(K, N, generator=g, device="cuda") * 2 - 1) * bs).to(dtype)
    bias = (torch.rand(N, generator=g, device="cuda") * 2 - 1).half()
    c = torch.empty(M, N, device="cuda", dtype=OUT_DTYPE.get(kind, dtype))
    check = Checker(a, b, bias, gelu, tol_max, tol_l2)
    flops = 2.0 * M * N * K
    poison = lambda: c.fill_(float("nan"))
    res = {"case": kind, "shape": f"{M}x{N}x{K}", "M": M, "N": N, "K": K, "triton": [], "cublas": []}

    print(f"== {kind} {M}x{N}x{K}: Triton", flush=True)
    t0 = time.time()
    small = mode == "quick" and M * N * K < 2**30
    for (bm, bn, bk, gm, ns, nw) in (TRITON_SMALL if small else TRITON_CONFIGS):
        label = f"BM={bm} BN={bn} BK={bk} GROUP_M={gm} num_warps={nw} num_stages={ns}"
        grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)

        def launch(bm=bm, bn=bn, bk=bk, gm=gm, ns=ns, nw=nw, grid=grid):
            return matmul_kernel[grid](a, b, c, bias, M, N, K, a.stride(0), a.stride(1),
                                       b.stride(0), b.stride(1), c.stride(0), c.stride(1),
                                       BLOCK_SIZE_M=bm, BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk,
                                       GROUP_SIZE_M=gm, ACTIVATION="bias_gelu" if gelu else "",
                                       num_stages=ns, num_warps=nw)
        res["triton"].append(run_one(label, launch, lambda: c, poison, check, flops, triton_resources))
    res["triton_s"] = time.time() - t0

    print(f"== {kind} {M}x{N}x{K}: cuBLAS (torch)", flush=True)
    tf32_before = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = kind == "tf32"
    try:
        if gelu:
            holder = [c]
            fused = run_one("torch._addmm_activation(use_gelu) (cuBLASLt GELU_BIAS epilogue)",
                            lambda: holder.__setitem__(0, torch._addmm_activation(bias, a, b, use_gelu=True)),
                            lambda: holder[0], poison, check, flops)
            res["cublas"].append(fused)
            holder2 = [c]
            res["cublas"].append(run_one(
                "torch.addmm + gelu(approximate=tanh) (unfused)",
                lambda: holder2.__setitem__(0, torch.nn.functional.gelu(torch.addmm(bias, a, b), approximate="tanh")),
                lambda: holder2[0], poison, check, flops))
        elif kind == "fp8":
            # cuBLASLt's fp8 GEMM; fast accumulation is what blk's wgmma loop does.
            one = torch.ones((), device="cuda", dtype=torch.float32)
            for fast in (True, False):  # the first is the table's: like for like
                holder = [c]
                res["cublas"].append(run_one(
                    f"torch._scaled_mm(use_fast_accum={fast})",
                    lambda fast=fast, holder=holder: holder.__setitem__(0, torch._scaled_mm(
                        a, b, scale_a=one, scale_b=one, out_dtype=torch.float16, use_fast_accum=fast)),
                    lambda holder=holder: holder[0], poison, check, flops))
        else:
            res["cublas"].append(run_one("torch.matmul" + (" (allow_tf32)" if kind == "tf32" else ""),
                                         lambda: torch.matmul(a, b, out=c), lambda: c, poison, check, flops))
    finally:
        torch.backends.cuda.matmul.allow_tf32 = tf32_before
    del check, a, b, c
    torch.cuda.empty_cache()
    return res


def parse_inspect(fatbin_dir):
    """entry -> {regs, spill_st, spill_ld, stack, smem} from blkc inspect."""
    out = {}
    for path in glob.glob(os.path.join(fatbin_dir, "inspect", "*.txt")):
        entry, smem = None, 0
        for line in open(path):
            m = re.match(r"\s*specialization (\S+)", line)
            if m:
                entry = m.group(1)
                continue
            m = re.match(r"\s*shared memory: (\d+) B static, (\d+) B dynamic", line)
            if m and entry:
                smem = int(m.group(1)) + int(m.group(2))
                continue
            m = re.match(r"\s*sm_90a?: (\d+) registers, (\d+) B spill stores, (\d+) B spill loads, (\d+) B stack", line)
            if m and entry and entry not in out:
                out[entry] = {"regs": int(m.group(1)), "spill_st": int(m.group(2)),
                              "spill_ld": int(m.group(3)), "stack": int(m.group(4)), "smem": smem}
    return out


def parse_sass(path):
    out = {}
    if path and os.path.exists(path):
        for line in open(path):
            f = line.split()
            if f:
                out[f[0]] = " ".join(f[1:])
    return out


def best(recs):
    ok = [r for r in recs if r.get("ok") and r.get("tflops")]
    return max(ok, key=lambda r: r["tflops"]) if ok else None


def ratio(x, y):
    return f"{x / y:.2f}x" if x and y else "-"


def tables(res, blk, inspect, sass, cases):
    rows = ["| case | shape (M×N×K) | blk TFLOP/s | Triton TFLOP/s | cuBLAS TFLOP/s | blk/Triton | blk/cuBLAS "
            "| blk best config | Triton best config |",
            "|---|---|---|---|---|---|---|---|---|"]
    for (kind, M, N, K) in cases:
        shape = f"{M}x{N}x{K}"
        r = next((x for x in res if x["case"] == kind and x["shape"] == shape), None)
        bb = best([b for b in blk if b.get("case") == kind and b.get("shape") == shape])
        tb = best(r["triton"]) if r else None
        cb = r["cublas"][0] if r and r["cublas"] and r["cublas"][0]["ok"] else (best(r["cublas"]) if r else None)
        bt_, tt, ct = (x["tflops"] if x else None for x in (bb, tb, cb))
        # A blk-only case (not in KINDS) has no Triton or cuBLAS run.
        ran = kind in KINDS
        fmt = lambda v, ran=True: f"{v:.1f}" if v else ("FAILED" if ran else "not run")
        bcfg = f"{bb['kernel']} {bb['config']}" if bb else "-"
        tcfg = tb["config"] if tb else "-"
        rows.append(f"| {TITLES[kind]} | {shape} | {fmt(bt_)} | {fmt(tt, ran)} | {fmt(ct, ran)} | {ratio(bt_, tt)} "
                    f"| {ratio(bt_, ct)} | {bcfg} | {tcfg} |")
    gelu_rows = [x for x in res if x["case"] == "f16_gelu" and x["cublas"]]
    if gelu_rows:
        rows.append("\ncuBLAS for bias + GELU: " + "; ".join(
            f"{c['config']}: {c['tflops']:.1f} TFLOP/s" if c["ok"] else f"{c['config']}: FAILED {c['error']}"
            for c in gelu_rows[0]["cublas"]) + " (the first one, if it passed, is the table's).")

    per = ["| case | shape | blk kernel | config | TFLOP/s | regs | spill st/ld B | stack B | smem B | SASS (static instruction counts) | status |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]
    for b in blk:
        i = inspect.get(b.get("entry", ""), {})
        st = "ok" if b.get("ok") else f"FAIL: {b.get('error', '')}"[:160]
        tf = f"{b['tflops']:.1f}" if b.get("tflops") else "-"
        per.append(f"| {b.get('case')} | {b.get('shape')} | {b.get('kernel')} | {b.get('config')} | {tf} "
                   f"| {i.get('regs', '?')} | {i.get('spill_st', '?')}/{i.get('spill_ld', '?')} | {i.get('stack', '?')} "
                   f"| {i.get('smem', '?')} | {sass.get(b.get('entry', ''), '?')} | {st} |")
    tper = ["| case | shape | Triton config | TFLOP/s | regs | spills | smem B | status |",
            "|---|---|---|---|---|---|---|---|"]
    for r in res:
        for t in r["triton"]:
            st = "ok" if t["ok"] else f"FAIL: {t['error']}"[:160]
            tf = f"{t['tflops']:.1f}" if t.get("tflops") else "-"
            tper.append(f"| {r['case']} | {r['shape']} | {t['config']} | {tf} | {t.get('regs', '?')} "
                        f"| {t.get('spills', '?')} | {t.get('shared', '?')} | {st} |")
    return "\n".join(rows), "\n".join(per), "\n".join(tper)


def main():
    global FLUSH
    blk_json, out_dir, mode, fatbin_dir = sys.argv[1:5]
    sass = parse_sass(sys.argv[5] if len(sys.argv) > 5 else None)
    blk = json.load(open(blk_json)) if os.path.exists(blk_json) else []
    FLUSH = torch.empty(256 * 2**20 // 4, dtype=torch.int32, device="cuda")
    cases = read_cases(mode)
    print(f"torch {torch.__version__}, triton {triton.__version__}, {torch.cuda.get_device_name()}", flush=True)
    res = []
    for (kind, M, N, K) in cases:
        res.append(run_shape(kind, M, N, K, mode))
        json.dump({"mode": mode, "triton_cublas": res, "blk": blk},
                  open(os.path.join(out_dir, "results.json"), "w"), indent=1)
    inspect = parse_inspect(fatbin_dir)
    main_t, per_t, tper_t = tables(res, blk, inspect, sass, cases)
    text = (f"# GEMM benchmark ({mode}), {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
            f"{torch.cuda.get_device_name()}, torch {torch.__version__}, triton {triton.__version__}\n\n"
            "TFLOP/s = 2·M·N·K / median time; do_bench's method (256 MB L2 flush before each launch, "
            "events around the launch); every output checked against float64 first.\n\n"
            f"{main_t}\n\n## blk, per config\n\n{per_t}\n\n## Triton, per config\n\n{tper_t}\n")
    open(os.path.join(out_dir, "table.md"), "w").write(text)
    print()
    print(tper_t)
    print()
    print(per_t)
    print()
    print(main_t)
    failed = [t for r in res for t in r["cublas"][:1] if not t["ok"]]
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
