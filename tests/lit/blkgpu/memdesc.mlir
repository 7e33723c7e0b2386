// Shared-memory buffers: !blkgpu.memdesc and its ops round-trip and verify.
// RUN: blk-opt %s --split-input-file | blk-opt --split-input-file | FileCheck %s
// RUN: blk-opt %S/Inputs/memdesc-invalid.mlir --split-input-file --verify-diagnostics

#b = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>

// CHECK-LABEL: func.func @ring
// CHECK: %[[R:.*]] = blkgpu.local_alloc -> !blkgpu.memdesc<3x64x64xf16, #shared>
// CHECK: %[[S:.*]] = blkgpu.memdesc_index %[[R]][%{{.*}}] : !blkgpu.memdesc<3x64x64xf16, #shared> -> !blkgpu.memdesc<64x64xf16, #shared>
// CHECK: blkgpu.local_store %{{.*}}, %[[S]] : tensor<64x64xf16, #blocked> -> !blkgpu.memdesc<64x64xf16, #shared>
// CHECK: blkgpu.local_load %[[S]] : !blkgpu.memdesc<64x64xf16, #shared> -> tensor<64x64xf16, #blocked>
// CHECK: blkgpu.local_alloc %{{.*}} : tensor<64x64xf16, #blocked> -> !blkgpu.memdesc<64x64xf16, #shared>
func.func @ring(%t: tensor<64x64xf16, #b>, %i: i32) -> tensor<64x64xf16, #b>
    attributes {blkgpu.num_warps = 4 : i32} {
  %r = blkgpu.local_alloc -> !blkgpu.memdesc<3x64x64xf16, #sh>
  %s = blkgpu.memdesc_index %r[%i] : !blkgpu.memdesc<3x64x64xf16, #sh> -> !blkgpu.memdesc<64x64xf16, #sh>
  blkgpu.local_store %t, %s : tensor<64x64xf16, #b> -> !blkgpu.memdesc<64x64xf16, #sh>
  %v = blkgpu.local_load %s : !blkgpu.memdesc<64x64xf16, #sh> -> tensor<64x64xf16, #b>
  %c = blkgpu.local_alloc %v : tensor<64x64xf16, #b> -> !blkgpu.memdesc<64x64xf16, #sh>
  return %v : tensor<64x64xf16, #b>
}
