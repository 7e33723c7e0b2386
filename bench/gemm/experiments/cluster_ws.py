#!/usr/bin/env python3
# Session 18 experiment (bench/NOTES.md, "The 1 x 2 cluster on the
# warp-specialised loop"): edits the PTX of gemm_f16's table config built
# with -D warp_specialize=true (otherwise as in cluster_plain.py) so the
# `__ws__auto` entry runs as a 1 x 2 cluster sharing B by TMA multicast:
# "empty" barriers count both programs' consumer warps (remote arrives
# through mapa), the producer of rank r issues B boxes r and r + 2 to both
# programs, a cluster barrier after the inits and one before exit. Register
# names are those of the build at commit 4b01a6f.
#   python3 cluster_ws.py ws.ptx OUT.ptx
import re, sys
src = open(sys.argv[1]).read()
name = 'matmul_f16__BM_128_BN_256_BK_64_GROUP_M_8__w8__ws__auto('
start = src.index('.visible .entry ' + name)
end = src.index('\n}\n', start) + 3
e = src[start:end]
n = {}
def rep(old, new, count=1, key=None):
    global e
    c = e.count(old)
    assert c == count, (old, c)
    e = e.replace(old, new)
    n[key or old[:30]] = c
rep('.minnctapersm 1\n{', '.minnctapersm 1\n.reqnctapercluster 2, 1, 1\n{\n\t.reg .b32 %mcr, %mcpeer, %mcl, %mcra;\n\t.reg .pred %mcp<2>;\n\t.reg .b16 %mcm;', key='cluster')
rep('$L__func_begin0:', '$L__func_begin0:\n\tmov.u32 %mcr, %cluster_ctarank;\n\txor.b32 %mcpeer, %mcr, 1;\n\tsetp.eq.u32 %mcp0, %mcr, 0;\n\tsetp.ne.u32 %mcp1, %mcr, 0;\n\tmov.u16 %mcm, 3;', key='rank')
# "empty": both programs' 8 consumer warps
rep('], 8;\n', '], 16;\n', 3, key='empty16')
# the barrier after both inits, before the roles split: a cluster barrier
rep('\t.loc\t1 46 5\n\tbar.sync \t0;', '\t.loc\t1 46 5\n\tbarrier.cluster.arrive.release.aligned;\n\tbarrier.cluster.wait.acquire.aligned;', key='initbar')
# consumers release the slot in both programs
rep('\tmbarrier.arrive.shared::cta.b64 _, [%rd252];\n', '\tmbarrier.arrive.shared::cta.b64 _, [%rd252];\n\tcvt.u32.u64 %mcl, %rd252;\n\tmapa.shared::cluster.u32 %mcra, %mcl, %mcpeer;\n\tmbarrier.arrive.release.cluster.shared::cluster.b64 _, [%mcra];\n', key='remote')
# no program leaves while its partner may still arrive on its barriers
rep('$L__BB0_28:\n\t.loc\t1 0 0\n\tret;', '$L__BB0_28:\n\t.loc\t1 0 0\n\tbarrier.cluster.arrive.release;\n\tbarrier.cluster.wait.acquire;\n\tret;', key='exitbar')
# B boxes: half each, multicast to both
lines = e.split('\n'); out = []; nm = 0
boxes = {'%r21': 0, '%r575': 1, '%r577': 2, '%r579': 3}
for l in lines:
    m = re.match(r'(\s*)cp\.async\.bulk\.tensor\.2d\.shared::cluster\.global\.tile\.mbarrier::complete_tx::bytes (\[[^\]]+\]), \[(%rd\d+), \{(%r\d+), (%r\d+)\}\], (\[[^\]]+\]);', l)
    if m and m.group(4) in boxes:
        ind, dst, tmap, c0, c1, bar = m.groups()
        pred = '%mcp0' if boxes[c0] % 2 == 0 else '%mcp1'
        out.append(f'{ind}@{pred} cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes.multicast::cluster {dst}, [{tmap}, {{{c0}, {c1}}}], {bar}, %mcm;')
        nm += 1
    else:
        out.append(l)
e = '\n'.join(out)
sys.stderr.write(f'{n} multicast {nm}\n')
open(sys.argv[2], 'w').write(src[:start] + e + src[end:])
