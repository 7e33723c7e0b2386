// An unmasked load past the end is reported at its source line with the
// program id and block element, and the run stops with exit 1.
// RUN: cd %S && not %blkc run %s -k double_nomask --arg x_ptr=iota:f32:10 --arg out=zeros:f32:16 --arg n=10 --print out > %t.out 2> %t.err
// RUN: FileCheck %s --input-file=%t.err
// RUN: count 0 < %t.out
// CHECK: Inputs/trap.blk:5:13: error: out-of-bounds load of x_ptr[10] (buffer has 10 elements) in kernel `double_nomask`, program (1,0,0), block element [2]
// CHECK-NEXT: {{^    5 \|     let v = load\(x_ptr \+ offsets\);$}}
// CHECK-NEXT: {{^      \|             \^$}}
// The same from the blk source through IRGen, before and after optimisation:
// RUN: cd %S && not %blkc run Inputs/trap.blk -k double_nomask -D BLOCK=8 --arg x_ptr=iota:f32:10 --arg out=zeros:f32:16 --arg n=10 2>&1 | FileCheck %s
// RUN: cd %S && not %blkc run Inputs/trap.blk -k double_nomask -D BLOCK=8 --opt --arg x_ptr=iota:f32:10 --arg out=zeros:f32:16 --arg n=10 2>&1 | FileCheck %s
// The same with programs on threads: still the first bad program reported.
// RUN: cd %S && not %blkc run %s -k double_nomask --threads 2 --arg x_ptr=iota:f32:10 --arg out=zeros:f32:16 --arg n=10 2>&1 | FileCheck %s --check-prefix=THREADS
// THREADS: Inputs/trap.blk:5:13: error: out-of-bounds load of x_ptr[10] (buffer has 10 elements) in kernel `double_nomask`, program (1,0,0), block element [2]
// A big enough buffer passes; the store then goes out of bounds of `out`.
// RUN: cd %S && not %blkc run %s -k double_nomask --arg x_ptr=iota:f32:16 --arg out=zeros:f32:10 --arg n=10 2>&1 | FileCheck %s --check-prefix=STORE
// STORE: Inputs/trap.blk:6:5: error: out-of-bounds store of out[10] (buffer has 10 elements) in kernel `double_nomask`, program (1,0,0), block element [2]

#l5 = loc("Inputs/trap.blk":5:13)
#l6 = loc("Inputs/trap.blk":6:5)
func.func @double_nomask__BLOCK_8__w4(%x: !blk.ptr<f32>, %out: !blk.ptr<f32>, %n: i32)
    attributes {blk.kernel = "double_nomask", blk.config = {BLOCK = 8 : i64},
                blk.param_names = ["x_ptr", "out", "n"],
                blk.grid = "[{\"op\": \"cdiv\", \"args\": [{\"param\": 2}, {\"int\": 8}]}]"} {
  %pid = blk.program_id 0
  %c8 = arith.constant 8 : i32
  %base = arith.muli %pid, %c8 : i32
  %r = blk.make_range 0, 8 : tensor<8xi32>
  %bs = blk.splat %base : i32 -> tensor<8xi32>
  %offs = arith.addi %bs, %r : tensor<8xi32>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<8x!blk.ptr<f32>>
  %xp = blk.addptr %xs, %offs : tensor<8x!blk.ptr<f32>>, tensor<8xi32>
  %v = blk.load %xp : tensor<8x!blk.ptr<f32>> loc(#l5)
  %two = arith.constant dense<2.0> : tensor<8xf32>
  %d = arith.mulf %v, %two : tensor<8xf32>
  %os = blk.splat %out : !blk.ptr<f32> -> tensor<8x!blk.ptr<f32>>
  %op = blk.addptr %os, %offs : tensor<8x!blk.ptr<f32>>, tensor<8xi32>
  blk.store %op, %d : tensor<8x!blk.ptr<f32>> loc(#l6)
  return
}
