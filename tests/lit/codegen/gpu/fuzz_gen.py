"""Random 2-D kernels (reduce / trans / reshape / scan over shapes 1..128,
1..8 warps, six element types) for the backend: usage
  fuzz_gen.py SEED COUNT SPECS.json > kernels.mlir
fuzz-compile.test compiles them (CI); fuzz_check.py runs them on a GPU."""
import itertools, random, sys
random.seed(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
def kernel(idx, M, N, warps, ety, axis, op):
    ptr = f"!blk.ptr<{ety}>"
    L = []
    a = L.append
    a(f"func.func @k{idx}(%x: {ptr}, %y: {ptr}, %z: {ptr}) attributes {{blk.num_warps = {warps} : i32}} {{")
    a(f"  %rm = blk.make_range 0, {M} : tensor<{M}xi32>")
    a(f"  %rn = blk.make_range 0, {N} : tensor<{N}xi32>")
    a(f"  %r2 = blk.expand_dims %rm {{axis = 1 : i32}} : tensor<{M}xi32> -> tensor<{M}x1xi32>")
    a(f"  %c2 = blk.expand_dims %rn {{axis = 0 : i32}} : tensor<{N}xi32> -> tensor<1x{N}xi32>")
    a(f"  %cN = arith.constant dense<{N}> : tensor<{M}x1xi32>")
    a(f"  %rr = arith.muli %r2, %cN : tensor<{M}x1xi32>")
    a(f"  %rb = blk.broadcast %rr : tensor<{M}x1xi32> -> tensor<{M}x{N}xi32>")
    a(f"  %cb = blk.broadcast %c2 : tensor<1x{N}xi32> -> tensor<{M}x{N}xi32>")
    a(f"  %off = arith.addi %rb, %cb : tensor<{M}x{N}xi32>")
    a(f"  %xs = blk.splat %x : {ptr} -> tensor<{M}x{N}x{ptr}>")
    a(f"  %xp = blk.addptr %xs, %off : tensor<{M}x{N}x{ptr}>, tensor<{M}x{N}xi32>")
    a(f"  %v = blk.load %xp : tensor<{M}x{N}x{ptr}>")
    isf = ety.startswith("f")
    add = "arith.addf" if isf else "arith.addi"
    if op == "reduce":
        R = N if axis == 0 else M
        a(f"  %s = blk.reduce %v {{axis = {axis} : i32}} : (tensor<{M}x{N}x{ety}>) -> tensor<{R}x{ety}> {{")
        a(f"  ^bb0(%l: {ety}, %r: {ety}):")
        a(f"    %t = {add} %l, %r : {ety}")
        a(f"    blk.reduce.return %t : {ety}")
        a("  }")
        rng = "%rn" if axis == 0 else "%rm"
        a(f"  %ys = blk.splat %y : {ptr} -> tensor<{R}x{ptr}>")
        a(f"  %yp = blk.addptr %ys, {rng} : tensor<{R}x{ptr}>, tensor<{R}xi32>")
        a(f"  blk.store %yp, %s : tensor<{R}x{ptr}>")
        # keepdims-style broadcast back and subtract
        a(f"  %e = blk.expand_dims %s {{axis = {axis} : i32}} : tensor<{R}x{ety}> -> tensor<{'1x'+str(N) if axis==0 else str(M)+'x1'}x{ety}>")
        a(f"  %eb = blk.broadcast %e : tensor<{'1x'+str(N) if axis==0 else str(M)+'x1'}x{ety}> -> tensor<{M}x{N}x{ety}>")
        a(f"  %d = {add} %v, %eb : tensor<{M}x{N}x{ety}>")
        a(f"  %zs = blk.splat %z : {ptr} -> tensor<{M}x{N}x{ptr}>")
        a(f"  %zp = blk.addptr %zs, %off : tensor<{M}x{N}x{ptr}>, tensor<{M}x{N}xi32>")
        a(f"  blk.store %zp, %d : tensor<{M}x{N}x{ptr}>")
    elif op == "trans":
        a(f"  %t = blk.trans %v {{order = array<i32: 1, 0>}} : tensor<{M}x{N}x{ety}> -> tensor<{N}x{M}x{ety}>")
        a(f"  %tr = blk.expand_dims %rn {{axis = 1 : i32}} : tensor<{N}xi32> -> tensor<{N}x1xi32>")
        a(f"  %cM = arith.constant dense<{M}> : tensor<{N}x1xi32>")
        a(f"  %trm = arith.muli %tr, %cM : tensor<{N}x1xi32>")
        a(f"  %tc = blk.expand_dims %rm {{axis = 0 : i32}} : tensor<{M}xi32> -> tensor<1x{M}xi32>")
        a(f"  %trb = blk.broadcast %trm : tensor<{N}x1xi32> -> tensor<{N}x{M}xi32>")
        a(f"  %tcb = blk.broadcast %tc : tensor<1x{M}xi32> -> tensor<{N}x{M}xi32>")
        a(f"  %to = arith.addi %trb, %tcb : tensor<{N}x{M}xi32>")
        a(f"  %ys = blk.splat %y : {ptr} -> tensor<{N}x{M}x{ptr}>")
        a(f"  %yp = blk.addptr %ys, %to : tensor<{N}x{M}x{ptr}>, tensor<{N}x{M}xi32>")
        a(f"  blk.store %yp, %t : tensor<{N}x{M}x{ptr}>")
    elif op == "reshape":
        T = M * N
        a(f"  %f = blk.reshape %v : tensor<{M}x{N}x{ety}> -> tensor<{T}x{ety}>")
        a(f"  %s = blk.reduce %f {{axis = 0 : i32}} : (tensor<{T}x{ety}>) -> {ety} {{")
        a(f"  ^bb0(%l: {ety}, %r: {ety}):")
        a(f"    %t = {add} %l, %r : {ety}")
        a(f"    blk.reduce.return %t : {ety}")
        a("  }")
        a(f"  blk.store %y, %s : {ptr}")
    elif op == "scan":
        a(f"  %s = blk.scan %v {{axis = {axis} : i32, reverse = {'true' if random.random()<0.5 else 'false'}}} : (tensor<{M}x{N}x{ety}>) -> tensor<{M}x{N}x{ety}> {{")
        a(f"  ^bb0(%l: {ety}, %r: {ety}):")
        a(f"    %t = {add} %l, %r : {ety}")
        a(f"    blk.scan.return %t : {ety}")
        a("  }")
        a(f"  %zs = blk.splat %z : {ptr} -> tensor<{M}x{N}x{ptr}>")
        a(f"  %zp = blk.addptr %zs, %off : tensor<{M}x{N}x{ptr}>, tensor<{M}x{N}xi32>")
        a(f"  blk.store %zp, %s : tensor<{M}x{N}x{ptr}>")
    a("  return")
    a("}")
    return "\n".join(L)
sizes = [1, 2, 4, 8, 16, 32, 64, 128]
out = []
specs = []
for i in range(int(sys.argv[2]) if len(sys.argv) > 2 else 40):
    M, N = random.choice(sizes), random.choice(sizes)
    if M * N > 16384: continue
    warps = random.choice([1, 2, 4, 8])
    ety = random.choice(["f32", "f16", "i32", "i64", "f64", "i8"])
    axis = random.choice([0, 1])
    op = random.choice(["reduce", "trans", "reshape", "scan"])
    if op == "scan" and M * N > 4096: op = "reduce"
    k = kernel(i, M, N, warps, ety, axis, op)
    rev = "reverse = true" in k
    out.append(k)
    specs.append(dict(name=f"k{i}", M=M, N=N, warps=warps, ety=ety, axis=axis, op=op, reverse=rev))
print("\n".join(out))
import json
json.dump(specs, open(sys.argv[3], "w"))
