// LICM hoists pure blk ops out of scf.for; memory ops stay in the loop.
// RUN: %blk-opt %s -loop-invariant-code-motion -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @hoist
// CHECK: blk.make_range
// CHECK: blk.splat
// CHECK: blk.addptr
// CHECK: scf.for
// CHECK-NOT: blk.make_range
// CHECK: blk.load
// CHECK: arith.addf
// CHECK: scf.yield
func.func @hoist(%p: !blk.ptr<f32>, %n: i32) -> tensor<64xf32> {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %z = arith.constant dense<0.0> : tensor<64xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %z) -> (tensor<64xf32>) : i32 {
    %range = blk.make_range 0, 64 : tensor<64xi32>
    %ps = blk.splat %p : !blk.ptr<f32> -> tensor<64x!blk.ptr<f32>>
    %ptrs = blk.addptr %ps, %range : tensor<64x!blk.ptr<f32>>, tensor<64xi32>
    %v = blk.load %ptrs : tensor<64x!blk.ptr<f32>>
    %s = arith.addf %acc, %v : tensor<64xf32>
    scf.yield %s : tensor<64xf32>
  }
  return %r : tensor<64xf32>
}

// -----

// A store and a print inside the loop are not hoisted even though their
// operands are loop-invariant.
// CHECK-LABEL: func.func @keep_effects
// CHECK: scf.for
// CHECK-NEXT: blk.store
// CHECK-NEXT: blk.print
func.func @keep_effects(%p: !blk.ptr<f32>, %x: f32, %n: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  scf.for %i = %c0 to %n step %c1 : i32 {
    blk.store %p, %x : !blk.ptr<f32>
    blk.print "x"
  }
  return
}
