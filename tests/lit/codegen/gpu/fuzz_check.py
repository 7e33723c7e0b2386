"""Runs fuzz_gen.py kernels on a GPU (CuPy) against numpy: usage
  fuzz_check.py DIR SEED...   (DIR holds fzSEED.ptx, fzSEED.json and
  fzSEED.info from blk-codegen-test --emit=info, for dynamic shared memory)"""
import json, sys
import numpy as np, cupy as cp
d = sys.argv[1]
fails = 0; total = 0
rng = np.random.default_rng(0)
for seed in sys.argv[2:]:
    specs = json.load(open(f"{d}/fz{seed}.json"))
    mod = cp.RawModule(path=f"{d}/fz{seed}.ptx")
    dyn = {}
    for line in open(f"{d}/fz{seed}.info"):
        f = line.split()
        dyn[f[0]] = int(f[3].split("=")[1])
    for sp in specs:
        M, N, ety, axis, op = sp["M"], sp["N"], sp["ety"], sp["axis"], sp["op"]
        dt = np.dtype({"f32": "float32", "f16": "float16", "f64": "float64", "i32": "int32", "i64": "int64", "i8": "int8"}[ety])
        if dt.kind == "f":
            x = (rng.integers(0, 8, (M, N)) / 8).astype(dt)
        else:
            x = rng.integers(-3, 4, (M, N)).astype(dt)
        gx = cp.asarray(x); gy = cp.zeros(max(M, N, M * N), dtype=dt); gz = cp.zeros((M, N), dtype=dt)
        k = mod.get_function(sp["name"])
        if dyn[sp["name"]]:
            k.max_dynamic_shared_size_bytes = dyn[sp["name"]]
        k((1,), (32 * sp["warps"],), (gx, gy, gz), shared_mem=dyn[sp["name"]])
        cp.cuda.Device().synchronize()
        y, z = gy.get(), gz.get()
        acc = np.float64 if dt.kind == "f" else dt
        if op == "reduce":
            s = x.astype(acc).sum(axis=axis, dtype=acc)
            got = [(y[:s.size], s), (z, x.astype(acc) + np.expand_dims(s, axis))]
        elif op == "trans":
            got = [(y[:M * N].reshape(N, M), x.T)]
        elif op == "reshape":
            got = [(y[:1], np.array([x.astype(acc).sum(dtype=acc)]))]
        else:
            xx = np.flip(x, axis) if sp["reverse"] else x
            c = np.cumsum(xx.astype(acc), axis=axis, dtype=acc)
            got = [(z, np.flip(c, axis) if sp["reverse"] else c)]
        ok = True
        for g, r in got:
            if dt.kind == "f":
                tol = {"float16": 2e-2, "float32": 1e-5, "float64": 1e-12}[dt.name]
                ok &= bool(np.allclose(g.astype(np.float64), r.astype(np.float64), rtol=tol, atol=tol))
            else:
                ok &= bool(np.array_equal(g, r.astype(dt)))
        total += 1
        if not ok:
            fails += 1
            print("FAIL", seed, sp, flush=True)
print(f"fuzz: {total - fails}/{total} passed")
