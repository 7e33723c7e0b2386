// Usage errors name the parameter and exit with 2.
// RUN: not %blkc run %s -k scale --arg x=iota:f32:4 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: blkc: error: missing argument `s`: pass --arg s=VALUE
// RUN: not %blkc run %s -k scale --arg x=iota:f32:4 --arg s=2 --arg y=1 2>&1 | FileCheck %s --check-prefix=EXTRA
// EXTRA: blkc: error: kernel `scale` has no parameter `y`
// RUN: not %blkc run %s -k scale --arg x=iota:i32:4 --arg s=2 2>&1 | FileCheck %s --check-prefix=TYPE
// TYPE: blkc: error: argument `x`: type mismatch: the parameter is *f32, the spec gives i32
// RUN: not %blkc run %s -k scale --arg x=ones:f32:4 --arg s=2 2>&1 | FileCheck %s --check-prefix=SPEC
// SPEC: blkc: error: argument `x`: unknown buffer spec `ones` (expected zeros:T:N, iota:T:N, fill:T:N:V, rand:T:N[:SEED], empty:T:N or file:T:PATH)
// RUN: not %blkc run %s -k scale --arg x=iota:f32 --arg s=2 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: blkc: error: argument `x`: expected a buffer spec
// RUN: not %blkc run %s -k scale --arg x=iota:f32:4 --arg s=two 2>&1 | FileCheck %s --check-prefix=SCALAR
// SCALAR: blkc: error: argument `s`: expected a f32 literal, got `two`
// RUN: not %blkc run %s -k scale --arg x=iota:f32:4 --arg s=2 2>&1 | FileCheck %s --check-prefix=GRID
// GRID: blkc: error: kernel `scale` has no @grid: pass --grid X[,Y[,Z]]
// RUN: not %blkc run %s -k nosuch --grid 1 --arg x=iota:f32:4 2>&1 | FileCheck %s --check-prefix=KERNEL
// KERNEL: blkc: error: no kernel `nosuch` in
// RUN: not %blkc run %s -k scale --grid 1 --arg x=iota:f32:4 --arg s=2 --print s 2>&1 | FileCheck %s --check-prefix=PRINT
// PRINT: blkc: error: --print s: not a pointer parameter of `scale`
// RUN: %blkc run %s -k scale --grid 1 --arg x=iota:f32:4 --arg s=2 --arg x=zeros:f32:4; test $? = 2
// RUN: %blkc run %s -k scale --grid 1 --arg x=iota:f32:4 --arg s=-0.5 --print x | FileCheck %s --check-prefix=OK
// OK: x = [-0, -0.5, -1, -1.5]

func.func @scale(%x: !blk.ptr<f32>, %s: f32)
    attributes {blk.kernel = "scale", blk.param_names = ["x", "s"]} {
  %r = blk.make_range 0, 4 : tensor<4xi32>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<4x!blk.ptr<f32>>
  %p = blk.addptr %xs, %r : tensor<4x!blk.ptr<f32>>, tensor<4xi32>
  %v = blk.load %p : tensor<4x!blk.ptr<f32>>
  %ss = blk.splat %s : f32 -> tensor<4xf32>
  %m = arith.mulf %v, %ss : tensor<4xf32>
  blk.store %p, %m : tensor<4x!blk.ptr<f32>>
  return
}

// Errors in blk source are compile errors (exit 1), shown as `blkc check` would.
// RUN: %blkc run %S/Inputs/bad.blk -k bad --grid 1 --arg x=zeros:f32:8 2> %t.err; test $? = 1
// RUN: FileCheck %s --check-prefix=SOURCE --input-file=%t.err
// SOURCE: bad.blk:3:22: error:
// SOURCE-NOT: error
// RUN: not %blkc run %S/Inputs/nosuch.blk -k bad 2>&1 | FileCheck %s --check-prefix=NOFILE
// NOFILE: blkc: error: cannot read `{{.*}}nosuch.blk`
