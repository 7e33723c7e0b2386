// CSE merges identical pure blk ops and loads with no write between them;
// stores, atomics, prints and volatile loads are never merged.
// RUN: %blk-opt %s -cse -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @pure_ops
// CHECK-COUNT-1: blk.make_range
// CHECK-COUNT-1: blk.splat
// CHECK-COUNT-1: blk.addptr
// CHECK-NOT: blk.make_range
// CHECK-NOT: blk.splat
// CHECK-NOT: blk.addptr
func.func @pure_ops(%p: !blk.ptr<f32>) -> (tensor<64x!blk.ptr<f32>>, tensor<64x!blk.ptr<f32>>) {
  %r0 = blk.make_range 0, 64 : tensor<64xi32>
  %r1 = blk.make_range 0, 64 : tensor<64xi32>
  %s0 = blk.splat %p : !blk.ptr<f32> -> tensor<64x!blk.ptr<f32>>
  %s1 = blk.splat %p : !blk.ptr<f32> -> tensor<64x!blk.ptr<f32>>
  %a0 = blk.addptr %s0, %r0 : tensor<64x!blk.ptr<f32>>, tensor<64xi32>
  %a1 = blk.addptr %s1, %r1 : tensor<64x!blk.ptr<f32>>, tensor<64xi32>
  return %a0, %a1 : tensor<64x!blk.ptr<f32>>, tensor<64x!blk.ptr<f32>>
}

// -----

// CHECK-LABEL: func.func @program_ids
// CHECK: %[[A:.*]] = blk.program_id 0
// CHECK-NEXT: %[[B:.*]] = blk.program_id 1
// CHECK-NEXT: return %[[A]], %[[A]], %[[B]]
func.func @program_ids() -> (i32, i32, i32) {
  %a = blk.program_id 0
  %b = blk.program_id 0
  %c = blk.program_id 1
  return %a, %b, %c : i32, i32, i32
}

// -----

// CHECK-LABEL: func.func @loads
// CHECK: %[[A:.*]] = blk.load %{{.*}} : !blk.ptr<f32>
// CHECK-NEXT: blk.store
// CHECK-NEXT: %[[C:.*]] = blk.load %{{.*}} : !blk.ptr<f32>
// CHECK-NEXT: %[[V0:.*]] = blk.load %{{.*}} volatile : !blk.ptr<f32>
// CHECK-NEXT: %[[V1:.*]] = blk.load %{{.*}} volatile : !blk.ptr<f32>
// CHECK-NEXT: return %[[A]], %[[A]], %[[C]], %[[V0]], %[[V1]]
func.func @loads(%p: !blk.ptr<f32>, %x: f32) -> (f32, f32, f32, f32, f32) {
  %a = blk.load %p : !blk.ptr<f32>
  %b = blk.load %p : !blk.ptr<f32>
  blk.store %p, %x : !blk.ptr<f32>
  %c = blk.load %p : !blk.ptr<f32>
  %v0 = blk.load %p volatile : !blk.ptr<f32>
  %v1 = blk.load %p volatile : !blk.ptr<f32>
  return %a, %b, %c, %v0, %v1 : f32, f32, f32, f32, f32
}

// -----

// CHECK-LABEL: func.func @side_effects
// CHECK-COUNT-2: blk.atomic_rmw add
// CHECK-COUNT-2: blk.print "p"
// CHECK-COUNT-2: blk.store
func.func @side_effects(%p: !blk.ptr<i32>, %x: i32) -> (i32, i32) {
  %a = blk.atomic_rmw add %p, %x : !blk.ptr<i32>
  %b = blk.atomic_rmw add %p, %x : !blk.ptr<i32>
  blk.print "p"
  blk.print "p"
  blk.store %p, %x : !blk.ptr<i32>
  blk.store %p, %x : !blk.ptr<i32>
  return %a, %b : i32, i32
}

// -----

// Identical reductions (same combiner) merge.
// CHECK-LABEL: func.func @reduce
// CHECK-COUNT-1: blk.reduce
// CHECK-NOT: blk.reduce %
func.func @reduce(%x: tensor<64xf32>) -> (f32, f32) {
  %a = blk.reduce %x {axis = 0 : i32} : (tensor<64xf32>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    blk.reduce.return %s : f32
  }
  %b = blk.reduce %x {axis = 0 : i32} : (tensor<64xf32>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %s = arith.addf %l, %r : f32
    blk.reduce.return %s : f32
  }
  return %a, %b : f32, f32
}
