// blkgpu-coalesce picks each memory op's layout from its access hints and
// records it as `blkgpu.layout`; types are unchanged. Hand-written hints.
// RUN: blk-opt %s --blkgpu-coalesce --mlir-print-local-scope | FileCheck %s

// 16 bytes per thread along the contiguous dim (4 x f32, 8 x f16), whatever
// the proven alignment (the emitter tests it at run time).
// CHECK-LABEL: func.func @vectors
// CHECK: blk.load {{.*}}blkgpu.layout = #blkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>{{.*}} : tensor<1024x!blk.ptr<f32>>
// CHECK: blk.load {{.*}}blkgpu.layout = #blkgpu.blocked<{sizePerThread = [8], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>{{.*}} : tensor<1024x!blk.ptr<f16>>
// Atomics stay scalar.
// CHECK: blk.atomic_rmw {{.*}}blkgpu.layout = #blkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @vectors(%p: tensor<1024x!blk.ptr<f32>>, %h: tensor<1024x!blk.ptr<f16>>, %v: tensor<1024xf32>)
    attributes {blk.num_warps = 4 : i32} {
  %a = blk.load %p {blkgpu.align = array<i64: 4>, blkgpu.contiguity = array<i64: 1024>, blkgpu.mask_constancy = array<i64: 1024>} : tensor<1024x!blk.ptr<f32>>
  %b = blk.load %h {blkgpu.align = array<i64: 16>, blkgpu.contiguity = array<i64: 1024>, blkgpu.mask_constancy = array<i64: 1024>} : tensor<1024x!blk.ptr<f16>>
  %c = blk.atomic_rmw fadd %p, %v {blkgpu.align = array<i64: 16>, blkgpu.contiguity = array<i64: 1024>, blkgpu.mask_constancy = array<i64: 1024>} : tensor<1024x!blk.ptr<f32>>
  return
}

// Contiguous along dim 0 (a column-major tile): order starts at dim 0.
// CHECK-LABEL: func.func @column_major
// CHECK: blkgpu.layout = #blkgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
func.func @column_major(%p: tensor<64x64x!blk.ptr<f32>>) attributes {blk.num_warps = 4 : i32} {
  %a = blk.load %p {blkgpu.align = array<i64: 16, 4>, blkgpu.contiguity = array<i64: 64, 1>, blkgpu.mask_constancy = array<i64: 64, 64>} : tensor<64x64x!blk.ptr<f32>>
  return
}

// Nothing proven: one element per thread, row-major; with 8 warps.
// CHECK-LABEL: func.func @no_hints
// CHECK: blkgpu.layout = #blkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 8], order = [1, 0]}>
func.func @no_hints(%p: tensor<16x256x!blk.ptr<f32>>) attributes {blk.num_warps = 8 : i32} {
  %a = blk.load %p : tensor<16x256x!blk.ptr<f32>>
  return
}
