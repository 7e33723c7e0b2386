// A 16-element atomic_add on 128 threads: each element is held by 8 threads,
// only its owner updates memory, and every copy gets the owner's old value
// back through shared memory.
// RUN: blk-codegen-test %s --emit=ptx > %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: FileCheck %s < %t.ptx

// CHECK-COUNT-1: atom.global.add.u32
// CHECK-NOT: bar.sync
// CHECK: st.shared.u32
// CHECK: bar.sync
// CHECK: ld.shared.u32
// CHECK-NOT: ld.local

func.func @atomic_old__w4(%cnt: !blk.ptr<i32>, %old: !blk.ptr<i32>)
    attributes {blk.kernel = "atomic_old", blk.num_warps = 4 : i32} {
  %r = blk.make_range 0, 16 : tensor<16xi32>
  %cs = blk.splat %cnt : !blk.ptr<i32> -> tensor<16x!blk.ptr<i32>>
  %cp = blk.addptr %cs, %r : tensor<16x!blk.ptr<i32>>, tensor<16xi32>
  %one = arith.constant dense<1> : tensor<16xi32>
  %o = blk.atomic_rmw add %cp, %one : tensor<16x!blk.ptr<i32>>
  %r2 = arith.addi %r, %r : tensor<16xi32>
  %os = blk.splat %old : !blk.ptr<i32> -> tensor<16x!blk.ptr<i32>>
  %op = blk.addptr %os, %r : tensor<16x!blk.ptr<i32>>, tensor<16xi32>
  %v = arith.addi %o, %r2 : tensor<16xi32>
  blk.store %op, %v : tensor<16x!blk.ptr<i32>>
  return
}
