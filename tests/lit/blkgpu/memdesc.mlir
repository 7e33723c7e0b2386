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

// -----

// Tensor-core ops: an NVMMA buffer (`block`), the mma accumulator, wgmma
// with and without `pending`, wgmma_wait and the async copies.
#b = #blkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#m = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 64}>
// CHECK-DAG: #[[NV:shared[0-9]*]] = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
// CHECK-DAG: #[[M:mma[0-9]*]] = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 64}>
// CHECK-LABEL: func.func @tensor_cores
// CHECK: blkgpu.async_copy %{{.*}}, %{{.*}}, %{{.*}} : tensor<64x64x!blk.ptr<f16>, #{{.*}}> -> !blkgpu.memdesc<64x64xf16, #[[NV]]>, tensor<64x64xi1, #{{.*}}>
// CHECK-NEXT: blkgpu.async_copy %{{.*}}, %{{.*}} : tensor<64x64x!blk.ptr<f16>, #{{.*}}> -> !blkgpu.memdesc<64x64xf16, #[[NV]]>
// CHECK-NEXT: blkgpu.async_commit
// CHECK-NEXT: blkgpu.async_wait {pending = 0 : i32}
// CHECK-NEXT: %[[D:.*]] = blkgpu.wgmma %{{.*}}, %{{.*}}, %{{.*}} : !blkgpu.memdesc<64x64xf16, #[[NV]]>, !blkgpu.memdesc<64x64xf16, #[[NV]]>, tensor<64x64xf32, #[[M]]> -> tensor<64x64xf32, #[[M]]>
// CHECK-NEXT: %[[E:.*]] = blkgpu.wgmma %{{.*}}, %{{.*}}, %[[D]] {pending = 1 : i32}
// CHECK-NEXT: blkgpu.wgmma_wait %[[E]] {pending = 0 : i32} : tensor<64x64xf32, #[[M]]>
func.func @tensor_cores(%p: tensor<64x64x!blk.ptr<f16>, #b>, %mask: tensor<64x64xi1, #b>,
                        %acc: tensor<64x64xf32, #m>) -> tensor<64x64xf32, #m>
    attributes {blkgpu.num_warps = 4 : i32} {
  %x = blkgpu.local_alloc -> !blkgpu.memdesc<64x64xf16, #nv>
  %y = blkgpu.local_alloc -> !blkgpu.memdesc<64x64xf16, #nv>
  blkgpu.async_copy %p, %x, %mask : tensor<64x64x!blk.ptr<f16>, #b> -> !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xi1, #b>
  blkgpu.async_copy %p, %y : tensor<64x64x!blk.ptr<f16>, #b> -> !blkgpu.memdesc<64x64xf16, #nv>
  blkgpu.async_commit
  blkgpu.async_wait {pending = 0 : i32}
  %d = blkgpu.wgmma %x, %y, %acc : !blkgpu.memdesc<64x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #m> -> tensor<64x64xf32, #m>
  %e = blkgpu.wgmma %x, %y, %d {pending = 1 : i32} : !blkgpu.memdesc<64x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #m> -> tensor<64x64xf32, #m>
  %f = blkgpu.wgmma_wait %e {pending = 0 : i32} : tensor<64x64xf32, #m>
  return %f : tensor<64x64xf32, #m>
}

// -----

// memdesc_trans: a 2-D slot read as its transpose (shape and order
// reversed, the same swizzle and column block).
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#nvt = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], pad = 0, block = 64}>
// CHECK-LABEL: func.func @transposed_view
// CHECK: %[[S:.*]] = blkgpu.memdesc_index
// CHECK-NEXT: blkgpu.memdesc_trans %[[S]] : !blkgpu.memdesc<64x128xf16, #{{.*}}> -> !blkgpu.memdesc<128x64xf16, #{{.*}}>
func.func @transposed_view(%i: i32) attributes {blkgpu.num_warps = 4 : i32} {
  %r = blkgpu.local_alloc -> !blkgpu.memdesc<2x64x128xf16, #nv>
  %s = blkgpu.memdesc_index %r[%i] : !blkgpu.memdesc<2x64x128xf16, #nv> -> !blkgpu.memdesc<64x128xf16, #nv>
  %t = blkgpu.memdesc_trans %s : !blkgpu.memdesc<64x128xf16, #nv> -> !blkgpu.memdesc<128x64xf16, #nvt>
  return
}
