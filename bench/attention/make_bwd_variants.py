# Writes OUTDIR/v0..v4.blk: samples/attention.blk cut to its causal configs
# (the fwd+bwd rows launch unpinned, so each variant puts one choice of
# backward tiles first): v0 as the sample, v1 dK/dV on BN = 128 (8 warps),
# v2 that and dQ on BM = 128, v3 Triton's backward shapes (32 x 128, 128 x 32),
# v4 the sample's D = 64 dK/dV with programs_per_sm = 3.
#   python3 bench/attention/make_bwd_variants.py OUTDIR
import re, sys
from sample_configs import kernel_block, set_configs
src = open('samples/attention.blk').read()
def causal_only(s, name):
    a, b = kernel_block(s, name)
    lines = [l for l in s[a:b].splitlines() if 'CAUSAL = true' in l or 'CAUSAL' not in l]
    return set_configs(s, name, lines)
variants = {
 'v0': {},
 'v1': {'attention_bwd_dkdv': ['@config(BM = 64, BN = 128, HEAD_DIM = 64, CAUSAL = true, num_warps = 8, num_stages = 2)',
                               '@config(BM = 64, BN = 128, HEAD_DIM = 128, CAUSAL = true, num_warps = 8, num_stages = 2)']},
 'v2': {'attention_bwd_dkdv': ['@config(BM = 64, BN = 128, HEAD_DIM = 64, CAUSAL = true, num_warps = 8, num_stages = 2)',
                               '@config(BM = 64, BN = 128, HEAD_DIM = 128, CAUSAL = true, num_warps = 8, num_stages = 2)'],
        'attention_bwd_dq': ['@config(BM = 128, BN = 64, HEAD_DIM = 64, CAUSAL = true, num_warps = 8, num_stages = 2)',
                             '@config(BM = 128, BN = 64, HEAD_DIM = 128, CAUSAL = true, num_warps = 8, num_stages = 2)']},
 'v3': {'attention_bwd_dkdv': ['@config(BM = 32, BN = 128, HEAD_DIM = 64, CAUSAL = true, num_warps = 8, num_stages = 3)',
                               '@config(BM = 32, BN = 128, HEAD_DIM = 128, CAUSAL = true, num_warps = 8, num_stages = 3)'],
        'attention_bwd_dq': ['@config(BM = 128, BN = 32, HEAD_DIM = 64, CAUSAL = true, num_warps = 8, num_stages = 3)',
                             '@config(BM = 128, BN = 32, HEAD_DIM = 128, CAUSAL = true, num_warps = 8, num_stages = 3)']},
 # dK/dV at D = 64 capped at 168 registers (181 without), so that three
 # programs share an SM instead of two (bench/NOTES.md, session 22).
 'v4': {'attention_bwd_dkdv': ['@config(BM = 64, BN = 64, HEAD_DIM = 64, CAUSAL = true, num_warps = 4, num_stages = 2, programs_per_sm = 3)',
                               '@config(BM = 64, BN = 128, HEAD_DIM = 128, CAUSAL = true, num_warps = 8, num_stages = 2)']},
}
out = sys.argv[1]
for v, repl in variants.items():
    s = src
    for k in ['attention_fwd', 'attention_fwd_bf16', 'attention_bwd_dkdv', 'attention_bwd_dq']:
        s = causal_only(s, k)
    # forward: keep only the first config per head dim
    for k in ['attention_fwd', 'attention_fwd_bf16']:
        a, b = kernel_block(s, k)
        seen = set(); keep = []
        for l in s[a:b].splitlines():
            d = re.search(r'HEAD_DIM = (\d+)', l).group(1)
            if d not in seen:
                seen.add(d); keep.append(l)
        s = set_configs(s, k, keep)
    for k, lines in repl.items():
        s = set_configs(s, k, lines)
    open('%s/%s.blk' % (out, v), 'w').write(s)
