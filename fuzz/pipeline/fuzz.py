#!/usr/bin/env python3
"""Whole-pipeline differential fuzzer for blk (issue 19); see README.md.

  fuzz.py --blkc PATH [--seeds A:B] [--time SECONDS] [--out DIR]

For each seed: generate a random valid kernel, then `blkc check` (must
pass), `blkc build` to a fatbin for sm_90 and, with a dot, sm_90a (must
pass), `blkc run` without and with --opt and `blkc run` of the GPU IR
(`--emit=gpu-ir`); the first must equal the reference (reference.py), the
others must equal the first bit for bit. Every failing kernel is saved in
DIR/seed-N/ with its inputs, the commands and a one-line reason. Exit 1 when
anything failed. Seeds A:B run A..B-1; "A:" runs until --time is up.
"""
import argparse
import collections
import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import runner  # noqa: E402


def parse_seeds(text):
    a, sep, b = text.partition(":")
    if not sep:
        return int(a), int(a) + 1
    return int(a or 0), (int(b) if b else None)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--blkc", required=True, help="the blkc binary")
    ap.add_argument("--seeds", default=None, help="A:B (B excluded) or A: (default 0:100, or 0: with --time)")
    ap.add_argument("--time", type=float, default=None, help="stop starting kernels after SECONDS")
    ap.add_argument("--out", default=None, help="where failing kernels go (default: a new temp dir)")
    args = ap.parse_args(argv)
    first, last = parse_seeds(args.seeds or ("0:" if args.time else "0:100"))
    if last is None and args.time is None:
        ap.error("an open seed range needs --time")
    out = args.out or tempfile.mkdtemp(prefix="blk-fuzz-pipeline-")
    os.makedirs(out, exist_ok=True)
    blkc = os.path.abspath(args.blkc)
    start = time.monotonic()
    features, types, stages = collections.Counter(), collections.Counter(), collections.Counter()
    failures = []
    seed, ran = first, 0
    while last is None or seed < last:
        if args.time is not None and time.monotonic() - start >= args.time:
            break
        result = runner.run_seed(blkc, seed, out)
        ran += 1
        features.update(result.features)
        types.update(result.types)
        stages.update(result.stages)
        if result.failure:
            failures.append((seed, result.failure))
            print("FAIL seed %d: %s" % (seed, result.failure), flush=True)
        seed += 1
    elapsed = time.monotonic() - start
    print("blk pipeline fuzz: %d kernels (seeds %d..%d) in %.1f s, %d failed; failures in %s"
          % (ran, first, seed - 1, elapsed, len(failures), out))
    print("  stages: " + ", ".join("%s %d" % kv for kv in sorted(stages.items())))
    print("  features: " + ", ".join("%s %d" % kv for kv in sorted(features.items())))
    print("  types: " + ", ".join("%s %d" % kv for kv in sorted(types.items())))
    with open(os.path.join(out, "summary.txt"), "w") as f:
        f.write("kernels %d seeds %d:%d time %.1f failures %d\n" % (ran, first, seed, elapsed, len(failures)))
        for s, why in failures:
            f.write("seed %d: %s\n" % (s, why))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
