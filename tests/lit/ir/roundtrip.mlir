// Every blk op prints in its custom form and parses back to the same IR.
// RUN: %blk-opt %s | %blk-opt | FileCheck %s
// RUN: %blk-opt %s --mlir-print-op-generic | %blk-opt | FileCheck %s

// CHECK-LABEL: func.func @ids
func.func @ids() -> (i32, i32) {
  // CHECK: blk.program_id 0
  %0 = blk.program_id 0
  // CHECK: blk.num_programs 2
  %1 = blk.num_programs 2
  return %0, %1 : i32, i32
}

// CHECK-LABEL: func.func @shapes
func.func @shapes(%s: f32, %t: tensor<1x64xf32>, %u: tensor<32x64xf16>) {
  // CHECK: blk.make_range 0, 128 : tensor<128xi32>
  %r = blk.make_range 0, 128 : tensor<128xi32>
  // CHECK: blk.splat %{{.*}} : f32 -> tensor<64xf32>
  %a = blk.splat %s : f32 -> tensor<64xf32>
  // CHECK: blk.broadcast %{{.*}} : tensor<1x64xf32> -> tensor<16x64xf32>
  %b = blk.broadcast %t : tensor<1x64xf32> -> tensor<16x64xf32>
  // CHECK: blk.expand_dims %{{.*}} {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
  %c = blk.expand_dims %a {axis = 1 : i32} : tensor<64xf32> -> tensor<64x1xf32>
  // CHECK: blk.reshape %{{.*}} : tensor<16x64xf32> -> tensor<1024xf32>
  %d = blk.reshape %b : tensor<16x64xf32> -> tensor<1024xf32>
  // CHECK: blk.trans %{{.*}} {order = array<i32: 1, 0>} : tensor<32x64xf16> -> tensor<64x32xf16>
  %e = blk.trans %u {order = array<i32: 1, 0>} : tensor<32x64xf16> -> tensor<64x32xf16>
  return
}

// CHECK-LABEL: func.func @memory
func.func @memory(%p: !blk.ptr<f32>, %q: !blk.ptr<i32>, %off: tensor<128xi32>,
                  %m: tensor<128xi1>, %o: tensor<128xf32>, %i: i32, %b: i1) {
  // CHECK: %[[P:.*]] = blk.splat %{{.*}} : !blk.ptr<f32> -> tensor<128x!blk.ptr<f32>>
  %ps = blk.splat %p : !blk.ptr<f32> -> tensor<128x!blk.ptr<f32>>
  // CHECK: %[[A:.*]] = blk.addptr %[[P]], %{{.*}} : tensor<128x!blk.ptr<f32>>, tensor<128xi32>
  %a = blk.addptr %ps, %off : tensor<128x!blk.ptr<f32>>, tensor<128xi32>
  // CHECK: blk.load %[[A]] : tensor<128x!blk.ptr<f32>>
  %l0 = blk.load %a : tensor<128x!blk.ptr<f32>>
  // CHECK: blk.load %[[A]], %{{.*}} : tensor<128x!blk.ptr<f32>>
  %l1 = blk.load %a, %m : tensor<128x!blk.ptr<f32>>
  // CHECK: blk.load %[[A]], %{{.*}}, %{{.*}} cache = cg evict = evict_last volatile : tensor<128x!blk.ptr<f32>>
  %l2 = blk.load %a, %m, %o cache = cg evict = evict_last volatile : tensor<128x!blk.ptr<f32>>
  // CHECK: blk.load %{{.*}} : !blk.ptr<i32>
  %s = blk.load %q : !blk.ptr<i32>
  // CHECK: blk.load %{{.*}}, %{{.*}}, %{{.*}} : !blk.ptr<i32>
  %s2 = blk.load %q, %b, %i : !blk.ptr<i32>
  // CHECK: blk.store %[[A]], %{{.*}}, %{{.*}} : tensor<128x!blk.ptr<f32>>
  blk.store %a, %l1, %m : tensor<128x!blk.ptr<f32>>
  // CHECK: blk.store %[[A]], %{{.*}} cache = wt : tensor<128x!blk.ptr<f32>>
  blk.store %a, %l0 cache = wt : tensor<128x!blk.ptr<f32>>
  // CHECK: blk.atomic_rmw fadd %[[A]], %{{.*}}, %{{.*}} : tensor<128x!blk.ptr<f32>>
  %r0 = blk.atomic_rmw fadd %a, %l0, %m : tensor<128x!blk.ptr<f32>>
  // CHECK: blk.atomic_rmw and %{{.*}}, %{{.*}} : !blk.ptr<i32>
  %r1 = blk.atomic_rmw and %q, %i : !blk.ptr<i32>
  // CHECK: blk.atomic_cas %{{.*}}, %{{.*}}, %{{.*}} : !blk.ptr<i32>
  %r2 = blk.atomic_cas %q, %i, %s : !blk.ptr<i32>
  // CHECK: blk.addptr %{{.*}}, %{{.*}} : !blk.ptr<i32>, i32
  %qq = blk.addptr %q, %i : !blk.ptr<i32>, i32
  // CHECK: blk.ptr_cast %{{.*}} : tensor<128x!blk.ptr<f32>> -> tensor<128x!blk.ptr<i32>>
  %pc = blk.ptr_cast %a : tensor<128x!blk.ptr<f32>> -> tensor<128x!blk.ptr<i32>>
  // CHECK: blk.ptr_to_int %{{.*}} : tensor<128x!blk.ptr<f32>> -> tensor<128xi64>
  %pi = blk.ptr_to_int %a : tensor<128x!blk.ptr<f32>> -> tensor<128xi64>
  return
}

