// blkgpu-coalesce on a wgmma target: a load feeding a tf32 dot operand
// along a dim other than K gets one element per thread, 8 threads along
// its contiguous dim and 4 along K (conflict-free 4-byte copies into the
// K-major buffer); a K-contiguous operand, an "ieee" dot and any target
// without wgmma keep the coalesced 16-byte layout.
// RUN: blk-opt %s --blkgpu-coalesce=arch=sm_90a --mlir-print-local-scope | FileCheck %s
// RUN: blk-opt %s --blkgpu-coalesce=arch=sm_90 --mlir-print-local-scope | FileCheck %s --check-prefix=SM90

// CHECK-LABEL: func.func @tf32
// CHECK: blk.load {{.*}}blkgpu.layout = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>{{.*}} : tensor<128x32x!blk.ptr<f32>>
// CHECK: blk.load {{.*}}blkgpu.layout = #blkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 8], order = [1, 0]}>{{.*}} : tensor<32x256x!blk.ptr<f32>>
// CHECK: blk.load {{.*}}blkgpu.layout = #blkgpu.blocked<{sizePerThread = [1, 4], {{.*}} : tensor<32x256x!blk.ptr<f32>>
// SM90-LABEL: func.func @tf32
// SM90-NOT: sizePerThread = [1, 1]
func.func @tf32(%pa: tensor<128x32x!blk.ptr<f32>>, %pb: tensor<32x256x!blk.ptr<f32>>,
                %acc: tensor<128x256xf32>) attributes {blk.num_warps = 8 : i32} {
  %a = blk.load %pa {blkgpu.align = array<i64: 4, 16>, blkgpu.contiguity = array<i64: 1, 32>, blkgpu.mask_constancy = array<i64: 1, 32>} : tensor<128x32x!blk.ptr<f32>>
  %b = blk.load %pb {blkgpu.align = array<i64: 4, 16>, blkgpu.contiguity = array<i64: 1, 256>, blkgpu.mask_constancy = array<i64: 1, 256>} : tensor<32x256x!blk.ptr<f32>>
  %d = blk.dot %a, %b, %acc {precision = "tf32"} : tensor<128x32xf32> * tensor<32x256xf32> -> tensor<128x256xf32>
  %b2 = blk.load %pb {blkgpu.align = array<i64: 4, 16>, blkgpu.contiguity = array<i64: 1, 256>, blkgpu.mask_constancy = array<i64: 1, 256>} : tensor<32x256x!blk.ptr<f32>>
  %e = blk.dot %a, %b2, %d {precision = "ieee"} : tensor<128x32xf32> * tensor<32x256xf32> -> tensor<128x256xf32>
  return
}
