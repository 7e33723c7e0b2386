"""The samples, compiled by blkc (IRGen + backend), run against numpy:
  here:        blkc build samples/X.blk --emit=ptx -o OUT/X.ptx  (each sample below)
  GPU machine: python3 sample_check.py OUT"""
import sys
import numpy as np, cupy as cp
D = sys.argv[1]
fails = 0
i32, f32 = np.int32, np.float32
rng = np.random.default_rng(5)
def check(name, ok, detail=""):
    global fails
    fails += 0 if ok else 1
    print(("PASS " if ok else "FAIL ") + name + " " + detail, flush=True)
def run(mod, fn, grid, threads, args):
    cp.RawModule(path=f"{D}/{mod}.ptx").get_function(fn)(grid, (threads,), args)
    cp.cuda.Device().synchronize()

for blk, w in [(1024, 4), (4096, 8)]:
    n = 1000003
    x = rng.standard_normal(n).astype(f32); y = rng.standard_normal(n).astype(f32)
    go = cp.zeros(n, f32)
    run("vector_add", f"vector_add__BLOCK_{blk}__w{w}", ((n + blk - 1) // blk,), 32 * w, (cp.asarray(x), cp.asarray(y), go, i32(n)))
    check(f"sample vector_add BLOCK={blk}", np.array_equal(go.get(), x + y))
for blk, w in [(1024, 4), (256, 2), (8, 1)]:
    n = 10007
    x = rng.standard_normal(n).astype(f32); go = cp.zeros(n, f32)
    run("double_grid", f"double_grid__BLOCK_{blk}__w{w}", ((n + blk - 1) // blk,), 32 * w, (cp.asarray(x), go, i32(n)))
    check(f"sample double_grid BLOCK={blk}", np.array_equal(go.get(), 2 * x))
x = np.arange(1000, dtype=f32); go = cp.zeros(1, f32)
run("sum_gridstride", "sum_gridstride__BLOCK_128_NUM_CHUNKS_8__w4", (1,), 128, (cp.asarray(x), go, i32(1000)))
check("sample sum_gridstride", go.get()[0] == 499500, str(go.get()))
for blk, w in [(1024, 4), (4096, 8)]:
    R, C, S = 33, blk - 5, blk + 3
    x = rng.standard_normal((R, S)).astype(f32); go = cp.zeros((R, C), f32)
    run("softmax", f"softmax__BLOCK_{blk}__w{w}", (R,), 32 * w, (go, cp.asarray(x), i32(S), i32(C), i32(R), i32(C)))
    ref = np.exp(x[:, :C] - x[:, :C].max(1, keepdims=True)); ref /= ref.sum(1, keepdims=True)
    check(f"sample softmax BLOCK={blk}", np.allclose(go.get(), ref, rtol=1e-4, atol=1e-7))
for blk, w in [(1024, 4), (2048, 8)]:
    M, N = 17, 3001
    x = rng.standard_normal((M, N)).astype(np.float16); wt = rng.standard_normal(N).astype(np.float16); bs = rng.standard_normal(N).astype(np.float16)
    gy = cp.zeros((M, N), np.float16); gm = cp.zeros(M, f32); gr = cp.zeros(M, f32)
    run("layernorm", f"layernorm__BLOCK_{blk}__w{w}", (M,), 32 * w,
        (cp.asarray(x), gy, cp.asarray(wt), cp.asarray(bs), gm, gr, i32(N), i32(M), i32(N), f32(1e-5)))
    xf = x.astype(np.float64); mean = xf.mean(1); rstd = 1 / np.sqrt(((xf - mean[:, None]) ** 2).mean(1) + 1e-5)
    yref = (xf - mean[:, None]) * rstd[:, None] * wt + bs
    ok = np.allclose(gm.get(), mean, atol=1e-4) and np.allclose(gr.get(), rstd, rtol=1e-3) and np.allclose(gy.get(), yref, atol=2e-2, rtol=2e-2)
    check(f"sample layernorm BLOCK={blk}", ok)
for bm, w in [(64, 4), (128, 8)]:
    M, N, K = 150, 170, 90
    a = rng.standard_normal((M, K)).astype(f32); b = rng.standard_normal((K, N)).astype(f32); gc = cp.zeros((M, N), f32)
    grid = (((M + bm - 1) // bm) * ((N + bm - 1) // bm),)
    run("matmul", f"matmul__BM_{bm}_BN_{bm}_BK_32__w{w}", grid, 32 * w,
        (cp.asarray(a), cp.asarray(b), gc, i32(M), i32(N), i32(K), i32(K), i32(1), i32(N), i32(1), i32(N), i32(1)))
    check(f"sample matmul BM={bm}", np.allclose(gc.get(), a.astype(np.float64) @ b, rtol=1e-4, atol=1e-4))
for bl, w in [(2, 1), (32, 4)]:
    M, N = 45, 70
    x = rng.standard_normal((M, N)).astype(f32); go = cp.zeros((N, M), f32)
    run("transpose_tile", f"transpose_tile__BLOCK_M_{bl}_BLOCK_N_{bl}__w{w}", ((M + bl - 1) // bl, (N + bl - 1) // bl), 32 * w,
        (cp.asarray(x), go, i32(M), i32(N), i32(N), i32(1), i32(M), i32(1)))
    check(f"sample transpose_tile {bl}x{bl}", np.array_equal(go.get(), x.T))
for bm, bn, w in [(64, 64, 4), (128, 256, 8)]:
    M, N = 300, 500
    a = rng.standard_normal((M, N)).astype(f32); gb = cp.zeros((M, N), f32)
    run("tile_2d", f"tile_2d__BLOCK_M_{bm}_BLOCK_N_{bn}__w{w}", ((M + bm - 1) // bm, (N + bn - 1) // bn), 32 * w,
        (cp.asarray(a), gb, i32(M), i32(N), i32(N), i32(1), f32(1.5)))
    check(f"sample tile_2d {bm}x{bn}", np.allclose(gb.get(), a * 1.5))
print("FAILURES:", fails)
