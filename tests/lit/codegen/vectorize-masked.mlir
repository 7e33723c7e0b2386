// Masked 1-D elementwise kernel (seed 5.2 `double`): x and out 16-byte
// aligned, n a multiple of 16, so each thread moves 4 contiguous f32 with one
// predicated 16-byte access; 1024 elements over 128 threads = 2 vectors each.
// RUN: blk-opt %s --blkgpu-pipeline --mlir-print-local-scope | FileCheck %s --check-prefix=GPU
// RUN: blk-codegen-test %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: blk-codegen-test %s --emit=ptx > %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: blk-codegen-test %s --emit=info | FileCheck %s --check-prefix=INFO

// GPU: #blkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// GPU-NOT: blkgpu.convert_layout
// GPU: blk.load {{.*}}blkgpu.contiguity = array<i64: 1024>

// PTX: .visible .entry double__BLOCK_1024__w4(
// PTX: .maxntid 128, 1, 1
// PTX-COUNT-2: @%p{{[0-9]+}} ld.global.v4.b32
// PTX-COUNT-2: @%p{{[0-9]+}} st.global.v4.b32
// PTX-NOT: ld.local
// PTX-NOT: bar.sync

// INFO: double__BLOCK_1024__w4 threads=128 shared=0 dynamic=0

func.func @double__BLOCK_1024__w4(%x: !blk.ptr<f32> {blk.aligned = 16 : i32}, %out: !blk.ptr<f32> {blk.aligned = 16 : i32}, %n: i32 {blk.multiple_of = 16 : i32})
    attributes {blk.kernel = "double", blk.num_warps = 4 : i32} {
  %pid = blk.program_id 0
  %c1024 = arith.constant 1024 : i32
  %base = arith.muli %pid, %c1024 : i32
  %r = blk.make_range 0, 1024 : tensor<1024xi32>
  %bs = blk.splat %base : i32 -> tensor<1024xi32>
  %offs = arith.addi %bs, %r : tensor<1024xi32>
  %ns = blk.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<1024x!blk.ptr<f32>>
  %xp = blk.addptr %xs, %offs : tensor<1024x!blk.ptr<f32>>, tensor<1024xi32>
  %v = blk.load %xp, %mask : tensor<1024x!blk.ptr<f32>>
  %two = arith.constant dense<2.0> : tensor<1024xf32>
  %d = arith.mulf %v, %two : tensor<1024xf32>
  %os = blk.splat %out : !blk.ptr<f32> -> tensor<1024x!blk.ptr<f32>>
  %op = blk.addptr %os, %offs : tensor<1024x!blk.ptr<f32>>, tensor<1024xi32>
  blk.store %op, %d, %mask : tensor<1024x!blk.ptr<f32>>
  return
}
