"""The GEMM benchmark's rounds side by side (issue 14).

`python3 bench/gemm/rounds_summary.py ROUND_DIR...` reads each round's
results.json (written by gemm_ref.py; run_gemm_on_device.sh with ROUNDS=R
writes one per round, blk then Triton and cuBLAS each time) and prints a
Markdown table: per case, the best passing config of each side in each
round, blk/Triton and blk/cuBLAS per round, and the ratio of the medians
over the rounds. Why rounds: at 8192^3 blk and Triton run the same tile and
the same kernel moves 2-4 % between rounds with the GPU's clock (H100,
bench/NOTES.md session 23), so one pass in a fixed order can put a drift
on one side. Needs only the standard library (no torch), so it runs here
as well as on the device machine (tests/lit/bench/rounds-summary.test).
"""
import json
import os
import statistics
import sys


def best(records):
    """The fastest passing record, or None."""
    ok = [r for r in records if r.get("ok") and r.get("tflops")]
    return max(ok, key=lambda r: r["tflops"]) if ok else None


def cublas_of(row):
    """cuBLAS as gemm_ref.py's table takes it: the first call if it passed
    (for bias + GELU the fused cuBLASLt epilogue), else the best."""
    calls = row.get("cublas") or []
    if calls and calls[0].get("ok"):
        return calls[0]
    return best(calls)


def read_round(path):
    """{(case, shape): (blk, triton, cublas)} TFLOP/s (None: not run or failed)."""
    with open(os.path.join(path, "results.json")) as f:
        res = json.load(f)
    out = {}
    for row in res["triton_cublas"]:
        tb, cb = best(row["triton"]), cublas_of(row)
        out[(row["case"], row["shape"])] = [None, tb and tb["tflops"], cb and cb["tflops"]]
    for b in res["blk"]:
        key = (b.get("case"), b.get("shape"))
        entry = out.setdefault(key, [None, None, None])
        if b.get("ok") and b.get("tflops") and (entry[0] is None or b["tflops"] > entry[0]):
            entry[0] = b["tflops"]
    return out


def ratio(x, y):
    return f"{x / y:.2f}x" if x and y else "-"


def num(x):
    return f"{x:.1f}" if x else "-"


def median(values):
    values = [v for v in values if v]
    return statistics.median(values) if values else None


def summary(round_dirs):
    rounds = [read_round(d) for d in round_dirs]
    keys = []
    for r in rounds:
        keys += [k for k in r if k not in keys]
    lines = [f"{len(rounds)} rounds (each: blk, then Triton and cuBLAS); TFLOP/s of each side's "
             "best passing config per round, then the ratio of the medians over the rounds.",
             "",
             "| case | shape | blk | Triton | cuBLAS | blk/Triton per round | blk/cuBLAS per round "
             "| blk/Triton (medians) | blk/cuBLAS (medians) |",
             "|---|---|---|---|---|---|---|---|---|"]
    for key in keys:
        per = [r.get(key, [None, None, None]) for r in rounds]
        col = lambda i: " / ".join(num(p[i]) for p in per)
        meds = [median(p[i] for p in per) for i in range(3)]
        lines.append(f"| {key[0]} | {key[1]} | {col(0)} | {col(1)} | {col(2)} "
                     f"| {' / '.join(ratio(p[0], p[1]) for p in per)} "
                     f"| {' / '.join(ratio(p[0], p[2]) for p in per)} "
                     f"| {ratio(meds[0], meds[1])} | {ratio(meds[0], meds[2])} |")
    return "\n".join(lines)


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: rounds_summary.py ROUND_DIR...")
    try:
        print(summary(sys.argv[1:]))
    except (OSError, ValueError, KeyError, TypeError) as e:
        # A round that did not finish (no results.json) or wrote a broken
        # one: say which, not a traceback.
        sys.exit(f"rounds_summary.py: a round's results.json is missing or not gemm_ref.py's: "
                 f"{type(e).__name__}: {e}")


if __name__ == "__main__":
    main()
