// f16 x f16 -> f32 dot: inputs widened to f32 before each FMA.
// RUN: blk-codegen-test %s --emit=ptx > %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: FileCheck %s < %t.ptx

// CHECK: ld.global.v4.b32
// CHECK: st.shared.b16
// CHECK: cvt.f32.f16
// CHECK: fma.rn.f32
// CHECK-NOT: ld.local

func.func @dot_f16__w4(%a: !blk.ptr<f16> {blk.aligned = 16 : i32}, %b: !blk.ptr<f16> {blk.aligned = 16 : i32}, %c: !blk.ptr<f32> {blk.aligned = 16 : i32})
    attributes {blk.kernel = "dot_f16", blk.num_warps = 4 : i32} {
  %r = blk.make_range 0, 32 : tensor<32xi32>
  %rr = blk.expand_dims %r {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %c32 = arith.constant dense<32> : tensor<32x1xi32>
  %rm = arith.muli %rr, %c32 : tensor<32x1xi32>
  %rmb = blk.broadcast %rm : tensor<32x1xi32> -> tensor<32x32xi32>
  %cc = blk.expand_dims %r {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %ccb = blk.broadcast %cc : tensor<1x32xi32> -> tensor<32x32xi32>
  %off = arith.addi %rmb, %ccb : tensor<32x32xi32>
  %as = blk.splat %a : !blk.ptr<f16> -> tensor<32x32x!blk.ptr<f16>>
  %ap = blk.addptr %as, %off : tensor<32x32x!blk.ptr<f16>>, tensor<32x32xi32>
  %av = blk.load %ap : tensor<32x32x!blk.ptr<f16>>
  %bs = blk.splat %b : !blk.ptr<f16> -> tensor<32x32x!blk.ptr<f16>>
  %bp = blk.addptr %bs, %off : tensor<32x32x!blk.ptr<f16>>, tensor<32x32xi32>
  %bv = blk.load %bp : tensor<32x32x!blk.ptr<f16>>
  %z = arith.constant dense<0.0> : tensor<32x32xf32>
  %d = blk.dot %av, %bv, %z : tensor<32x32xf16> * tensor<32x32xf16> -> tensor<32x32xf32>
  %cs = blk.splat %c : !blk.ptr<f32> -> tensor<32x32x!blk.ptr<f32>>
  %cp = blk.addptr %cs, %off : tensor<32x32x!blk.ptr<f32>>, tensor<32x32xi32>
  blk.store %cp, %d : tensor<32x32x!blk.ptr<f32>>
  return
}
