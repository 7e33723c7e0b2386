"""Triton 3.6 and PyTorch references for the blk device benchmark (issue 8).

`python3 bench/triton_ref.py BLK_JSON OUT_DIR` times the same seven kernels
in Triton (each over a few configs, best kept, as blk's specialisations are)
and in PyTorch, plus a device-to-device copy, on fresh random inputs checked
against a float64 reference, then merges blk's figures (BLK_JSON, written by
blk-bench) and prints the table. Timing: CUDA events around each launch,
WARMUP launches first, median of RUNS. GB/s counts bytes that must move.
"""
import json
import os
import statistics
import sys

import torch
import triton
import triton.language as tl

WARMUP, RUNS = 20, 200


@triton.jit
def double_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    tl.store(out_ptr + offs, x * 2.0, mask=mask)


@triton.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


@triton.jit
def sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr, NUM_CHUNKS: tl.constexpr):
    base = tl.program_id(0) * (BLOCK * NUM_CHUNKS)
    acc = tl.zeros([BLOCK], tl.float32)
    for c in range(NUM_CHUNKS):
        offs = base + c * BLOCK + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + offs, mask=offs < n, other=0.0)
    tl.atomic_add(out_ptr, tl.sum(acc, axis=0))


@triton.jit
def transpose_kernel(x_ptr, out_ptr, M, N, sxm, sxn, som, son,
                     BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    tile = tl.load(x_ptr + rows[:, None] * sxm + cols[None, :] * sxn, mask=mask, other=0.0)
    tl.store(out_ptr + cols[None, :] * som + rows[:, None] * son, tile, mask=mask)


@triton.jit
def copy_strided_kernel(x_ptr, out_ptr, M, N, stride_row, stride_col,
                        BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    rows = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    cols = tl.program_id(1) * BLOCK_N + tl.arange(0, BLOCK_N)
    mask = (rows[:, None] < M) & (cols[None, :] < N)
    v = tl.load(x_ptr + rows[:, None] * stride_row + cols[None, :] * stride_col, mask=mask, other=0.0)
    tl.store(out_ptr + rows[:, None] * N + cols[None, :], v, mask=mask)


@triton.jit
def softmax_kernel(out_ptr, in_ptr, in_stride, out_stride, n_rows, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * in_stride + cols, mask=mask, other=-float("inf"))
    num = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * out_stride + cols, num / tl.sum(num, axis=0), mask=mask)


@triton.jit
def layernorm_kernel(x_ptr, y_ptr, w_ptr, b_ptr, mean_ptr, rstd_ptr, stride, N, eps,
                     BLOCK: tl.constexpr):
    # The Triton tutorial's _layer_norm_fwd_fused.
    row = tl.program_id(0)
    y_ptr += row * stride
    x_ptr += row * stride
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        acc += tl.load(x_ptr + cols, mask=cols < N, other=0.).to(tl.float32)
    mean = tl.sum(acc, axis=0) / N
    acc = tl.zeros([BLOCK], dtype=tl.float32)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        x = tl.load(x_ptr + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        acc += x * x
    rstd = 1 / tl.sqrt(tl.sum(acc, axis=0) / N + eps)
    tl.store(mean_ptr + row, mean)
    tl.store(rstd_ptr + row, rstd)
    for off in range(0, N, BLOCK):
        cols = off + tl.arange(0, BLOCK)
        mask = cols < N
        w = tl.load(w_ptr + cols, mask=mask)
        b = tl.load(b_ptr + cols, mask=mask)
        x = tl.load(x_ptr + cols, mask=mask, other=0.).to(tl.float32)
        tl.store(y_ptr + cols, ((x - mean) * rstd * w + b).to(tl.float16), mask=mask)


def median_ms(fn):
    for _ in range(WARMUP):
        fn()
    torch.cuda.synchronize()
    ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(RUNS)]
    for s, e in ev:
        s.record()
        fn()
        e.record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in ev)


def rel_err(got, ref):
    got = got.double()
    if not torch.isfinite(got).all():
        return float("inf")
    return ((got - ref).norm() / ref.norm()).item()


def best(cases, check, tol):
    """cases: [(label, fn)]; fn runs the kernel once. Check each, time each."""
    out = []
    for label, fn, poison in cases:
        poison()
        fn()
        torch.cuda.synchronize()
        err = check()
        ok = err <= tol
        ms = median_ms(fn) if ok else 0.0
        out.append({"config": label, "ok": ok, "err": err, "ms": ms})
        print(f"    {label:40s} {'ok  ' if ok else 'FAIL'} {ms:8.4f} ms err {err:.3g}", flush=True)
    return out


