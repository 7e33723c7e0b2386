"""blk inside PyTorch (issue 18): builds blk_torch_softmax.cpp with
torch.utils.cpp_extension, checks `torch.ops.blk.softmax` against a float64
reference (on the default stream and on a side stream, output poisoned with
NaN first), then times it next to the same row softmax written in Triton
and torch.softmax: one row per program, the whole row one block (as
samples/softmax.blk and Triton's fused-softmax tutorial do), median of
event-timed runs with a 256 MB L2 flush before each, as
triton.testing.do_bench times.

  python3 samples/torch/softmax_torch.py --fatbin softmax.fatbin \
      --include runtime/include --lib DIR_WITH_LIBBLKRT [--json OUT.json]

The three lines a PyTorch user writes (README, "PyTorch"):
  ext = torch.utils.cpp_extension.load("blk_softmax", ["blk_torch_softmax.cpp"], ...)
  ext.load("softmax.fatbin")
  y = torch.ops.blk.softmax(x)
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

import torch
import torch.utils.cpp_extension
import triton
import triton.language as tl

HERE = os.path.dirname(os.path.abspath(__file__))


@triton.jit
def row_softmax(out_ptr, in_ptr, in_stride, out_stride, n_cols, BLOCK: tl.constexpr):
    # One program per row; masked lanes read -inf (no effect on max or sum).
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * in_stride + cols, mask=mask, other=-float("inf"))
    num = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * out_stride + cols, num / tl.sum(num, axis=0), mask=mask)


def triton_softmax(x, out):
    block = triton.next_power_of_2(x.shape[1])
    row_softmax[(x.shape[0],)](out, x, x.stride(0), out.stride(0), x.shape[1],
                               BLOCK=block, num_warps=4 if block <= 1024 else 8)
    return out


FLUSH = None


def bench_ms(fn, runs=100):
    for _ in range(10):
        fn()
    ev = [(torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)) for _ in range(runs)]
    for s, e in ev:
        FLUSH.zero_()
        s.record()
        fn()
        e.record()
    torch.cuda.synchronize()
    return statistics.median(s.elapsed_time(e) for s, e in ev)


def max_rel_err(got, x):
    ref = torch.softmax(x.double(), dim=1)
    return ((got.double() - ref).abs() / ref.abs().clamp_min(1e-30)).max().item()


def build_extension(args):
    ext_dir = os.path.join(tempfile.gettempdir(), "blk-torch-ext")  # shared with the children
    os.makedirs(ext_dir, exist_ok=True)
    return torch.utils.cpp_extension.load(
        "blk_softmax", [os.path.join(HERE, "blk_torch_softmax.cpp")],
        extra_include_paths=[os.path.abspath(args.include)],
        extra_ldflags=[f"-L{os.path.abspath(args.lib)}", "-lblkrt",
                       f"-Wl,-rpath,{os.path.abspath(args.lib)}"],
        with_cuda=True, build_directory=ext_dir, verbose=False)


def refusal(args):
    """One refused call; exit 0 when it raised a Python exception."""
    ext = build_extension(args)
    ext.load(os.path.abspath(args.fatbin) if args.refusal != "no-fatbin" else "/nonexistent/softmax.fatbin")
    x = {"long-row": lambda: torch.zeros(4, 5000, device="cuda"),
         "wrong-dtype": lambda: torch.zeros(4, 100, device="cuda", dtype=torch.float16),
         "no-fatbin": lambda: torch.zeros(4, 100, device="cuda")}[args.refusal]()
    try:
        torch.ops.blk.softmax(x)
    except Exception as e:  # RuntimeError or ValueError, with blk's message
        print(f"{type(e).__name__}: {str(e).splitlines()[0]}")
        return 0
    print("accepted")
    return 1


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--fatbin", required=True)
    ap.add_argument("--include", required=True, help="libblkrt's public headers (runtime/include)")
    ap.add_argument("--lib", required=True, help="the directory holding libblkrt.so")
    ap.add_argument("--json")
    ap.add_argument("--refusal", help=argparse.SUPPRESS)  # the child of a refusal check
    args = ap.parse_args()
    if args.refusal:
        return refusal(args)
    global FLUSH
    FLUSH = torch.empty(256 * 1024 * 1024 // 4, dtype=torch.int32, device="cuda")

    ext = build_extension(args)
    ext.load(os.path.abspath(args.fatbin))

    failures = 0
    # Correctness: several shapes (masked rows too), both ops, a side stream.
    torch.manual_seed(0)
    for rows, cols in ((1, 1), (7, 1000), (300, 1024), (129, 3000), (64, 4096)):
        x = torch.randn(rows, cols, device="cuda") * 4
        out = torch.full_like(x, float("nan"))
        torch.ops.blk.softmax_out(x, out)
        errs = [max_rel_err(out, x), max_rel_err(torch.ops.blk.softmax(x), x)]
        side = torch.cuda.Stream()
        with torch.cuda.stream(side):
            y = torch.ops.blk.softmax(x)  # launched on `side`, torch's current stream here
        side.synchronize()
        errs.append(max_rel_err(y, x))
        ok = all(e < 1e-5 for e in errs)
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {rows}x{cols}: max rel err {max(errs):.2e} (out, alloc, side stream)")

    # Timing, same run: blk op, the same kernel in Triton, torch.softmax.
    results = []
    print(f"\n| shape | blk GB/s | Triton GB/s | torch GB/s | blk/Triton | blk/torch |")
    print("|---|---|---|---|---|---|")
    for rows, cols in ((4096, 1024), (4096, 4000), (16384, 4096)):
        x = torch.randn(rows, cols, device="cuda")
        out = torch.full_like(x, float("nan"))
        torch.ops.blk.softmax_out(x, out)
        t_out = torch.full_like(x, float("nan"))
        triton_softmax(x, t_out)
        assert max_rel_err(out, x) < 1e-5 and max_rel_err(t_out, x) < 1e-5
        nbytes = 2 * x.numel() * 4
        ms = {"blk": bench_ms(lambda: torch.ops.blk.softmax_out(x, out)),
              "triton": bench_ms(lambda: triton_softmax(x, t_out)),
              "torch": bench_ms(lambda: torch.softmax(x, dim=1))}
        gbs = {k: nbytes / (v * 1e-3) * 1e-9 for k, v in ms.items()}
        results.append({"shape": f"{rows}x{cols}", "ms": ms, "gbs": gbs})
        print(f"| {rows}x{cols} | {gbs['blk']:.0f} | {gbs['triton']:.0f} | {gbs['torch']:.0f} | "
              f"{gbs['blk'] / gbs['triton']:.2f}x | {gbs['blk'] / gbs['torch']:.2f}x |")
    # Refusals, each in a child process (a crash in an error path is then a
    # failure, not the end of the run): an error from the op's own check, a
    # plain C++ exception, and a blk::Error from libblkrt.
    for kind in ("long-row", "wrong-dtype", "no-fatbin"):
        p = subprocess.run([sys.executable, os.path.abspath(__file__), "--refusal", kind] + sys.argv[1:],
                           capture_output=True, text=True)
        ok = p.returncode == 0
        failures += not ok
        print(f"{'ok  ' if ok else 'FAIL'} refusal {kind}: exit {p.returncode}: "
              f"{(p.stdout + p.stderr).strip().splitlines()[-1][:160] if (p.stdout + p.stderr).strip() else ''}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(), "torch": torch.__version__,
                       "triton": triton.__version__, "results": results, "failures": failures}, f, indent=1)
    print("all checks passed" if not failures else f"{failures} check(s) failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
