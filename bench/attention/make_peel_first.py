#!/usr/bin/env python3
"""samples/attention.blk with the first block of `forward_overlapped`
peeled off the loop (bench/NOTES.md, session 28: variant D), on stdout.

  python3 bench/attention/make_peel_first.py [SOURCE] > /tmp/attention_d.blk

(SOURCE: samples/attention.blk when left out; variant C for C + D.)

The loop's first iteration computes P·V with P = 0 (the block before
block 0 does not exist): session 25 put it at about 870 of the 8,152
cycles a program costs besides its blocks. Here block 0's Q·Kᵀ and
softmax run before the loop, under `if whole_end > 0`, with K of block 0
loaded next to Q (so its latency passes with Q's), and the loop starts at
block 1: every P·V it computes is a real one. Needs no compiler change:
the dot under the `if` is outside the loop. Fails when the sample no
longer has the lines it edits.
"""
import os
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
Q_LOAD = """    let q_tile = load(q + head + offs_m[:, None] * HEAD_DIM + offs_d[None, :],
        mask: row_ok[:, None], other: 0.0);
"""
K_FIRST = """    // Block 0's K, loaded with Q: the loop starts at block 1.
    let k_first = load(k + head + kv_offs, mask: (offs_n < N_CTX)[:, None], other: 0.0);
"""
LOOP = """    for start_n in range(0, whole_end, BN) {
        // The block's rows from one scalar base: the same offsets each time.
"""
PEELED = """    // Block 0 before the loop: there is no block before it, so no P·V.
    // m_i = -inf and l_i = acc = 0 here, so alpha = 0 and l_i = sum(p).
    if whole_end > 0 {
        var qk = dot(q_tile, trans(k_first));
        if CAUSAL {
            if 0 >= masked_from(start_m, N_CTX, BM, BN, true) {
                qk = where(offs_m[:, None] >= offs_n[None, :], qk, -inf);
            }
        }
        let m_new = max(qk, axis: 1) * qk_scale;
        let shift = where(m_new == -inf, 0.0, m_new);
        let p = exp2(fma(qk, qk_scale, -shift[:, None]));
        l_i = sum(p, axis: 1);
        p_before = in_input_type(p, BF16);
        m_i = m_new;
    }
    for start_n in range(BN, whole_end, BN) {
        // The block's rows from one scalar base: the same offsets each time.
"""
V_BEFORE = "load(v + head + max(start_n - BN, 0) * HEAD_DIM + kv_offs,"
V_BEFORE_NEW = "load(v + head + (start_n - BN) * HEAD_DIM + kv_offs,"


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "samples", "attention.blk")
    s = open(source).read()
    # Q's load is the same in the plain forward: edit the one after this.
    at = s.find("fn forward_overlapped(")
    head, fn = s[:at], s[at:]
    if at < 0 or Q_LOAD not in fn or fn.count(LOOP) != 1 or fn.count(V_BEFORE) != 1:
        sys.exit("make_peel_first.py: the source no longer has the lines it edits")
    fn = fn.replace(Q_LOAD, Q_LOAD + K_FIRST, 1).replace(LOOP, PEELED)
    sys.stdout.write(head + fn.replace(V_BEFORE, V_BEFORE_NEW))


if __name__ == "__main__":
    main()
