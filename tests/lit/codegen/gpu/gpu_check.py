"""GPU check of the codegen lit kernels (not run by CI, which has no GPU).

Runs the PTX of tests/lit/codegen/*.mlir on a GPU through CuPy and compares
every result with a numpy reference; ends with a rough bandwidth figure.
  here:        tests/lit/codegen/gpu/make_ptx.sh build-dir OUT
  GPU machine: python3 tests/lit/codegen/gpu/gpu_check.py OUT
"""
import sys, time
import numpy as np
import cupy as cp

D = sys.argv[1]
fails = 0
rng = np.random.default_rng(1)

def mod(name):
    return cp.RawModule(path=f"{D}/{name}.ptx")

def launch(m, fn, grid, threads, args):
    m.get_function(fn)(grid, (threads,), args)
    cp.cuda.Device().synchronize()

def check(name, ok, detail=""):
    global fails
    fails += 0 if ok else 1
    print(("PASS " if ok else "FAIL ") + name + (" " + detail if detail else ""), flush=True)

def close(a, b, rtol=1e-5, atol=1e-6):
    a = np.asarray(a, np.float64); b = np.asarray(b, np.float64)
    err = np.max(np.abs(a - b) / (atol + rtol * np.abs(b))) if a.size else 0
    return bool(err <= 1.0), f"maxrel={err:.3g}"

i32, f32 = np.int32, np.float32

