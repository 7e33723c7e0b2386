// blkgpu-wgmma-register-a on hand-written blkgpu IR: a wgmma's A buffer
// stored from an f16 block already in the accumulator's mma layout becomes
// that block (registers), and the buffer goes; a block in a blocked
// layout, a buffer another op reads too, and an accumulator with
// warpgroups along N (each would need all of A's K) keep the buffer.
// mma_sync: the same with version-2 layouts (warps along M).
// RUN: blk-opt %s --blkgpu-wgmma-register-a | FileCheck %s

#b = #blkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 64}>
#mman = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 2], instrN = 32}>
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>

// CHECK-LABEL: func.func @registers
// CHECK-NOT: local_alloc
// CHECK: blkgpu.wgmma %arg0, %arg1, %{{.*}} : tensor<64x64xf16, #mma>, !blkgpu.memdesc
func.func @registers(%p: tensor<64x64xf16, #mma>, %vb: !blkgpu.memdesc<64x64xf16, #nv>)
    -> tensor<64x64xf32, #mma> attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %pa = blkgpu.local_alloc %p : tensor<64x64xf16, #mma> -> !blkgpu.memdesc<64x64xf16, #nv>
  %o = blkgpu.wgmma %pa, %vb, %zero : !blkgpu.memdesc<64x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  return %o : tensor<64x64xf32, #mma>
}

// CHECK-LABEL: func.func @blocked
// CHECK: %[[A:.*]] = blkgpu.local_alloc
// CHECK: blkgpu.wgmma %[[A]]
func.func @blocked(%p: tensor<64x64xf16, #b>, %vb: !blkgpu.memdesc<64x64xf16, #nv>)
    -> tensor<64x64xf32, #mma> attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %pa = blkgpu.local_alloc %p : tensor<64x64xf16, #b> -> !blkgpu.memdesc<64x64xf16, #nv>
  %o = blkgpu.wgmma %pa, %vb, %zero : !blkgpu.memdesc<64x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  return %o : tensor<64x64xf32, #mma>
}

// CHECK-LABEL: func.func @shared_twice
// CHECK: %[[A:.*]] = blkgpu.local_alloc
// CHECK: blkgpu.wgmma %[[A]]
// CHECK: blkgpu.wgmma %[[A]]
func.func @shared_twice(%p: tensor<64x64xf16, #mma>, %vb: !blkgpu.memdesc<64x64xf16, #nv>)
    -> tensor<64x64xf32, #mma> attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %pa = blkgpu.local_alloc %p : tensor<64x64xf16, #mma> -> !blkgpu.memdesc<64x64xf16, #nv>
  %o = blkgpu.wgmma %pa, %vb, %zero : !blkgpu.memdesc<64x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  %o2 = blkgpu.wgmma %pa, %vb, %o : !blkgpu.memdesc<64x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  return %o2 : tensor<64x64xf32, #mma>
}

// CHECK-LABEL: func.func @warpgroups_along_n
// CHECK: %[[A:.*]] = blkgpu.local_alloc
// CHECK: blkgpu.wgmma %[[A]]
func.func @warpgroups_along_n(%p: tensor<64x64xf16, #mman>, %vb: !blkgpu.memdesc<64x64xf16, #nv>)
    -> tensor<64x64xf32, #mman> attributes {blk.num_warps = 8 : i32, blkgpu.num_warps = 8 : i32} {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mman>
  %pa = blkgpu.local_alloc %p : tensor<64x64xf16, #mman> -> !blkgpu.memdesc<64x64xf16, #nv>
  %o = blkgpu.wgmma %pa, %vb, %zero : !blkgpu.memdesc<64x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mman> -> tensor<64x64xf32, #mman>
  return %o : tensor<64x64xf32, #mman>
}

// mma_sync (version 2, warps all along M) takes A from the registers too;
// a version-3 block does not feed a version-2 dot, and warps along N keep
// the buffer.
#mma2 = #blkgpu.mma<{version = 2, warpsPerCTA = [4, 1], instrN = 8}>
#mma2n = #blkgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrN = 8}>
// CHECK-LABEL: func.func @mma_sync_registers
// CHECK-NOT: local_alloc
// CHECK: blkgpu.mma_sync %arg0, %arg1, %{{.*}} : tensor<64x64xf16, #mma{{[0-9]*}}>, !blkgpu.memdesc
func.func @mma_sync_registers(%p: tensor<64x64xf16, #mma2>, %vb: !blkgpu.memdesc<64x64xf16, #nv>)
    -> tensor<64x64xf32, #mma2> attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma2>
  %pa = blkgpu.local_alloc %p : tensor<64x64xf16, #mma2> -> !blkgpu.memdesc<64x64xf16, #nv>
  %o = blkgpu.mma_sync %pa, %vb, %zero : !blkgpu.memdesc<64x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mma2> -> tensor<64x64xf32, #mma2>
  return %o : tensor<64x64xf32, #mma2>
}

// CHECK-LABEL: func.func @mma_sync_keeps
// CHECK: %[[A:.*]] = blkgpu.local_alloc
// CHECK: blkgpu.mma_sync %[[A]]
// CHECK: %[[B:.*]] = blkgpu.local_alloc
// CHECK: blkgpu.mma_sync %[[B]]
func.func @mma_sync_keeps(%p: tensor<64x64xf16, #mma>, %q: tensor<64x64xf16, #mma2n>,
                          %vb: !blkgpu.memdesc<64x64xf16, #nv>)
    -> (tensor<64x64xf32, #mma2>, tensor<64x64xf32, #mma2n>)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma2>
  %zn = arith.constant dense<0.0> : tensor<64x64xf32, #mma2n>
  %pa = blkgpu.local_alloc %p : tensor<64x64xf16, #mma> -> !blkgpu.memdesc<64x64xf16, #nv>
  %o = blkgpu.mma_sync %pa, %vb, %zero : !blkgpu.memdesc<64x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mma2> -> tensor<64x64xf32, #mma2>
  %qa = blkgpu.local_alloc %q : tensor<64x64xf16, #mma2n> -> !blkgpu.memdesc<64x64xf16, #nv>
  %o2 = blkgpu.mma_sync %qa, %vb, %zn : !blkgpu.memdesc<64x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mma2n> -> tensor<64x64xf32, #mma2n>
  return %o, %o2 : tensor<64x64xf32, #mma2>, tensor<64x64xf32, #mma2n>
}
