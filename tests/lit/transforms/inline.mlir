// The inliner inlines calls to functions made of blk ops.
// RUN: %blk-opt %s -inline -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @kernel
// CHECK-NOT: call
// CHECK: blk.make_range 0, 32
// CHECK: blk.load
func.func private @helper(%p: !blk.ptr<f32>) -> tensor<32xf32> {
  %r = blk.make_range 0, 32 : tensor<32xi32>
  %ps = blk.splat %p : !blk.ptr<f32> -> tensor<32x!blk.ptr<f32>>
  %a = blk.addptr %ps, %r : tensor<32x!blk.ptr<f32>>, tensor<32xi32>
  %v = blk.load %a : tensor<32x!blk.ptr<f32>>
  return %v : tensor<32xf32>
}

func.func @kernel(%p: !blk.ptr<f32>) -> tensor<32xf32> {
  %v = call @helper(%p) : (!blk.ptr<f32>) -> tensor<32xf32>
  return %v : tensor<32xf32>
}

// -----

// Region ops (reduce) inline too.
// CHECK-LABEL: func.func @sum_kernel
// CHECK-NOT: call
// CHECK: blk.reduce
func.func private @sum(%x: tensor<16xf32>) -> f32 {
  %s = blk.reduce %x {axis = 0 : i32} : (tensor<16xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    blk.reduce.return %c : f32
  }
  return %s : f32
}

func.func @sum_kernel(%x: tensor<16xf32>) -> f32 {
  %s = call @sum(%x) : (tensor<16xf32>) -> f32
  return %s : f32
}
