# Writes OUT.blk: samples/attention.blk with the forward kernels' configs
# replaced by D = 64 warp-specialised ones (the hand-overlapped form,
# `forward_overlapped`, which the sample runs at D = 64): 128 x 128 tiles,
# causal and not, one program per SM. For an A/B on the device against
# the sample's plain D = 64 configs: build it with and without
# `--warpgroup-turns` (bench/NOTES.md, session 21).
#   python3 bench/attention/make_d64_ws_variant.py OUT.blk
import sys
src = open('samples/attention.blk').read()
WS = ['@config(BM = 128, BN = 128, HEAD_DIM = 64, CAUSAL = %s, num_warps = 8, num_stages = 2, '
      'warp_specialize = true)' % c for c in ('false', 'true')]
def replace_configs(s, kernel):
    k = s.index('kernel %s(' % kernel)
    req = s.rindex('@requires', 0, k)
    start = req
    while True:  # the run of @config lines right before @requires
        prev = s.rindex('\n', 0, start - 1) + 1
        if not s[prev:].startswith('@config'):
            break
        start = prev
    return s[:start] + ''.join(l + '\n' for l in WS) + s[req:]
for kernel in ('attention_fwd', 'attention_fwd_bf16'):
    src = replace_configs(src, kernel)
open(sys.argv[1], 'w').write(src)
