# Writes OUT.blk: samples/attention.blk with the forward kernels' configs
# replaced by D = 64 warp-specialised ones (the hand-overlapped form,
# `forward_overlapped`, which the sample runs at D = 64): 128 x 128 tiles,
# causal and not, one program per SM. For an A/B on the device against
# the sample's plain D = 64 configs: build it with and without
# `--warpgroup-turns` (bench/NOTES.md, session 21).
#   python3 bench/attention/make_d64_ws_variant.py OUT.blk
import sys
from sample_configs import set_configs
src = open('samples/attention.blk').read()
WS = ['@config(BM = 128, BN = 128, HEAD_DIM = 64, CAUSAL = %s, num_warps = 8, num_stages = 2, '
      'warp_specialize = true)' % c for c in ('false', 'true')]
for kernel in ('attention_fwd', 'attention_fwd_bf16'):
    src = set_configs(src, kernel, WS)
open(sys.argv[1], 'w').write(src)