// CHECK-LABEL: func.func @reductions
func.func @reductions(%x: tensor<16x32xf32>, %i: tensor<16x32xi32>, %v: tensor<64xf32>) {
  // CHECK: blk.reduce %{{.*}} {axis = 1 : i32} : (tensor<16x32xf32>) -> tensor<16xf32> {
  // CHECK: ^bb0(%{{.*}}: f32, %{{.*}}: f32):
  // CHECK: blk.reduce.return %{{.*}} : f32
  %s = blk.reduce %x {axis = 1 : i32} : (tensor<16x32xf32>) -> tensor<16xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    blk.reduce.return %c : f32
  }
  // CHECK: blk.reduce %{{.*}}, %{{.*}} {axis = 0 : i32} : (tensor<16x32xf32>, tensor<16x32xi32>) -> (tensor<32xf32>, tensor<32xi32>)
  %m:2 = blk.reduce %x, %i {axis = 0 : i32} : (tensor<16x32xf32>, tensor<16x32xi32>) -> (tensor<32xf32>, tensor<32xi32>) {
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    %v0 = arith.select %gt, %a, %b : f32
    %i0 = arith.select %gt, %ai, %bi : i32
    blk.reduce.return %v0, %i0 : f32, i32
  }
  // CHECK: blk.reduce %{{.*}} {axis = 0 : i32} : (tensor<64xf32>) -> f32
  %t = blk.reduce %v {axis = 0 : i32} : (tensor<64xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %c = arith.maximumf %a, %b : f32
    blk.reduce.return %c : f32
  }
  // CHECK: blk.scan %{{.*}} {axis = 0 : i32, reverse = true} : (tensor<64xf32>) -> tensor<64xf32>
  // CHECK: blk.scan.return %{{.*}} : f32
  %u = blk.scan %v {axis = 0 : i32, reverse = true} : (tensor<64xf32>) -> tensor<64xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.addf %a, %b : f32
    blk.scan.return %c : f32
  }
  return
}

// CHECK-LABEL: func.func @dot
func.func @dot(%a: tensor<64x32xf16>, %b: tensor<32x16xf16>, %c: tensor<64x16xf32>,
               %ai: tensor<16x16xi8>, %ci: tensor<16x16xi32>) {
  // CHECK: blk.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x32xf16> * tensor<32x16xf16> -> tensor<64x16xf32>
  %d = blk.dot %a, %b, %c : tensor<64x32xf16> * tensor<32x16xf16> -> tensor<64x16xf32>
  // CHECK: blk.dot %{{.*}}, %{{.*}}, %{{.*}} : tensor<16x16xi8> * tensor<16x16xi8> -> tensor<16x16xi32>
  %e = blk.dot %ai, %ai, %ci : tensor<16x16xi8> * tensor<16x16xi8> -> tensor<16x16xi32>
  return
}

// CHECK-LABEL: func.func @debug
func.func @debug(%x: tensor<16xi32>, %s: f32, %c: tensor<16xi1>) {
  // CHECK: blk.print "x=%d s=%f" %{{.*}}, %{{.*}} : tensor<16xi32>, f32
  blk.print "x=%d s=%f" %x, %s : tensor<16xi32>, f32
  // CHECK: blk.print "hello"
  blk.print "hello"
  // CHECK: blk.assert %{{.*}}, "x out of range", "k.blk", 12 : tensor<16xi1>
  blk.assert %c, "x out of range", "k.blk", 12 : tensor<16xi1>
  return
}

// CHECK-LABEL: func.func @hints
func.func @hints(%x: tensor<16x8xi32>, %n: i32, %p: tensor<16x!blk.ptr<f16>>) {
  // CHECK: blk.multiple_of %{{.*}}, [16, 8] : tensor<16x8xi32>
  %a = blk.multiple_of %x, [16, 8] : tensor<16x8xi32>
  // CHECK: blk.multiple_of %{{.*}}, [16] : i32
  %b = blk.multiple_of %n, [16] : i32
  // CHECK: blk.max_contiguous %{{.*}}, [16] : tensor<16x!blk.ptr<f16>>
  %c = blk.max_contiguous %p, [16] : tensor<16x!blk.ptr<f16>>
  return
}
