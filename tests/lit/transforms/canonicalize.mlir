// Folders and canonicalization patterns of the blk ops.
// RUN: %blk-opt %s -canonicalize -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @splat_of_constant
// CHECK: %[[C:.*]] = arith.constant dense<2.000000e+00> : tensor<128xf32>
// CHECK-NOT: blk.splat
// CHECK: return %[[C]]
func.func @splat_of_constant() -> tensor<128xf32> {
  %c = arith.constant 2.0 : f32
  %s = blk.splat %c : f32 -> tensor<128xf32>
  return %s : tensor<128xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_of_broadcast
// CHECK-SAME: (%[[X:.*]]: tensor<1x1xf32>)
// CHECK: %[[B:.*]] = blk.broadcast %[[X]] : tensor<1x1xf32> -> tensor<16x32xf32>
// CHECK-NOT: blk.broadcast
// CHECK: return %[[B]]
func.func @broadcast_of_broadcast(%x: tensor<1x1xf32>) -> tensor<16x32xf32> {
  %a = blk.broadcast %x : tensor<1x1xf32> -> tensor<1x32xf32>
  %b = blk.broadcast %a : tensor<1x32xf32> -> tensor<16x32xf32>
  return %b : tensor<16x32xf32>
}

// -----

// CHECK-LABEL: func.func @broadcast_of_splat
// CHECK-SAME: (%[[S:.*]]: i32)
// CHECK: %[[R:.*]] = blk.splat %[[S]] : i32 -> tensor<16x32xi32>
// CHECK-NEXT: return %[[R]]
func.func @broadcast_of_splat(%s: i32) -> tensor<16x32xi32> {
  %a = blk.splat %s : i32 -> tensor<1x32xi32>
  %b = blk.broadcast %a : tensor<1x32xi32> -> tensor<16x32xi32>
  return %b : tensor<16x32xi32>
}

// -----

// CHECK-LABEL: func.func @broadcast_same_type
// CHECK-SAME: (%[[X:.*]]: tensor<4x8xf32>)
// CHECK-NEXT: return %[[X]]
func.func @broadcast_same_type(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %b = blk.broadcast %x : tensor<4x8xf32> -> tensor<4x8xf32>
  return %b : tensor<4x8xf32>
}

// -----

// CHECK-LABEL: func.func @addptr_zero
// CHECK-SAME: (%[[P:.*]]: tensor<64x!blk.ptr<f32>>, %[[Q:.*]]: !blk.ptr<i8>)
// CHECK-NOT: blk.addptr
// CHECK: return %[[P]], %[[Q]]
func.func @addptr_zero(%p: tensor<64x!blk.ptr<f32>>, %q: !blk.ptr<i8>) -> (tensor<64x!blk.ptr<f32>>, !blk.ptr<i8>) {
  %z = arith.constant dense<0> : tensor<64xi32>
  %a = blk.addptr %p, %z : tensor<64x!blk.ptr<f32>>, tensor<64xi32>
  %c0 = arith.constant 0 : i64
  %b = blk.addptr %q, %c0 : !blk.ptr<i8>, i64
  return %a, %b : tensor<64x!blk.ptr<f32>>, !blk.ptr<i8>
}

// -----

// CHECK-LABEL: func.func @addptr_nonzero_kept
// CHECK: blk.addptr
func.func @addptr_nonzero_kept(%q: !blk.ptr<i8>) -> !blk.ptr<i8> {
  %c1 = arith.constant 1 : i32
  %b = blk.addptr %q, %c1 : !blk.ptr<i8>, i32
  return %b : !blk.ptr<i8>
}

// -----

// expand_dims then reshape back is the identity; reshape chains collapse.
// CHECK-LABEL: func.func @expand_dims_reshape
// CHECK-SAME: (%[[X:.*]]: tensor<64xf32>)
// CHECK: %[[R:.*]] = blk.reshape %[[X]] : tensor<64xf32> -> tensor<8x8xf32>
// CHECK-NOT: blk.expand_dims
// CHECK: return %[[X]], %[[R]]
func.func @expand_dims_reshape(%x: tensor<64xf32>) -> (tensor<64xf32>, tensor<8x8xf32>) {
  %e = blk.expand_dims %x {axis = 0 : i32} : tensor<64xf32> -> tensor<1x64xf32>
  %r = blk.reshape %e : tensor<1x64xf32> -> tensor<64xf32>
  %e2 = blk.expand_dims %x {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
  %r2 = blk.reshape %e2 : tensor<64x1xf32> -> tensor<4x16xf32>
  %r3 = blk.reshape %r2 : tensor<4x16xf32> -> tensor<8x8xf32>
  return %r, %r3 : tensor<64xf32>, tensor<8x8xf32>
}

// -----

// CHECK-LABEL: func.func @shape_ops_of_splat
// CHECK-SAME: (%[[S:.*]]: f16)
// CHECK-DAG: blk.splat %[[S]] : f16 -> tensor<1x64xf16>
// CHECK-DAG: blk.splat %[[S]] : f16 -> tensor<8x8xf16>
// CHECK-NOT: blk.expand_dims
// CHECK-NOT: blk.reshape
func.func @shape_ops_of_splat(%s: f16) -> (tensor<1x64xf16>, tensor<8x8xf16>) {
  %a = blk.splat %s : f16 -> tensor<64xf16>
  %e = blk.expand_dims %a {axis = 0 : i32} : tensor<64xf16> -> tensor<1x64xf16>
  %r = blk.reshape %a : tensor<64xf16> -> tensor<8x8xf16>
  return %e, %r : tensor<1x64xf16>, tensor<8x8xf16>
}

// -----

// CHECK-LABEL: func.func @trans_twice
// CHECK-SAME: (%[[X:.*]]: tensor<4x8x16xf32>)
// CHECK: %[[T:.*]] = blk.trans %[[X]] {order = array<i32: 2, 0, 1>} : tensor<4x8x16xf32> -> tensor<16x4x8xf32>
// CHECK: return %[[X]], %[[T]]
func.func @trans_twice(%x: tensor<4x8x16xf32>) -> (tensor<4x8x16xf32>, tensor<16x4x8xf32>) {
  %a = blk.trans %x {order = array<i32: 1, 0, 2>} : tensor<4x8x16xf32> -> tensor<8x4x16xf32>
  %b = blk.trans %a {order = array<i32: 1, 0, 2>} : tensor<8x4x16xf32> -> tensor<4x8x16xf32>
  %c = blk.trans %a {order = array<i32: 2, 1, 0>} : tensor<8x4x16xf32> -> tensor<16x4x8xf32>
  return %b, %c : tensor<4x8x16xf32>, tensor<16x4x8xf32>
}

// -----

// A mask true by construction (arange(0, 128) < 128) disappears from the
// load, together with `other`; the store's mask too.
// CHECK-LABEL: func.func @mask_true_by_construction
// CHECK-SAME: (%[[P:.*]]: tensor<128x!blk.ptr<f32>>)
// CHECK-NOT: arith.cmpi
// CHECK: %[[V:.*]] = blk.load %[[P]] : tensor<128x!blk.ptr<f32>>
// CHECK: blk.store %[[P]], %[[V]] : tensor<128x!blk.ptr<f32>>
func.func @mask_true_by_construction(%p: tensor<128x!blk.ptr<f32>>) {
  %r = blk.make_range 0, 128 : tensor<128xi32>
  %n = arith.constant dense<128> : tensor<128xi32>
  %m = arith.cmpi slt, %r, %n : tensor<128xi32>
  %o = arith.constant dense<0.0> : tensor<128xf32>
  %v = blk.load %p, %m, %o : tensor<128x!blk.ptr<f32>>
  blk.store %p, %v, %m : tensor<128x!blk.ptr<f32>>
  return
}

// -----

// Undecided comparisons of a range stay.
// CHECK-LABEL: func.func @mask_not_decided
// CHECK: arith.cmpi slt
// CHECK: blk.load %{{.*}}, %{{.*}} :
func.func @mask_not_decided(%p: tensor<128x!blk.ptr<f32>>) -> tensor<128xf32> {
  %r = blk.make_range 0, 128 : tensor<128xi32>
  %n = arith.constant dense<100> : tensor<128xi32>
  %m = arith.cmpi slt, %r, %n : tensor<128xi32>
  %v = blk.load %p, %m : tensor<128x!blk.ptr<f32>>
  return %v : tensor<128xf32>
}

// -----

// A constant-false mask: the load becomes `other` (or zero when `other` is
// absent, the value being undefined), the store is erased.
// CHECK-LABEL: func.func @mask_false
// CHECK-SAME: (%[[P:.*]]: tensor<128x!blk.ptr<f32>>, %[[O:.*]]: tensor<128xf32>)
// CHECK-DAG: %[[Z:.*]] = arith.constant dense<0.000000e+00> : tensor<128xf32>
// CHECK-NOT: blk.load
// CHECK-NOT: blk.store
// CHECK: return %[[O]], %[[Z]]
func.func @mask_false(%p: tensor<128x!blk.ptr<f32>>, %o: tensor<128xf32>) -> (tensor<128xf32>, tensor<128xf32>) {
  %f = arith.constant false
  %m = blk.splat %f : i1 -> tensor<128xi1>
  %v = blk.load %p, %m, %o : tensor<128x!blk.ptr<f32>>
  %w = blk.load %p, %m : tensor<128x!blk.ptr<f32>>
  blk.store %p, %v, %m : tensor<128x!blk.ptr<f32>>
  return %v, %w : tensor<128xf32>, tensor<128xf32>
}

// -----

// Range comparisons with a bound outside the range decide every element.
// CHECK-LABEL: func.func @range_compare_constants
// CHECK-DAG: arith.constant dense<true> : tensor<64xi1>
// CHECK-DAG: arith.constant dense<false> : tensor<64xi1>
// CHECK-NOT: arith.cmpi
func.func @range_compare_constants() -> (tensor<64xi1>, tensor<64xi1>, tensor<64xi1>) {
  %r = blk.make_range 64, 128 : tensor<64xi32>
  %c64 = arith.constant dense<64> : tensor<64xi32>
  %c200 = arith.constant dense<200> : tensor<64xi32>
  %a = arith.cmpi sge, %r, %c64 : tensor<64xi32>
  %b = arith.cmpi eq, %r, %c200 : tensor<64xi32>
  %c = arith.cmpi ult, %r, %c64 : tensor<64xi32>
  return %a, %b, %c : tensor<64xi1>, tensor<64xi1>, tensor<64xi1>
}

// -----

// Unused pure blk ops are erased; stores, prints and asserts are kept.
// CHECK-LABEL: func.func @dead_code
// CHECK-NOT: blk.make_range
// CHECK-NOT: blk.program_id
// CHECK: blk.print "x"
// CHECK: blk.assert
// CHECK: blk.atomic_rmw add
func.func @dead_code(%p: !blk.ptr<i32>, %c: i1) {
  %r = blk.make_range 0, 16 : tensor<16xi32>
  %pid = blk.program_id 0
  %v = blk.load %p : !blk.ptr<i32>
  blk.print "x"
  blk.assert %c, "m", "f.blk", 3 : i1
  %old = blk.atomic_rmw add %p, %v : !blk.ptr<i32>
  return
}
