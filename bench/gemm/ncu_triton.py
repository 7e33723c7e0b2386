"""One Triton config of the GEMM benchmark's tutorial kernel, launched a few
times on random inputs, for bench/gemm/ncu_on_device.sh to profile:
`python3 bench/gemm/ncu_triton.py KIND M N K BM BN BK GROUP_M STAGES WARPS`."""
import sys

import torch
import triton

from gemm_ref import KINDS, OUT_DTYPE, matmul_kernel

kind = sys.argv[1]
M, N, K, bm, bn, bk, gm, ns, nw = (int(v) for v in sys.argv[2:11])
dtype, bt, gelu = KINDS[kind][:3]
a = (torch.rand(M, K, device="cuda") * 2 - 1).to(dtype)
b = ((torch.rand(N, K, device="cuda") * 2 - 1).to(dtype).T if bt
     else (torch.rand(K, N, device="cuda") * 2 - 1).to(dtype))
bias = (torch.rand(N, device="cuda") * 2 - 1).half()
c = torch.empty(M, N, device="cuda", dtype=OUT_DTYPE.get(kind, dtype))
grid = (triton.cdiv(M, bm) * triton.cdiv(N, bn),)
for _ in range(5):
    matmul_kernel[grid](a, b, c, bias, M, N, K, a.stride(0), a.stride(1), b.stride(0),
                        b.stride(1), c.stride(0), c.stride(1), BLOCK_SIZE_M=bm,
                        BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=gm,
                        ACTIVATION="bias_gelu" if gelu else "", num_stages=ns, num_warps=nw)
torch.cuda.synchronize()
ref = a.double() @ b.double()
err = (c.double() - ref).abs().max().item()
print(f"triton {kind} {M}x{N}x{K} max err {err:.3g}")

if len(sys.argv) > 11:  # soak seconds: as gemm_bench.cpp's BLK_GEMM_SOAK_S
    soak, spent = float(sys.argv[11]), 0.0
    while spent < soak * 1e3:
        s, e = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        s.record()
        for _ in range(20):
            matmul_kernel[grid](a, b, c, bias, M, N, K, a.stride(0), a.stride(1), b.stride(0),
                                b.stride(1), c.stride(0), c.stride(1), BLOCK_SIZE_M=bm,
                                BLOCK_SIZE_N=bn, BLOCK_SIZE_K=bk, GROUP_SIZE_M=gm,
                                ACTIVATION="bias_gelu" if gelu else "", num_stages=ns,
                                num_warps=nw)
        e.record()
        e.synchronize()
        last = s.elapsed_time(e)
        spent += last
    ms = last / 20
    print(f"soak {spent * 1e-3:.1f} s: {ms:.4f} ms per launch, "
          f"{2.0 * M * N * K / (ms * 1e-3) * 1e-12:.1f} TFLOP/s")