def run_all():
    g = torch.Generator(device="cuda").manual_seed(1234)
    res = {}

    def rand(*shape, lo=-10.0, hi=10.0, dtype=torch.float32):
        return (torch.rand(*shape, generator=g, device="cuda") * (hi - lo) + lo).to(dtype)

    def record(name, size, nbytes, triton_cases, torch_fn, check_out, ref, tol, poison):
        print(f"== {name}", flush=True)
        tr = best(triton_cases, lambda: rel_err(check_out(), ref), tol)
        tp = best([("torch", torch_fn, poison)], lambda: rel_err(check_out(), ref), tol)
        res[name] = {"size": size, "bytes": nbytes, "triton": tr, "torch": tp}

    # double, masked
    n = 2**28 - 3
    x = rand(n)
    out = torch.empty_like(x)
    pz = lambda: out.fill_(float("nan"))
    ref = x.double() * 2
    cases = [(f"BLOCK={b} num_warps={w}", (lambda b=b, w=w: double_kernel[(triton.cdiv(n, b),)](x, out, n, BLOCK=b, num_warps=w)), pz)
             for b, w in [(1024, 4), (2048, 4), (4096, 8)]]
    record("double", "2^28-3 f32", 8 * n, cases, lambda: torch.mul(x, 2.0, out=out), lambda: out, ref, 0.0, pz)
    del x, out, ref
    # vector add
    n = 2**28
    x, y = rand(n), rand(n)
    out = torch.empty_like(x)
    pz = lambda: out.fill_(float("nan"))
    ref = (x + y).double()  # exact f32 add
    cases = [(f"BLOCK={b} num_warps={w}", (lambda b=b, w=w: add_kernel[(triton.cdiv(n, b),)](x, y, out, n, BLOCK=b, num_warps=w)), pz)
             for b, w in [(1024, 4), (2048, 4), (4096, 8)]]
    record("vector_add", "2^28 f32", 12 * n, cases, lambda: torch.add(x, y, out=out), lambda: out, ref, 0.0, pz)
    del x, y, out, ref
    # sum, one atomic per program
    x = rand(n, lo=0.0, hi=1.0)
    acc = torch.zeros(1, device="cuda")
    tsum = [None]
    ref = x.double().sum().reshape(1)
    pz = lambda: acc.zero_()
    cases = [(f"BLOCK={b} NUM_CHUNKS={c} num_warps={w}",
              (lambda b=b, c=c, w=w: sum_kernel[(triton.cdiv(n, b * c),)](x, acc, n, BLOCK=b, NUM_CHUNKS=c, num_warps=w)), pz)
             for b, c, w in [(4096, 8, 8), (2048, 16, 8), (2048, 8, 4)]]
    print("== sum", flush=True)
    tr = best(cases, lambda: rel_err(acc, ref), 1e-5)
    tp = best([("torch", lambda: tsum.__setitem__(0, x.sum()), lambda: None)],
              lambda: rel_err(tsum[0].reshape(1), ref), 1e-5)
    res["sum"] = {"size": "2^28 f32", "bytes": 4 * n, "triton": tr, "torch": tp}
    del x, acc, ref, tsum
    # tile transpose and strided copy of a transposed view
    M = N = 8192
    x = rand(M, N)
    out = torch.empty(N, M, device="cuda")
    pz = lambda: out.fill_(float("nan"))
    ref = x.t().double()
    cases = [(f"64x64 num_warps={w}", (lambda w=w: transpose_kernel[(M // 64, N // 64)](x, out, M, N, N, 1, M, 1, BLOCK_M=64, BLOCK_N=64, num_warps=w)), pz)
             for w in (4, 8)]
    record("transpose", "8192^2 f32", 8 * M * N, cases, lambda: out.copy_(x.t()), lambda: out, ref, 0.0, pz)
    v = x.t()
    cases = [(f"64x64 num_warps={w}", (lambda w=w: copy_strided_kernel[(N // 64, M // 64)](v, out, N, M, v.stride(0), v.stride(1), BLOCK_M=64, BLOCK_N=64, num_warps=w)), pz)
             for w in (4, 8)]
    record("copy_T", "8192^2 f32", 8 * M * N, cases, lambda: out.copy_(v), lambda: out, ref, 0.0, pz)
    del x, out, ref, v
    # row softmax
    R, C = 8192, 4096
    x = rand(R, C, lo=-8.0, hi=8.0)
    out = torch.empty_like(x)
    pz = lambda: out.fill_(float("nan"))
    ref = torch.softmax(x.double(), dim=1)
    tout = [None]
    cases = [(f"BLOCK=4096 num_warps={w}", (lambda w=w: softmax_kernel[(R,)](out, x, C, C, R, C, BLOCK=4096, num_warps=w)), pz)
             for w in (4, 8, 16)]
    print("== softmax", flush=True)
    tr = best(cases, lambda: rel_err(out, ref), 1e-5)
    tp = best([("torch", lambda: tout.__setitem__(0, torch.softmax(x, dim=1)), lambda: None)],
              lambda: rel_err(tout[0], ref), 1e-5)
    res["softmax"] = {"size": "8192x4096 f32", "bytes": 8 * R * C, "triton": tr, "torch": tp}
    del x, out, ref, tout
    # layernorm
    M = N = 8192
    x = rand(M, N, lo=-3.0, hi=3.0, dtype=torch.float16)
    w = rand(N, lo=0.5, hi=1.5, dtype=torch.float16)
    b = rand(N, lo=-1.0, hi=1.0, dtype=torch.float16)
    y = torch.empty_like(x)
    mean = torch.empty(M, device="cuda")
    rstd = torch.empty(M, device="cuda")
    pz = lambda: (y.fill_(float("nan")), mean.fill_(float("nan")))
    ref = torch.nn.functional.layer_norm(x.double(), (N,), w.double(), b.double(), 1e-5)
    tout = [None]
    cases = [(f"BLOCK={bl} num_warps={nw}", (lambda bl=bl, nw=nw: layernorm_kernel[(M,)](x, y, w, b, mean, rstd, N, N, 1e-5, BLOCK=bl, num_warps=nw)), pz)
             for bl, nw in [(8192, 8), (8192, 16), (2048, 8)]]
    print("== layernorm", flush=True)
    tr = best(cases, lambda: rel_err(y, ref), 2e-3)
    tp = best([("torch", lambda: tout.__setitem__(0, torch.nn.functional.layer_norm(x, (N,), w, b, 1e-5)), lambda: None)],
              lambda: rel_err(tout[0], ref), 2e-3)
    res["layernorm"] = {"size": "8192^2 f16", "bytes": 4 * M * N + 4 * N + 8 * M, "triton": tr, "torch": tp}
    del x, w, b, y, mean, rstd, ref, tout
    # device copy, 1 GiB each way
    src = rand(2**28)
    dst = torch.empty_like(src)
    copy_ms = median_ms(lambda: dst.copy_(src))
    res["_copy"] = {"bytes": 2 * src.numel() * 4, "ms": copy_ms}
    print(f"== device copy {2 * src.numel() * 4 / copy_ms * 1e-6:.0f} GB/s", flush=True)
    return res


def gbps(nbytes, ms):
    return nbytes / ms * 1e-6 if ms > 0 else 0.0


def table(res, blk):
    copy = gbps(res["_copy"]["bytes"], res["_copy"]["ms"])
    rows = ["| kernel | size | blk GB/s | Triton GB/s | PyTorch GB/s | blk/Triton | blk % of copy | blk config |",
            "|---|---|---|---|---|---|---|---|"]
    for name in ["double", "vector_add", "sum", "transpose", "copy_T", "softmax", "layernorm"]:
        r = res[name]
        bl = [b for b in blk if b["bench"] == name and b["ok"]]
        bb = max(bl, key=lambda b: gbps(b["bytes"], b["ms"]), default=None)
        bg = gbps(bb["bytes"], bb["ms"]) if bb else 0.0
        tg = max((gbps(r["bytes"], t["ms"]) for t in r["triton"] if t["ok"]), default=0.0)
        pg = max((gbps(r["bytes"], t["ms"]) for t in r["torch"] if t["ok"]), default=0.0)
        ratio = f"{bg / tg:.2f}x" if tg else "-"
        cfg = f"{bb['kernel']} {bb['config']}" if bb else "FAILED"
        rows.append(f"| {name} | {r['size']} | {bg:.0f} | {tg:.0f} | {pg:.0f} | {ratio} | {100 * bg / copy:.0f}% | {cfg} |")
    rows.append(f"\nDevice copy (torch copy_, 1 GiB each way): {copy:.0f} GB/s")
    return "\n".join(rows)


def main():
    blk_json, out_dir = sys.argv[1], sys.argv[2]
    blk = json.load(open(blk_json)) if os.path.exists(blk_json) else []
    res = run_all()
    json.dump({"triton_torch": res, "blk": blk}, open(os.path.join(out_dir, "results.json"), "w"), indent=1)
    print()
    print("blk variants:")
    for b in blk:
        print(f"  {b['bench']:10s} {b['kernel']:18s} {b['config']:36s} {'ok' if b['ok'] else 'FAIL'} "
              f"{gbps(b['bytes'], b['ms']):7.0f} GB/s {b['error']}")
    t = table(res, blk)
    open(os.path.join(out_dir, "table.md"), "w").write(t + "\n")
    print()
    print(t)


if __name__ == "__main__":
    main()
