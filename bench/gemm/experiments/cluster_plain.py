#!/usr/bin/env python3
# Session 18 experiment (bench/NOTES.md, "A 1 x 2 cluster by hand"): edits
# the PTX of gemm_f16's table config, built at commit 4b01a6f with
#   blkc build bench/gemm/kernels/gemm_f16.blk -I stdlib --arch sm_90a \
#     -D BM=128 -D BN=256 -D BK=64 -D GROUP_M=8 -D num_warps=8 -D num_stages=3 \
#     --emit=ptx -o g.ptx
# into a 1 x 2 cluster whose programs share B by TMA multicast, the
# CTA-wide barriers made cluster barriers (NOMC=1: the barriers only).
# The register names it matches are those of that build: another compiler
# gives other names. Then: ptxas -arch=sm_90a OUT -o x.cubin; fatbinary
# --create=DIR/gemm_f16.fatbin --image3=kind=elf,sm=90a,file=x.cubin; run
# gemm-bench on 4096^3 / 8192^3 only (every tile a TMA tile, pairs share pid_n).
#   python3 cluster_plain.py g.ptx OUT.ptx
import re, sys, os
src = open(sys.argv[1]).read()
name = 'matmul_f16__BM_128_BN_256_BK_64_GROUP_M_8__w8__auto('
start = src.index('.visible .entry ' + name)
end = src.index('\n}\n', start) + 3
e = src[start:end]
# 1. cluster of two programs along x
e = e.replace('.maxntid 256, 1, 1\n{', '.maxntid 256, 1, 1\n.reqnctapercluster 2, 1, 1\n{\n\t.reg .b32 %mcr;\n\t.reg .pred %mcp<2>;\n\t.reg .b16 %mcm;', 1)
e = e.replace('$L__func_begin0:', '$L__func_begin0:\n\tmov.u32 %mcr, %cluster_ctarank;\n\tsetp.eq.u32 %mcp0, %mcr, 0;\n\tsetp.ne.u32 %mcp1, %mcr, 0;\n\tmov.u16 %mcm, 3;', 1)
lines = e.split('\n')
out = []
cluster_bar = '\tbarrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;'
bars = [i for i, l in enumerate(lines) if l.strip() == 'bar.sync \t0;']
# the first bar.sync (after mbarrier init) and the one in the TMA loop (right after the arrive.expect_tx)
targets = {bars[0]}
for i, l in enumerate(lines):
    if 'mbarrier.arrive.expect_tx' in l:
        for j in range(i + 1, i + 4):
            if lines[j].strip() == 'bar.sync \t0;':
                targets.add(j)
nb = 0; nm = 0
for i, l in enumerate(lines):
    if i in targets:
        out.append(cluster_bar); nb += 1; continue
    m = re.match(r'(\s*)cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global\.tile\.mbarrier::complete_tx::bytes (\[[^\]]+\]), \[(%rd\d+), \{(%r\d+), (%r\d+)\}\], (\[[^\]]+\]);', l)
    if m:
        ind, dst, tmap, c0, c1, bar = m.groups()
        boxes = {'%r5': 0, '%r279': 1, '%r281': 2, '%r283': 3}
        if os.environ.get("NOMC") != "1" and c0 in boxes:  # a B box: column origin c0, row (k) c1
            pred = '%mcp0' if boxes[c0] % 2 == 0 else '%mcp1'
            out.append(f'{ind}@{pred} cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster {dst}, [{tmap}, {{{c0}, {c1}}}], {bar}, %mcm;')
            nm += 1
            continue
    out.append(l)
e = '\n'.join(out)
sys.stderr.write(f'cluster barriers {nb}, multicast copies {nm}\n')
open(sys.argv[2], 'w').write(src[:start] + e + src[end:])
