// Layout choice for memory ops: lanes along the most contiguous dim, up to
// 16 bytes per thread where contiguity is proven, never so wide that
// threads sit idle.
// RUN: blk-opt %s --blkgpu-pipeline --mlir-print-local-scope | FileCheck %s
// RUN: blk-codegen-test %s --emit=ptx > %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin

// 16-byte aligned i8 and f16: 16 and 8 elements per thread.
// CHECK-LABEL: func.func @bytes_and_halves
// CHECK: blk.load {{.*}}tensor<4096x!blk.ptr<i8>, #blkgpu.blocked<{sizePerThread = [16], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
// CHECK: blk.load {{.*}}tensor<4096x!blk.ptr<f16>, #blkgpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
func.func @bytes_and_halves(%x: !blk.ptr<i8> {blk.aligned = 16 : i32}, %h: !blk.ptr<f16> {blk.aligned = 16 : i32})
    attributes {blk.num_warps = 4 : i32} {
  %r = blk.make_range 0, 4096 : tensor<4096xi32>
  %xs = blk.splat %x : !blk.ptr<i8> -> tensor<4096x!blk.ptr<i8>>
  %xp = blk.addptr %xs, %r : tensor<4096x!blk.ptr<i8>>, tensor<4096xi32>
  %v = blk.load %xp : tensor<4096x!blk.ptr<i8>>
  %hs = blk.splat %h : !blk.ptr<f16> -> tensor<4096x!blk.ptr<f16>>
  %hp = blk.addptr %hs, %r : tensor<4096x!blk.ptr<f16>>, tensor<4096xi32>
  %hv = blk.load %hp : tensor<4096x!blk.ptr<f16>>
  %hf = arith.sitofp %v : tensor<4096xi8> to tensor<4096xf16>
  %s = arith.addf %hv, %hf : tensor<4096xf16>
  blk.store %hp, %s : tensor<4096x!blk.ptr<f16>>
  return
}

// No alignment known: still 4 per thread (contiguity is proven); the
// emitter tests each group's alignment at run time.
// CHECK-LABEL: func.func @unaligned
// CHECK: blk.load {{.*}}#blkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
func.func @unaligned(%x: !blk.ptr<f32>, %off: i32) attributes {blk.num_warps = 4 : i32} {
  %r = blk.make_range 0, 1024 : tensor<1024xi32>
  %p0 = blk.addptr %x, %off : !blk.ptr<f32>, i32
  %xs = blk.splat %p0 : !blk.ptr<f32> -> tensor<1024x!blk.ptr<f32>>
  %xp = blk.addptr %xs, %r : tensor<1024x!blk.ptr<f32>>, tensor<1024xi32>
  %v = blk.load %xp : tensor<1024x!blk.ptr<f32>>
  blk.store %xp, %v : tensor<1024x!blk.ptr<f32>>
  return
}

// 128 elements on 128 threads: one each although 16 bytes are aligned.
// CHECK-LABEL: func.func @no_idle_threads
// CHECK: blk.load {{.*}}#blkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>
func.func @no_idle_threads(%x: !blk.ptr<f32> {blk.aligned = 16 : i32}) attributes {blk.num_warps = 4 : i32} {
  %r = blk.make_range 0, 128 : tensor<128xi32>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<128x!blk.ptr<f32>>
  %xp = blk.addptr %xs, %r : tensor<128x!blk.ptr<f32>>, tensor<128xi32>
  %v = blk.load %xp : tensor<128x!blk.ptr<f32>>
  blk.store %xp, %v : tensor<128x!blk.ptr<f32>>
  return
}

// A column-major 2-D access (contiguous along dim 0): lanes run down dim 0.
// CHECK-LABEL: func.func @column_major
// CHECK: blk.load {{.*}}#blkgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>>
func.func @column_major(%x: !blk.ptr<f32> {blk.aligned = 16 : i32}) attributes {blk.num_warps = 4 : i32} {
  %r = blk.make_range 0, 64 : tensor<64xi32>
  %rows = blk.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %cols = blk.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %c64 = arith.constant dense<64> : tensor<1x64xi32>
  %cm = arith.muli %cols, %c64 : tensor<1x64xi32>
  %rb = blk.broadcast %rows : tensor<64x1xi32> -> tensor<64x64xi32>
  %cb = blk.broadcast %cm : tensor<1x64xi32> -> tensor<64x64xi32>
  %off = arith.addi %rb, %cb : tensor<64x64xi32>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<64x64x!blk.ptr<f32>>
  %xp = blk.addptr %xs, %off : tensor<64x64x!blk.ptr<f32>>, tensor<64x64xi32>
  %v = blk.load %xp : tensor<64x64x!blk.ptr<f32>>
  blk.store %xp, %v : tensor<64x64x!blk.ptr<f32>>
  return
}
