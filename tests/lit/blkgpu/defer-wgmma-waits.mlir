// blkgpu-defer-wgmma-waits on hand-written blkgpu IR (verifier on): each
// synchronous wgmma gets pending = -1 and a wgmma_wait right before the
// first op that reads it, counting the groups issued after it; an op that
// may write shared memory (a buffer store, a barrier) or the terminator
// waits for every deferred one first; a running wgmma (pending = 1) keeps
// its own wait.
// RUN: blk-opt %s --blkgpu-defer-wgmma-waits | FileCheck %s

#mma = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 64}>
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#s = #blkgpu.slice<{dim = 1, parent = #mma}>

// Attention's rotated iteration: S = Q·Kᵀ and O += P·V issued back to
// back; S's reader waits with one group (P·V) left in flight, O's with none.
// CHECK-LABEL: func.func @back_to_back
// CHECK: %[[S:.*]] = blkgpu.wgmma %arg0, %arg1, %{{.*}} {pending = -1 : i32}
// CHECK-NEXT: %[[O:.*]] = blkgpu.wgmma %arg2, %arg1, %arg3 {pending = -1 : i32}
// CHECK-NEXT: %[[SW:.*]] = blkgpu.wgmma_wait %[[S]] {pending = 1 : i32}
// CHECK-NEXT: math.exp2 %[[SW]]
// CHECK: %[[OW:.*]] = blkgpu.wgmma_wait %[[O]] {pending = 0 : i32}
// CHECK-NEXT: arith.mulf %[[OW]]
// CHECK-NOT: wgmma_wait
// CHECK: return
func.func @back_to_back(%q: !blkgpu.memdesc<64x64xf16, #nv>, %k: !blkgpu.memdesc<64x64xf16, #nv>,
    %p: tensor<64x64xf16, #mma>, %acc: tensor<64x64xf32, #mma>)
    -> (tensor<64x64xf32, #mma>, tensor<64x64xf32, #mma>)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %s = blkgpu.wgmma %q, %k, %zero : !blkgpu.memdesc<64x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  %o = blkgpu.wgmma %p, %k, %acc : tensor<64x64xf16, #mma>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  %e = math.exp2 %s : tensor<64x64xf32, #mma>
  %e2 = arith.addf %e, %e : tensor<64x64xf32, #mma>
  %o2 = arith.mulf %o, %e2 : tensor<64x64xf32, #mma>
  %o3 = arith.addf %o, %o2 : tensor<64x64xf32, #mma>
  return %e2, %o3 : tensor<64x64xf32, #mma>, tensor<64x64xf32, #mma>
}

// Read by the next op: the wait follows at once (as a synchronous wgmma).
// CHECK-LABEL: func.func @read_next
// CHECK: %[[S:.*]] = blkgpu.wgmma {{.*}} {pending = -1 : i32}
// CHECK-NEXT: %[[W:.*]] = blkgpu.wgmma_wait %[[S]] {pending = 0 : i32}
// CHECK-NEXT: blk.reduce %[[W]]
func.func @read_next(%q: !blkgpu.memdesc<64x64xf16, #nv>, %k: !blkgpu.memdesc<64x64xf16, #nv>)
    -> tensor<64xf32, #s> attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %s = blkgpu.wgmma %q, %k, %zero : !blkgpu.memdesc<64x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  %m = blk.reduce %s {axis = 1 : i32} : (tensor<64x64xf32, #mma>) -> tensor<64xf32, #s> {
  ^bb0(%a: f32, %b: f32):
    %x = arith.maximumf %a, %b : f32
    blk.reduce.return %x : f32
  }
  return %m : tensor<64xf32, #s>
}

// A buffer store may overwrite what the wgmma reads: wait first, although
// nothing reads the result until later; the later reader's wait is free.
// CHECK-LABEL: func.func @store_waits
// CHECK: %[[S:.*]] = blkgpu.wgmma {{.*}} {pending = -1 : i32}
// CHECK-NEXT: %[[W:.*]] = blkgpu.wgmma_wait %[[S]] {pending = 0 : i32}
// CHECK-NEXT: blkgpu.local_alloc %arg2
// CHECK-NOT: wgmma_wait
// CHECK: arith.addf %[[W]], %[[W]]
func.func @store_waits(%q: !blkgpu.memdesc<64x64xf16, #nv>, %k: !blkgpu.memdesc<64x64xf16, #nv>,
    %t: tensor<64x64xf16, #mma>) -> tensor<64x64xf32, #mma>
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %s = blkgpu.wgmma %q, %k, %zero : !blkgpu.memdesc<64x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  %buf = blkgpu.local_alloc %t : tensor<64x64xf16, #mma> -> !blkgpu.memdesc<64x64xf16, #nv>
  %s2 = arith.addf %s, %s : tensor<64x64xf32, #mma>
  return %s2 : tensor<64x64xf32, #mma>
}

// A barrier lets another warp write shared memory: the deferred wgmma is
// done before it. The running one (pending = 1) is not touched.
// CHECK-LABEL: func.func @barrier_waits
// CHECK: %[[R:.*]] = blkgpu.wgmma {{.*}} {pending = 1 : i32}
// CHECK: %[[S:.*]] = blkgpu.wgmma {{.*}} {pending = -1 : i32}
// CHECK-NEXT: %[[W:.*]] = blkgpu.wgmma_wait %[[S]] {pending = 0 : i32}
// CHECK-NEXT: blkgpu.barrier
// CHECK: blkgpu.wgmma_wait %[[R]] {pending = 0 : i32}
func.func @barrier_waits(%q: !blkgpu.memdesc<64x64xf16, #nv>, %k: !blkgpu.memdesc<64x64xf16, #nv>,
    %acc: tensor<64x64xf32, #mma>) -> (tensor<64x64xf32, #mma>, tensor<64x64xf32, #mma>)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %r = blkgpu.wgmma %q, %k, %acc {pending = 1 : i32} : !blkgpu.memdesc<64x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  %s = blkgpu.wgmma %q, %k, %zero : !blkgpu.memdesc<64x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  blkgpu.barrier
  %rw = blkgpu.wgmma_wait %r {pending = 0 : i32} : tensor<64x64xf32, #mma>
  return %rw, %s : tensor<64x64xf32, #mma>, tensor<64x64xf32, #mma>
}

// In a loop body: a result only yielded is waited for before the yield,
// so no group outlives its iteration.
// CHECK-LABEL: func.func @loop_yield
// CHECK: scf.for
// CHECK: %[[S:.*]] = blkgpu.wgmma {{.*}} {pending = -1 : i32}
// CHECK-NEXT: %[[W:.*]] = blkgpu.wgmma_wait %[[S]] {pending = 0 : i32}
// CHECK-NEXT: scf.yield %[[W]]
func.func @loop_yield(%q: !blkgpu.memdesc<64x64xf16, #nv>, %k: !blkgpu.memdesc<64x64xf16, #nv>,
    %n: i32) -> tensor<64x64xf32, #mma>
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<64x64xf32, #mma>) : i32 {
    %s = blkgpu.wgmma %q, %k, %acc : !blkgpu.memdesc<64x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
    scf.yield %s : tensor<64x64xf32, #mma>
  }
  return %r : tensor<64x64xf32, #mma>
}
