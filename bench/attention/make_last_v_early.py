#!/usr/bin/env python3
"""samples/attention.blk with the last V of `forward_overlapped` loaded
before the loop (bench/NOTES.md, sessions 26-27: variant C), on stdout.

  python3 bench/attention/make_last_v_early.py [SOURCE] > /tmp/attention_c.blk
  SAMPLE_C=/tmp/attention_c.blk FLAGS_B=... bash bench/flag_ab_build.sh

(SOURCE: samples/attention.blk when left out.)

The lets `tail`, `last` and `v_last` move from after the loop to just
before it, so the load's latency passes under the loop; only
`acc = dot(p_before, v_last, acc)` stays after it. Fails when the sample
no longer has the lines it moves.
"""
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
LETS = """    // Where the block past N_CTX, if any, starts.
    let tail = cdiv(whole_end, BN) * BN;
    let last = max(tail - BN, 0);
    let v_last = load(v + head + last * HEAD_DIM + kv_offs,
        mask: (last + offs_n < N_CTX)[:, None], other: 0.0);
"""
LOOP = """    for start_n in range(0, whole_end, BN) {
        // The block's rows from one scalar base: the same offsets each time.
"""


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "samples", "attention.blk")
    s = open(source).read()
    if s.count(LETS) != 1 or s.count(LOOP) != 1:
        sys.exit("make_last_v_early.py: the source no longer has the lines it moves")
    s = s.replace(LETS, "")
    sys.stdout.write(s.replace(LOOP, LETS + LOOP))


if __name__ == "__main__":
    main()
