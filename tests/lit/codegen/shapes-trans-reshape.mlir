// trans permutes the layout (no data movement); storing the transposed
// block contiguously then needs a conversion. reshape to 1-D goes through
// shared memory.
// RUN: blk-opt %s --blkgpu-pipeline --mlir-print-local-scope | FileCheck %s --check-prefix=GPU
// RUN: blk-codegen-test %s --emit=ptx > %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// GPU: blk.trans {{.*}} -> tensor<64x32xf32, #blkgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>>
// PTX: ld.global.v4.f32
// PTX: bar.sync
// PTX: st.global.v4.f32
// PTX-NOT: ld.local

func.func @trans__w4(%x: !blk.ptr<f32> {blk.aligned = 16 : i32}, %out: !blk.ptr<f32> {blk.aligned = 16 : i32}, %flat: !blk.ptr<f32> {blk.aligned = 16 : i32})
    attributes {blk.kernel = "trans", blk.num_warps = 4 : i32} {
  %r32 = blk.make_range 0, 32 : tensor<32xi32>
  %r64 = blk.make_range 0, 64 : tensor<64xi32>
  %a = blk.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %c64 = arith.constant dense<64> : tensor<32x1xi32>
  %am = arith.muli %a, %c64 : tensor<32x1xi32>
  %ab = blk.broadcast %am : tensor<32x1xi32> -> tensor<32x64xi32>
  %b = blk.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %bb = blk.broadcast %b : tensor<1x64xi32> -> tensor<32x64xi32>
  %off = arith.addi %ab, %bb : tensor<32x64xi32>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<32x64x!blk.ptr<f32>>
  %xp = blk.addptr %xs, %off : tensor<32x64x!blk.ptr<f32>>, tensor<32x64xi32>
  %v = blk.load %xp : tensor<32x64x!blk.ptr<f32>>
  %t = blk.trans %v {order = array<i32: 1, 0>} : tensor<32x64xf32> -> tensor<64x32xf32>
  %p = blk.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %c32 = arith.constant dense<32> : tensor<64x1xi32>
  %pm = arith.muli %p, %c32 : tensor<64x1xi32>
  %pb = blk.broadcast %pm : tensor<64x1xi32> -> tensor<64x32xi32>
  %q = blk.expand_dims %r32 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  %qb = blk.broadcast %q : tensor<1x32xi32> -> tensor<64x32xi32>
  %toff = arith.addi %pb, %qb : tensor<64x32xi32>
  %os = blk.splat %out : !blk.ptr<f32> -> tensor<64x32x!blk.ptr<f32>>
  %op = blk.addptr %os, %toff : tensor<64x32x!blk.ptr<f32>>, tensor<64x32xi32>
  blk.store %op, %t : tensor<64x32x!blk.ptr<f32>>
  %flatv = blk.reshape %v : tensor<32x64xf32> -> tensor<2048xf32>
  %r2k = blk.make_range 0, 2048 : tensor<2048xi32>
  %fs = blk.splat %flat : !blk.ptr<f32> -> tensor<2048x!blk.ptr<f32>>
  %fp = blk.addptr %fs, %r2k : tensor<2048x!blk.ptr<f32>>, tensor<2048xi32>
  %neg = arith.negf %flatv : tensor<2048xf32>
  blk.store %fp, %neg : tensor<2048x!blk.ptr<f32>>
  return
}
