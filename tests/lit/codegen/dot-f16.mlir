// f16 x f16 -> f32 dot of 32 x 32 tiles. On 4 warps (2 x 2 warp tiles of
// 16 x 16) it runs on mma.sync (sm_90 without `a`, the default target):
// each warp loads its A and both B fragments with one ldmatrix.x4 each per
// K step (B row-major, N-major in shared memory: .trans) and runs two
// m16n8k16. On 8 warps the tile is too small for 16 x 16 per warp: CUDA
// cores, inputs widened to f32 before each FMA.
// RUN: blk-codegen-test %s --emit=ptx > %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: FileCheck %s < %t.ptx

// CHECK-LABEL: .entry dot_f16__w4(
// CHECK: ld.global.v4.b32
// CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK-COUNT-2: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK: ldmatrix.sync.aligned.m8n8.x4.shared.b16
// CHECK: ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16
// CHECK-COUNT-2: mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32
// CHECK-NOT: mma.sync
// CHECK-NOT: ld.local
// CHECK-LABEL: .entry dot_f16_fma__w8(
// CHECK-NOT: mma.sync
// CHECK: ld.global.v4.b16
// CHECK: st.shared.b16
// CHECK: cvt.f32.f16
// CHECK: fma.rn.f32
// CHECK-NOT: ld.local
// CHECK-NOT: mma.sync

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

func.func @dot_f16_fma__w8(%a: !blk.ptr<f16> {blk.aligned = 16 : i32}, %b: !blk.ptr<f16> {blk.aligned = 16 : i32}, %c: !blk.ptr<f32> {blk.aligned = 16 : i32})
    attributes {blk.kernel = "dot_f16_fma", blk.num_warps = 8 : i32} {
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
