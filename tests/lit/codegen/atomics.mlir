// Masked atomic_add on a block of pointers (one atom per element, inside
// the mask) and a scalar fadd of a reduction done by thread 0 only.
// RUN: blk-codegen-test %s --emit=ptx > %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: FileCheck %s < %t.ptx

// Neither old value is read, so both are `red` (fire-and-forget), not
// `atom`; atomics-replicated.mlir reads its old values and keeps `atom`.
// CHECK-NOT: atom.global
// CHECK-COUNT-8: red.global.add.u32
// CHECK: red.global.add.f32
// CHECK-NOT: atom.global
// CHECK-NOT: ld.local

func.func @hist__w4(%out: !blk.ptr<i32>, %total: !blk.ptr<f32>, %n: i32)
    attributes {blk.kernel = "hist", blk.num_warps = 4 : i32} {
  %pid = blk.program_id 0
  %c1024 = arith.constant 1024 : i32
  %base = arith.muli %pid, %c1024 : i32
  %r = blk.make_range 0, 1024 : tensor<1024xi32>
  %bs = blk.splat %base : i32 -> tensor<1024xi32>
  %i = arith.addi %bs, %r : tensor<1024xi32>
  %ns = blk.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %i, %ns : tensor<1024xi32>
  %c8 = arith.constant dense<8> : tensor<1024xi32>
  %bin = arith.remsi %i, %c8 : tensor<1024xi32>
  %os = blk.splat %out : !blk.ptr<i32> -> tensor<1024x!blk.ptr<i32>>
  %op = blk.addptr %os, %bin : tensor<1024x!blk.ptr<i32>>, tensor<1024xi32>
  %one = arith.constant dense<1> : tensor<1024xi32>
  %old = blk.atomic_rmw add %op, %one, %mask : tensor<1024x!blk.ptr<i32>>
  %f = arith.sitofp %i : tensor<1024xi32> to tensor<1024xf32>
  %zero = arith.constant dense<0.0> : tensor<1024xf32>
  %fm = arith.select %mask, %f, %zero : tensor<1024xi1>, tensor<1024xf32>
  %s = blk.reduce %fm {axis = 0 : i32} : (tensor<1024xf32>) -> f32 {
  ^bb0(%l: f32, %rr: f32):
    %t = arith.addf %l, %rr : f32
    blk.reduce.return %t : f32
  }
  %o = blk.atomic_rmw fadd %total, %s : !blk.ptr<f32>
  return
}
