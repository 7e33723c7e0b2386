// SCCP propagates constants through blk folders and scf control flow.
// RUN: %blk-opt %s -sccp -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @through_if
// CHECK: %[[C:.*]] = arith.constant dense<4> : tensor<16xi32>
// CHECK: return %[[C]]
func.func @through_if(%b: i1) -> tensor<16xi32> {
  %c4 = arith.constant 4 : i32
  %r = scf.if %b -> (tensor<16xi32>) {
    %s = blk.splat %c4 : i32 -> tensor<16xi32>
    scf.yield %s : tensor<16xi32>
  } else {
    %t = arith.constant dense<4> : tensor<16xi32>
    scf.yield %t : tensor<16xi32>
  }
  return %r : tensor<16xi32>
}

// -----

// CHECK-LABEL: func.func @dead_branch
// CHECK-NOT: blk.load
// CHECK: return
func.func @dead_branch(%p: !blk.ptr<f32>) -> f32 {
  %false = arith.constant false
  %zero = arith.constant 0.0 : f32
  %r = scf.if %false -> (f32) {
    %v = blk.load %p : !blk.ptr<f32>
    scf.yield %v : f32
  } else {
    scf.yield %zero : f32
  }
  return %r : f32
}
