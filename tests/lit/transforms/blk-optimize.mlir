// The full blkc optimisation pipeline (docs/ir.md) on a 1-D kernel with a
// helper call, redundant shape ops and loop-invariant pointer arithmetic.
// RUN: %blk-opt %s -blk-optimize | FileCheck %s
// RUN: %blk-opt %s -blk-optimize | %blk-opt -verify-each

// CHECK-NOT: func.func private @offsets
// CHECK-LABEL: func.func @kernel
// CHECK-NOT: call
// CHECK: blk.program_id 0
// CHECK: blk.make_range 0, 128
// CHECK: scf.for
// CHECK-NOT: blk.make_range
// CHECK: blk.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x!blk.ptr<f32>>
// CHECK: scf.yield
// CHECK-NOT: blk.make_range
// CHECK-NOT: blk.program_id
// CHECK: blk.store
func.func private @offsets() -> tensor<128xi32> {
  %pid = blk.program_id 0
  %c128 = arith.constant 128 : i32
  %base = arith.muli %pid, %c128 : i32
  %b = blk.splat %base : i32 -> tensor<128xi32>
  %r = blk.make_range 0, 128 : tensor<128xi32>
  %o = arith.addi %b, %r : tensor<128xi32>
  return %o : tensor<128xi32>
}

func.func @kernel(%x: !blk.ptr<f32>, %out: !blk.ptr<f32>, %n: i32, %iters: i32)
    attributes {blk.kernel = "kernel"} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f32
  %zs = blk.splat %zero : f32 -> tensor<128xf32>
  %acc = scf.for %i = %c0 to %iters step %c1 iter_args(%a = %zs) -> (tensor<128xf32>) : i32 {
    %offs = func.call @offsets() : () -> tensor<128xi32>
    %offs2 = func.call @offsets() : () -> tensor<128xi32>
    %ns = blk.splat %n : i32 -> tensor<128xi32>
    %m = arith.cmpi slt, %offs, %ns : tensor<128xi32>
    %xs = blk.splat %x : !blk.ptr<f32> -> tensor<128x!blk.ptr<f32>>
    %p = blk.addptr %xs, %offs2 : tensor<128x!blk.ptr<f32>>, tensor<128xi32>
    %v = blk.load %p, %m, %zs : tensor<128x!blk.ptr<f32>>
    %s = arith.addf %a, %v : tensor<128xf32>
    scf.yield %s : tensor<128xf32>
  }
  %offs = func.call @offsets() : () -> tensor<128xi32>
  %os = blk.splat %out : !blk.ptr<f32> -> tensor<128x!blk.ptr<f32>>
  %q = blk.addptr %os, %offs : tensor<128x!blk.ptr<f32>>, tensor<128xi32>
  blk.store %q, %acc : tensor<128x!blk.ptr<f32>>
  return
}