# double (masked, vec4)
m = mod("vectorize-masked")
n = 1024 * 100 + 16 * 7
x = rng.standard_normal(n + 1024).astype(f32)
gx = cp.asarray(x); go = cp.full(n + 1024, -1.0, dtype=f32)
launch(m, "double__BLOCK_1024__w4", ((n + 1023) // 1024,), 128, (gx, go, i32(n)))
o = go.get()
check("double", np.array_equal(o[:n], 2 * x[:n]) and np.all(o[n:] == -1))

# sum_gridstride (seed)
m = mod("reduce-sum-loop")
x = np.arange(1000, dtype=f32)
go = cp.zeros(1, dtype=f32)
launch(m, "sum_gridstride__BLOCK_128__NUM_CHUNKS_8__w4", (1,), 128, (cp.asarray(x), go, i32(1000)))
check("sum_gridstride", go.get()[0] == 499500.0, str(go.get()[0]))

# transpose 64x64 tiles
m = mod("convert-layout-transpose")
M = N = 256
x = rng.standard_normal((M, N)).astype(f32)
go = cp.zeros((N, M), dtype=f32)
launch(m, "transpose__BLOCK_64__w4", (M // 64, N // 64), 128, (cp.asarray(x), go, i32(M), i32(N)))
check("transpose", np.array_equal(go.get(), x.T))

# softmax
m = mod("reduce-softmax")
R, C, S = 64, 1000, 1003
x = rng.standard_normal((R, S)).astype(f32)
go = cp.zeros((R, C), dtype=f32)
launch(m, "softmax__BLOCK_1024__w4", (R,), 128, (go, cp.asarray(x), i32(S), i32(C), i32(R), i32(C)))
ref = np.exp(x[:, :C] - x[:, :C].max(1, keepdims=True)); ref /= ref.sum(1, keepdims=True)
ok, d = close(go.get(), ref, 1e-5, 1e-7); check("softmax", ok, d)

# layernorm
m = mod("layernorm-loops")
M, N = 32, 3000
x = rng.standard_normal((M, N)).astype(np.float16)
w = rng.standard_normal(N).astype(np.float16); b = rng.standard_normal(N).astype(np.float16)
gy = cp.zeros((M, N), dtype=np.float16); gm = cp.zeros(M, dtype=f32); gr = cp.zeros(M, dtype=f32)
launch(m, "layernorm__BLOCK_1024__w4", (M,), 128,
       (cp.asarray(x), gy, cp.asarray(w), cp.asarray(b), gm, gr, i32(N), i32(M), i32(N), f32(1e-5)))
xf = x.astype(np.float64); mean = xf.mean(1); var = ((xf - mean[:, None]) ** 2).mean(1)
rstd = 1 / np.sqrt(var + 1e-5)
yref = (xf - mean[:, None]) * rstd[:, None] * w + b
ok1, d1 = close(gm.get(), mean, 1e-4, 1e-5); ok2, d2 = close(gr.get(), rstd, 1e-4)
ok3, d3 = close(gy.get(), yref, 1e-2, 1e-2)
check("layernorm", ok1 and ok2 and ok3, f"{d1} {d2} {d3}")

# matmul (CUDA-core dot)
m = mod("dot-fma")
M, N, K = 200, 190, 100
a = rng.standard_normal((M, K)).astype(f32); bm = rng.standard_normal((K, N)).astype(f32)
gc = cp.zeros((M, N), dtype=f32)
grid = ((M + 63) // 64 * ((N + 63) // 64),)
launch(m, "matmul__BM_64__BN_64__BK_32__w4", grid, 128,
       (cp.asarray(a), cp.asarray(bm), gc, i32(M), i32(N), i32(K), i32(K), i32(1), i32(N), i32(1), i32(N), i32(1)))
ok, d = close(gc.get(), a.astype(np.float64) @ bm, 1e-4, 1e-4); check("matmul", ok, d)

# reductions along each axis of a 2-D block
m = mod("reduce-2d")
x = rng.standard_normal((32, 64)).astype(f32)
gr = cp.zeros(32, dtype=f32); gcl = cp.zeros(64, dtype=f32); gmx = cp.zeros(32, dtype=f32)
launch(m, "reduce2d__w4", (1,), 128, (cp.asarray(x), gr, gcl, gmx))
ok1, d1 = close(gr.get(), x.sum(1), 1e-5); ok2, d2 = close(gcl.get(), x.sum(0), 1e-5)
check("reduce2d", ok1 and ok2 and np.array_equal(gmx.get(), x.max(1)), f"{d1} {d2}")

# argmax (two-operand reduce) and cumsum (scan)
m = mod("reduce-argmax-scan")
x = rng.standard_normal(256).astype(f32); x[200] = x[17] = 10.0
gi = cp.zeros(1, dtype=i32); gcs = cp.zeros(256, dtype=f32)
launch(m, "argmax__w4", (1,), 128, (cp.asarray(x), gi, gcs))
ok, d = close(gcs.get(), np.cumsum(x.astype(np.float64)), 1e-4, 1e-4)
check("argmax", gi.get()[0] == 17, str(gi.get()[0])); check("scan", ok, d)

# atomics: masked histogram + scalar fadd of a reduction
m = mod("atomics")
n = 5000
gh = cp.zeros(8, dtype=i32); gt = cp.zeros(1, dtype=f32)
launch(m, "hist__w4", ((n + 1023) // 1024,), 128, (gh, gt, i32(n)))
ref = np.bincount(np.arange(n) % 8, minlength=8)
check("atomic_add masked", np.array_equal(gh.get(), ref), str(gh.get()))
check("atomic fadd scalar", abs(gt.get()[0] - n * (n - 1) / 2) < 1.0, str(gt.get()[0]))

# trans + reshape
m = mod("shapes-trans-reshape")
x = rng.standard_normal((32, 64)).astype(f32)
go = cp.zeros((64, 32), dtype=f32); gf = cp.zeros(2048, dtype=f32)
launch(m, "trans__w4", (1,), 128, (cp.asarray(x), go, gf))
check("trans", np.array_equal(go.get(), x.T)); check("reshape", np.array_equal(gf.get(), -x.reshape(-1)))

# shared-memory buffer: row-major store, column-major load
m = mod("local-memory")
x = rng.standard_normal((32, 64)).astype(f32)
go = cp.zeros((32, 64), dtype=f32)
launch(m, "stage__w4", (1,), 128, (cp.asarray(x), go))
check("local_alloc/local_load", np.array_equal(go.get(), x))
x8 = rng.standard_normal(8).astype(f32); g16 = cp.zeros(16, dtype=f32)
launch(m, "ring", (1,), 32, (cp.asarray(x8), g16))
check("memdesc_index ring slot", np.array_equal(g16.get()[:8], x8))

# f16 dot
m = mod("dot-f16")
a = rng.standard_normal((32, 32)).astype(np.float16); bm = rng.standard_normal((32, 32)).astype(np.float16)
gc = cp.zeros((32, 32), dtype=f32)
launch(m, "dot_f16__w4", (1,), 128, (cp.asarray(a), cp.asarray(bm), gc))
ok, d = close(gc.get(), a.astype(np.float64) @ bm.astype(np.float64), 1e-4, 1e-4); check("dot f16", ok, d)

# scf.while / scf.if
m = mod("control-flow")
go = cp.zeros(2, dtype=i32)
launch(m, "control__w1", (2,), 32, (go, i32(10)))
check("while/if", list(go.get()) == [12, -12], str(go.get()))

# vector_add with a ragged n: full groups as vectors, the edge element-wise
m = mod("vectorize-split-mask")
n = 1000003
x = rng.standard_normal(n + 1024).astype(f32); y = rng.standard_normal(n + 1024).astype(f32)
go = cp.full(n + 1024, -1.0, dtype=f32)
launch(m, "vector_add__BLOCK_1024__w4", ((n + 1023) // 1024,), 128, (cp.asarray(x), cp.asarray(y), go, i32(n)))
o = go.get()
check("vector_add split mask", np.array_equal(o[:n], x[:n] + y[:n]) and np.all(o[n:] == -1))

# replicated atomics: copies get the owner's old value
m = mod("atomics-replicated")
gc = cp.full(16, 5, dtype=i32); go = cp.zeros(16, dtype=i32)
launch(m, "atomic_old__w4", (1,), 128, (gc, go))
check("atomic old value on copies", list(gc.get()) == [6] * 16 and list(go.get()) == [5 + 2 * i for i in range(16)],
      f"{gc.get()} {go.get()}")

def bandwidth(k, grid, args, nbytes):
    for _ in range(3): k(grid, (128,), args)
    s, e = cp.cuda.Event(), cp.cuda.Event()
    ts = []
    for _ in range(20):
        s.record(); k(grid, (128,), args); e.record(); e.synchronize()
        ts.append(cp.cuda.get_elapsed_time(s, e))
    return nbytes / (sorted(ts)[len(ts) // 2] / 1e3) / 1e9

n = (1 << 28) - 3
gx = cp.ones(n, dtype=f32); gy = cp.ones(n, dtype=f32); go = cp.empty(n, dtype=f32)
k = mod("vectorize-split-mask").get_function("vector_add__BLOCK_1024__w4")
print(f"vector_add 2^28-3 f32: {bandwidth(k, ((n + 1023) // 1024,), (gx, gy, go, i32(n)), 12 * n):.0f} GB/s (median of 20)")
del gx, gy, go

M = N = 8192
gx = cp.ones((M, N), dtype=f32); go = cp.empty((N, M), dtype=f32)
k = mod("convert-layout-transpose").get_function("transpose__BLOCK_64__w4")
print(f"transpose 8192^2 f32 (64x64 tiles): {bandwidth(k, (M // 64, N // 64), (gx, go, i32(M), i32(N)), 8 * M * N):.0f} GB/s (median of 20)")
del gx, go

# rough bandwidth of the masked double kernel (2^28 - 16 f32)
m = mod("vectorize-masked")
n = (1 << 28) - 16
gx = cp.ones(n, dtype=f32); go = cp.empty(n, dtype=f32)
k = m.get_function("double__BLOCK_1024__w4")
g = ((n + 1023) // 1024,)
for _ in range(3): k(g, (128,), (gx, go, i32(n)))
s, e = cp.cuda.Event(), cp.cuda.Event()
ts = []
for _ in range(20):
    s.record(); k(g, (128,), (gx, go, i32(n))); e.record(); e.synchronize()
    ts.append(cp.cuda.get_elapsed_time(s, e))
t = sorted(ts)[len(ts) // 2] / 1e3
print(f"double 2^28-16 f32: {8 * n / t / 1e9:.0f} GB/s (median of 20)")
# math (fast paths + libdevice) and integer / conversion ops
exec(open(__file__.replace("gpu_check.py", "math_int_check.py")).read())
print("FAILURES:", fails)
