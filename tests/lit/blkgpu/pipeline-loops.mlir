// blkgpu-pipeline-loops on hand-written blkgpu IR (after
// accelerate-matmul): the operand loads of a wgmma loop become an S-slot
// ring filled S - 1 iterations ahead, for S = 2, 3, 4: S - 1 groups in the
// prologue, a wait for S - 2 pending groups before the reads, the copies of
// iteration i + S - 1 after them (masked off past the end), the wgmma left
// running across iterations (pending = 1) and waited for after the loop.
// num_stages = 1 and a load with a non-zero `other` are left alone. In a
// loop whose wgmmas all wait in their iteration the copies go right after
// the wait instead (@copies_first).
// RUN: blk-opt %s --blkgpu-pipeline-loops=arch=sm_90a | FileCheck %s
// RUN: blk-opt %s --blkgpu-pipeline-loops=arch=sm_90a --blkgpu-pipeline-loops=arch=sm_90a | FileCheck %s --check-prefix=TWICE

#a = #blkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #blkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#c = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 128}>
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>

// CHECK-LABEL: func.func @stages2
// CHECK: blkgpu.local_alloc -> !blkgpu.memdesc<2x128x64xf16
// CHECK: blkgpu.local_alloc -> !blkgpu.memdesc<2x64x128xf16
// CHECK: blkgpu.async_copy
// CHECK: blkgpu.async_copy
// CHECK: blkgpu.async_commit
// CHECK-NOT: blkgpu.async_commit
// CHECK: scf.for
// CHECK: blkgpu.async_wait {pending = 0 : i32}
// CHECK: blkgpu.wgmma {{.*}} {pending = 1 : i32}
// CHECK: blkgpu.async_copy
// CHECK: blkgpu.async_copy
// CHECK: blkgpu.async_commit
// CHECK: scf.yield
// CHECK: %[[DONE:.*]] = blkgpu.wgmma_wait %{{.*}} {pending = 0 : i32}
// CHECK: blkgpu.async_wait {pending = 0 : i32}
// CHECK: blkgpu.convert_layout %[[DONE]]
func.func @stages2(%pa0: tensor<128x64x!blk.ptr<f16>, #a>, %pb0: tensor<64x128x!blk.ptr<f16>, #b>,
                 %m: tensor<128x64xi1, #a>, %inc_a: tensor<128x64xi32, #a>, %inc_b: tensor<64x128xi32, #b>,
                 %pc: tensor<128x128x!blk.ptr<f32>, #c>, %n: i32)
    attributes {blk.num_stages = 2 : i32, blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero_a = arith.constant dense<0.0> : tensor<128x64xf16, #a>
  %one_a = arith.constant dense<1.0> : tensor<128x64xf16, #a>
  %init = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init, %pa = %pa0, %pb = %pb0)
      -> (tensor<128x128xf32, #mma>, tensor<128x64x!blk.ptr<f16>, #a>, tensor<64x128x!blk.ptr<f16>, #b>) : i32 {
    %x = blk.load %pa, %m, %zero_a : tensor<128x64x!blk.ptr<f16>, #a>
    %y = blk.load %pb : tensor<64x128x!blk.ptr<f16>, #b>
    %xa = blkgpu.local_alloc %x : tensor<128x64xf16, #a> -> !blkgpu.memdesc<128x64xf16, #nv>
    %yb = blkgpu.local_alloc %y : tensor<64x128xf16, #b> -> !blkgpu.memdesc<64x128xf16, #nv>
    %d = blkgpu.wgmma %xa, %yb, %acc : !blkgpu.memdesc<128x64xf16, #nv>, !blkgpu.memdesc<64x128xf16, #nv>, tensor<128x128xf32, #mma> -> tensor<128x128xf32, #mma>
    %pa1 = blk.addptr %pa, %inc_a : tensor<128x64x!blk.ptr<f16>, #a>, tensor<128x64xi32, #a>
    %pb1 = blk.addptr %pb, %inc_b : tensor<64x128x!blk.ptr<f16>, #b>, tensor<64x128xi32, #b>
    scf.yield %d, %pa1, %pb1 : tensor<128x128xf32, #mma>, tensor<128x64x!blk.ptr<f16>, #a>, tensor<64x128x!blk.ptr<f16>, #b>
  }
  %out = blkgpu.convert_layout %r#0 : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #c>
  blk.store %pc, %out : tensor<128x128x!blk.ptr<f32>, #c>
  return
}

// CHECK-LABEL: func.func @stages3
// CHECK: blkgpu.local_alloc -> !blkgpu.memdesc<3x128x64xf16
// CHECK: blkgpu.local_alloc -> !blkgpu.memdesc<3x64x128xf16
// CHECK: blkgpu.async_copy
// CHECK: blkgpu.async_copy
// CHECK: blkgpu.async_commit
// CHECK: blkgpu.async_copy
// CHECK: blkgpu.async_copy
// CHECK: blkgpu.async_commit
// CHECK-NOT: blkgpu.async_commit
// CHECK: scf.for
// CHECK: blkgpu.async_wait {pending = 1 : i32}
// CHECK: blkgpu.wgmma {{.*}} {pending = 1 : i32}
// CHECK: blkgpu.async_copy
// CHECK: blkgpu.async_copy
// CHECK: blkgpu.async_commit
// CHECK: scf.yield
// CHECK: %[[DONE:.*]] = blkgpu.wgmma_wait %{{.*}} {pending = 0 : i32}
// CHECK: blkgpu.async_wait {pending = 0 : i32}
// CHECK: blkgpu.convert_layout %[[DONE]]
func.func @stages3(%pa0: tensor<128x64x!blk.ptr<f16>, #a>, %pb0: tensor<64x128x!blk.ptr<f16>, #b>,
                 %m: tensor<128x64xi1, #a>, %inc_a: tensor<128x64xi32, #a>, %inc_b: tensor<64x128xi32, #b>,
                 %pc: tensor<128x128x!blk.ptr<f32>, #c>, %n: i32)
    attributes {blk.num_stages = 3 : i32, blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero_a = arith.constant dense<0.0> : tensor<128x64xf16, #a>
  %one_a = arith.constant dense<1.0> : tensor<128x64xf16, #a>
  %init = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init, %pa = %pa0, %pb = %pb0)
      -> (tensor<128x128xf32, #mma>, tensor<128x64x!blk.ptr<f16>, #a>, tensor<64x128x!blk.ptr<f16>, #b>) : i32 {
    %x = blk.load %pa, %m, %zero_a : tensor<128x64x!blk.ptr<f16>, #a>
    %y = blk.load %pb : tensor<64x128x!blk.ptr<f16>, #b>
    %xa = blkgpu.local_alloc %x : tensor<128x64xf16, #a> -> !blkgpu.memdesc<128x64xf16, #nv>
    %yb = blkgpu.local_alloc %y : tensor<64x128xf16, #b> -> !blkgpu.memdesc<64x128xf16, #nv>
    %d = blkgpu.wgmma %xa, %yb, %acc : !blkgpu.memdesc<128x64xf16, #nv>, !blkgpu.memdesc<64x128xf16, #nv>, tensor<128x128xf32, #mma> -> tensor<128x128xf32, #mma>
    %pa1 = blk.addptr %pa, %inc_a : tensor<128x64x!blk.ptr<f16>, #a>, tensor<128x64xi32, #a>
    %pb1 = blk.addptr %pb, %inc_b : tensor<64x128x!blk.ptr<f16>, #b>, tensor<64x128xi32, #b>
    scf.yield %d, %pa1, %pb1 : tensor<128x128xf32, #mma>, tensor<128x64x!blk.ptr<f16>, #a>, tensor<64x128x!blk.ptr<f16>, #b>
  }
  %out = blkgpu.convert_layout %r#0 : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #c>
  blk.store %pc, %out : tensor<128x128x!blk.ptr<f32>, #c>
  return
}

// CHECK-LABEL: func.func @stages4
// CHECK: blkgpu.local_alloc -> !blkgpu.memdesc<4x128x64xf16
// CHECK: blkgpu.local_alloc -> !blkgpu.memdesc<4x64x128xf16
// CHECK: blkgpu.async_copy
// CHECK: blkgpu.async_copy
// CHECK: blkgpu.async_commit
// CHECK: blkgpu.async_copy
// CHECK: blkgpu.async_copy
// CHECK: blkgpu.async_commit
// CHECK: blkgpu.async_copy
// CHECK: blkgpu.async_copy
// CHECK: blkgpu.async_commit
// CHECK-NOT: blkgpu.async_commit
// CHECK: scf.for
// CHECK: blkgpu.async_wait {pending = 2 : i32}
// CHECK: blkgpu.wgmma {{.*}} {pending = 1 : i32}
// CHECK: blkgpu.async_copy
// CHECK: blkgpu.async_copy
// CHECK: blkgpu.async_commit
// CHECK: scf.yield
// CHECK: %[[DONE:.*]] = blkgpu.wgmma_wait %{{.*}} {pending = 0 : i32}
// CHECK: blkgpu.async_wait {pending = 0 : i32}
// CHECK: blkgpu.convert_layout %[[DONE]]
func.func @stages4(%pa0: tensor<128x64x!blk.ptr<f16>, #a>, %pb0: tensor<64x128x!blk.ptr<f16>, #b>,
                 %m: tensor<128x64xi1, #a>, %inc_a: tensor<128x64xi32, #a>, %inc_b: tensor<64x128xi32, #b>,
                 %pc: tensor<128x128x!blk.ptr<f32>, #c>, %n: i32)
    attributes {blk.num_stages = 4 : i32, blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero_a = arith.constant dense<0.0> : tensor<128x64xf16, #a>
  %one_a = arith.constant dense<1.0> : tensor<128x64xf16, #a>
  %init = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init, %pa = %pa0, %pb = %pb0)
      -> (tensor<128x128xf32, #mma>, tensor<128x64x!blk.ptr<f16>, #a>, tensor<64x128x!blk.ptr<f16>, #b>) : i32 {
    %x = blk.load %pa, %m, %zero_a : tensor<128x64x!blk.ptr<f16>, #a>
    %y = blk.load %pb : tensor<64x128x!blk.ptr<f16>, #b>
    %xa = blkgpu.local_alloc %x : tensor<128x64xf16, #a> -> !blkgpu.memdesc<128x64xf16, #nv>
    %yb = blkgpu.local_alloc %y : tensor<64x128xf16, #b> -> !blkgpu.memdesc<64x128xf16, #nv>
    %d = blkgpu.wgmma %xa, %yb, %acc : !blkgpu.memdesc<128x64xf16, #nv>, !blkgpu.memdesc<64x128xf16, #nv>, tensor<128x128xf32, #mma> -> tensor<128x128xf32, #mma>
    %pa1 = blk.addptr %pa, %inc_a : tensor<128x64x!blk.ptr<f16>, #a>, tensor<128x64xi32, #a>
    %pb1 = blk.addptr %pb, %inc_b : tensor<64x128x!blk.ptr<f16>, #b>, tensor<64x128xi32, #b>
    scf.yield %d, %pa1, %pb1 : tensor<128x128xf32, #mma>, tensor<128x64x!blk.ptr<f16>, #a>, tensor<64x128x!blk.ptr<f16>, #b>
  }
  %out = blkgpu.convert_layout %r#0 : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #c>
  blk.store %pc, %out : tensor<128x128x!blk.ptr<f32>, #c>
  return
}

// One stage: nothing to prefetch.
// CHECK-LABEL: func.func @one_stage
// CHECK-NOT: async
// CHECK: blkgpu.wgmma
// CHECK-NOT: pending
// CHECK-NOT: async
func.func @one_stage(%pa0: tensor<128x64x!blk.ptr<f16>, #a>, %pb0: tensor<64x128x!blk.ptr<f16>, #b>,
                 %m: tensor<128x64xi1, #a>, %inc_a: tensor<128x64xi32, #a>, %inc_b: tensor<64x128xi32, #b>,
                 %pc: tensor<128x128x!blk.ptr<f32>, #c>, %n: i32)
    attributes {blk.num_stages = 1 : i32, blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero_a = arith.constant dense<0.0> : tensor<128x64xf16, #a>
  %one_a = arith.constant dense<1.0> : tensor<128x64xf16, #a>
  %init = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init, %pa = %pa0, %pb = %pb0)
      -> (tensor<128x128xf32, #mma>, tensor<128x64x!blk.ptr<f16>, #a>, tensor<64x128x!blk.ptr<f16>, #b>) : i32 {
    %x = blk.load %pa, %m, %zero_a : tensor<128x64x!blk.ptr<f16>, #a>
    %y = blk.load %pb : tensor<64x128x!blk.ptr<f16>, #b>
    %xa = blkgpu.local_alloc %x : tensor<128x64xf16, #a> -> !blkgpu.memdesc<128x64xf16, #nv>
    %yb = blkgpu.local_alloc %y : tensor<64x128xf16, #b> -> !blkgpu.memdesc<64x128xf16, #nv>
    %d = blkgpu.wgmma %xa, %yb, %acc : !blkgpu.memdesc<128x64xf16, #nv>, !blkgpu.memdesc<64x128xf16, #nv>, tensor<128x128xf32, #mma> -> tensor<128x128xf32, #mma>
    %pa1 = blk.addptr %pa, %inc_a : tensor<128x64x!blk.ptr<f16>, #a>, tensor<128x64xi32, #a>
    %pb1 = blk.addptr %pb, %inc_b : tensor<64x128x!blk.ptr<f16>, #b>, tensor<64x128xi32, #b>
    scf.yield %d, %pa1, %pb1 : tensor<128x128xf32, #mma>, tensor<128x64x!blk.ptr<f16>, #a>, tensor<64x128x!blk.ptr<f16>, #b>
  }
  %out = blkgpu.convert_layout %r#0 : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #c>
  blk.store %pc, %out : tensor<128x128x!blk.ptr<f32>, #c>
  return
}

// A's `other` is 1.0 (cp.async fills zeros): A stays a synchronous load and
// its buffer is stored each iteration, so the wgmma is waited for in place.
// CHECK-LABEL: func.func @other_not_zero
// CHECK: blkgpu.local_alloc -> !blkgpu.memdesc<3x64x128xf16
// CHECK-NOT: memdesc<3x128x64xf16
// CHECK: scf.for
// CHECK: blk.load %{{.*}}, %{{.*}}, %{{.*}} : tensor<128x64x!blk.ptr<f16>
// CHECK: blkgpu.local_alloc %{{.*}} : tensor<128x64xf16
// CHECK-NOT: blkgpu.wgmma {{.*}}pending
// CHECK: scf.yield
func.func @other_not_zero(%pa0: tensor<128x64x!blk.ptr<f16>, #a>, %pb0: tensor<64x128x!blk.ptr<f16>, #b>,
                 %m: tensor<128x64xi1, #a>, %inc_a: tensor<128x64xi32, #a>, %inc_b: tensor<64x128xi32, #b>,
                 %pc: tensor<128x128x!blk.ptr<f32>, #c>, %n: i32)
    attributes {blk.num_stages = 3 : i32, blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero_a = arith.constant dense<0.0> : tensor<128x64xf16, #a>
  %one_a = arith.constant dense<1.0> : tensor<128x64xf16, #a>
  %init = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init, %pa = %pa0, %pb = %pb0)
      -> (tensor<128x128xf32, #mma>, tensor<128x64x!blk.ptr<f16>, #a>, tensor<64x128x!blk.ptr<f16>, #b>) : i32 {
    %x = blk.load %pa, %m, %one_a : tensor<128x64x!blk.ptr<f16>, #a>
    %y = blk.load %pb : tensor<64x128x!blk.ptr<f16>, #b>
    %xa = blkgpu.local_alloc %x : tensor<128x64xf16, #a> -> !blkgpu.memdesc<128x64xf16, #nv>
    %yb = blkgpu.local_alloc %y : tensor<64x128xf16, #b> -> !blkgpu.memdesc<64x128xf16, #nv>
    %d = blkgpu.wgmma %xa, %yb, %acc : !blkgpu.memdesc<128x64xf16, #nv>, !blkgpu.memdesc<64x128xf16, #nv>, tensor<128x128xf32, #mma> -> tensor<128x128xf32, #mma>
    %pa1 = blk.addptr %pa, %inc_a : tensor<128x64x!blk.ptr<f16>, #a>, tensor<128x64xi32, #a>
    %pb1 = blk.addptr %pb, %inc_b : tensor<64x128x!blk.ptr<f16>, #b>, tensor<64x128xi32, #b>
    scf.yield %d, %pa1, %pb1 : tensor<128x128xf32, #mma>, tensor<128x64x!blk.ptr<f16>, #a>, tensor<64x128x!blk.ptr<f16>, #b>
  }
  %out = blkgpu.convert_layout %r#0 : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #c>
  blk.store %pc, %out : tensor<128x128x!blk.ptr<f32>, #c>
  return
}

// Pipelining again finds no loads to prefetch: the result is stable.
// TWICE-LABEL: func.func @stages3
// TWICE-COUNT-3: blkgpu.async_commit
// TWICE-NOT: blkgpu.async_commit
// TWICE-LABEL: func.func @stages4

// A loop whose wgmma waits in its iteration (attention's S = Q·Kᵀ: Q is
// no ring slot, the accumulator is not carried): nothing reads a slot past
// its iteration, so the copies of iteration i + S - 1 go right after the
// wait for tile i, before the consumers, and overlap the whole body.
// CHECK-LABEL: func.func @copies_first
// CHECK: scf.for
// CHECK: blkgpu.async_wait {pending = 0 : i32}
// CHECK-NOT: blkgpu.wgmma
// CHECK: blkgpu.async_copy
// CHECK-NEXT: blkgpu.async_commit
// CHECK: blkgpu.wgmma
// CHECK-NOT: pending = 1
// CHECK: scf.yield
func.func @copies_first(%qa: !blkgpu.memdesc<128x64xf16, #nv>, %pk0: tensor<64x128x!blk.ptr<f16>, #b>,
                        %inc: tensor<64x128xi32, #b>, %pc: tensor<128x128x!blk.ptr<f32>, #c>, %n: i32)
    attributes {blk.num_stages = 2 : i32, blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero, %pk = %pk0)
      -> (tensor<128x128xf32, #mma>, tensor<64x128x!blk.ptr<f16>, #b>) : i32 {
    %k = blk.load %pk : tensor<64x128x!blk.ptr<f16>, #b>
    %kb = blkgpu.local_alloc %k : tensor<64x128xf16, #b> -> !blkgpu.memdesc<64x128xf16, #nv>
    %s = blkgpu.wgmma %qa, %kb, %zero : !blkgpu.memdesc<128x64xf16, #nv>, !blkgpu.memdesc<64x128xf16, #nv>, tensor<128x128xf32, #mma> -> tensor<128x128xf32, #mma>
    %t = arith.addf %acc, %s : tensor<128x128xf32, #mma>
    %pk1 = blk.addptr %pk, %inc : tensor<64x128x!blk.ptr<f16>, #b>, tensor<64x128xi32, #b>
    scf.yield %t, %pk1 : tensor<128x128xf32, #mma>, tensor<64x128x!blk.ptr<f16>, #b>
  }
  %out = blkgpu.convert_layout %r#0 : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #c>
  blk.store %pc, %out : tensor<128x128x!blk.ptr<f32>, #c>
  return
}

// A dot under a branch of the body (a block skipped by a run-time
// condition) whose operands the body loads every iteration: the buffers
// move up to their loads (hoistOperandBuffers), so the loop is pipelined
// as any other; the wait and the slot views are at the body's level, the
// wgmma stays in the branch, reading the views.
// CHECK-LABEL: func.func @dot_in_branch
// CHECK: blkgpu.local_alloc -> !blkgpu.memdesc<2x128x64xf16
// CHECK: blkgpu.local_alloc -> !blkgpu.memdesc<2x64x128xf16
// CHECK: scf.for
// CHECK: blkgpu.async_wait {pending = 0 : i32}
// CHECK: blkgpu.async_copy
// CHECK: blkgpu.async_copy
// CHECK: blkgpu.async_commit
// CHECK: %[[X:.*]] = blkgpu.memdesc_index
// CHECK-NEXT: %[[Y:.*]] = blkgpu.memdesc_index
// CHECK: scf.if
// CHECK-NOT: blkgpu.local_alloc
// CHECK: blkgpu.wgmma %[[X]], %[[Y]]
// CHECK: scf.yield
// CHECK: blkgpu.async_wait {pending = 0 : i32}
func.func @dot_in_branch(%pa0: tensor<128x64x!blk.ptr<f16>, #a>, %pb0: tensor<64x128x!blk.ptr<f16>, #b>,
                         %inc_a: tensor<128x64xi32, #a>, %inc_b: tensor<64x128xi32, #b>,
                         %pc: tensor<128x128x!blk.ptr<f32>, #c>, %n: i32)
    attributes {blk.num_stages = 2 : i32, blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %init = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %init, %pa = %pa0, %pb = %pb0)
      -> (tensor<128x128xf32, #mma>, tensor<128x64x!blk.ptr<f16>, #a>, tensor<64x128x!blk.ptr<f16>, #b>) : i32 {
    %x = blk.load %pa : tensor<128x64x!blk.ptr<f16>, #a>
    %y = blk.load %pb : tensor<64x128x!blk.ptr<f16>, #b>
    %odd = arith.remsi %i, %c2 : i32
    %skip = arith.cmpi ne, %odd, %c0 : i32
    %next = scf.if %skip -> (tensor<128x128xf32, #mma>) {
      scf.yield %acc : tensor<128x128xf32, #mma>
    } else {
      %xa = blkgpu.local_alloc %x : tensor<128x64xf16, #a> -> !blkgpu.memdesc<128x64xf16, #nv>
      %yb = blkgpu.local_alloc %y : tensor<64x128xf16, #b> -> !blkgpu.memdesc<64x128xf16, #nv>
      %d = blkgpu.wgmma %xa, %yb, %acc : !blkgpu.memdesc<128x64xf16, #nv>, !blkgpu.memdesc<64x128xf16, #nv>, tensor<128x128xf32, #mma> -> tensor<128x128xf32, #mma>
      scf.yield %d : tensor<128x128xf32, #mma>
    }
    %pa1 = blk.addptr %pa, %inc_a : tensor<128x64x!blk.ptr<f16>, #a>, tensor<128x64xi32, #a>
    %pb1 = blk.addptr %pb, %inc_b : tensor<64x128x!blk.ptr<f16>, #b>, tensor<64x128xi32, #b>
    scf.yield %next, %pa1, %pb1 : tensor<128x128xf32, #mma>, tensor<128x64x!blk.ptr<f16>, #a>, tensor<64x128x!blk.ptr<f16>, #b>
  }
  %out = blkgpu.convert_layout %r#0 : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #c>
  blk.store %pc, %out : tensor<128x128x!blk.ptr<f32>, #c>
  return
}

// Index arithmetic that the copies (stage 0) and the consumers share (the
// tile's row indices: its load's mask, and a mask of the scores, as in
// attention's ragged phase) is computed again by the consumers from the
// induction variable instead of being carried from the copies' iteration:
// the loop carries only the accumulator, and the indices feeding the
// consumers' conversion are made inside the loop, after the copies.
// CHECK-LABEL: func.func @recompute_index_math
// CHECK: scf.for %[[IV:[^ ]*]] = {{.*}} iter_args(%{{[^ ]*}} = %{{[^ ]*}}) -> (tensor<128x64xf32, #{{[^ ]*}}>)
// CHECK: blkgpu.async_copy
// CHECK: blkgpu.async_commit
// CHECK: blkgpu.wgmma
// CHECK: %[[I:.*]] = arith.addi %[[IV]], %{{.*}} : i32
// CHECK-NEXT: %[[S:.*]] = blk.splat %[[I]] : i32 -> tensor<64xi32, #{{[^ ]*}}>
// CHECK-NEXT: %[[ROWS:.*]] = arith.addi %[[S]], %{{.*}}
// CHECK-NEXT: blkgpu.convert_layout %[[ROWS]]
// CHECK: scf.yield
#rows = #blkgpu.slice<{dim = 1, parent = #b}>
#bcols = #blkgpu.slice<{dim = 0, parent = #b}>
#mma64 = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 64}>
#mcols = #blkgpu.slice<{dim = 0, parent = #mma64}>
func.func @recompute_index_math(%qa: !blkgpu.memdesc<128x64xf16, #nv>, %pk: !blk.ptr<f16>,
                                %pc: tensor<128x64x!blk.ptr<f32>, #c>, %n: i32)
    attributes {blk.num_stages = 2 : i32, blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma64>
  %ninf = arith.constant dense<0xFF800000> : tensor<128x64xf32, #mma64>
  %range = blk.make_range 0, 64 : tensor<64xi32, #rows>
  %nn = blk.splat %n : i32 -> tensor<64xi32, #rows>
  %w = arith.constant dense<64> : tensor<64x1xi32, #b>
  %cols = blk.make_range 0, 64 : tensor<64xi32, #bcols>
  %cols2 = blk.expand_dims %cols {axis = 0 : i32} : tensor<64xi32, #bcols> -> tensor<1x64xi32, #b>
  %colsb = blk.broadcast %cols2 : tensor<1x64xi32, #b> -> tensor<64x64xi32, #b>
  %base = blk.splat %pk : !blk.ptr<f16> -> tensor<64x64x!blk.ptr<f16>, #b>
  %mn = blk.splat %n : i32 -> tensor<128x64xi32, #mma64>
  %r = scf.for %i = %c0 to %n step %c64 iter_args(%acc = %zero) -> (tensor<128x64xf32, #mma64>) : i32 {
    %is = blk.splat %i : i32 -> tensor<64xi32, #rows>
    %rows = arith.addi %is, %range : tensor<64xi32, #rows>
    %ok = arith.cmpi slt, %rows, %nn : tensor<64xi32, #rows>
    %rows2 = blk.expand_dims %rows {axis = 1 : i32} : tensor<64xi32, #rows> -> tensor<64x1xi32, #b>
    %roff = arith.muli %rows2, %w : tensor<64x1xi32, #b>
    %roffb = blk.broadcast %roff : tensor<64x1xi32, #b> -> tensor<64x64xi32, #b>
    %off = arith.addi %roffb, %colsb : tensor<64x64xi32, #b>
    %ptr = blk.addptr %base, %off : tensor<64x64x!blk.ptr<f16>, #b>, tensor<64x64xi32, #b>
    %ok2 = blk.expand_dims %ok {axis = 1 : i32} : tensor<64xi1, #rows> -> tensor<64x1xi1, #b>
    %okb = blk.broadcast %ok2 : tensor<64x1xi1, #b> -> tensor<64x64xi1, #b>
    %k = blk.load %ptr, %okb : tensor<64x64x!blk.ptr<f16>, #b>
    %kb = blkgpu.local_alloc %k : tensor<64x64xf16, #b> -> !blkgpu.memdesc<64x64xf16, #nv>
    %s = blkgpu.wgmma %qa, %kb, %zero : !blkgpu.memdesc<128x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<128x64xf32, #mma64> -> tensor<128x64xf32, #mma64>
    %mr = blkgpu.convert_layout %rows : tensor<64xi32, #rows> -> tensor<64xi32, #mcols>
    %mr2 = blk.expand_dims %mr {axis = 0 : i32} : tensor<64xi32, #mcols> -> tensor<1x64xi32, #mma64>
    %mrb = blk.broadcast %mr2 : tensor<1x64xi32, #mma64> -> tensor<128x64xi32, #mma64>
    %keep = arith.cmpi slt, %mrb, %mn : tensor<128x64xi32, #mma64>
    %sm = arith.select %keep, %s, %ninf : tensor<128x64xi1, #mma64>, tensor<128x64xf32, #mma64>
    %t = arith.addf %acc, %sm : tensor<128x64xf32, #mma64>
    scf.yield %t : tensor<128x64xf32, #mma64>
  }
  %out = blkgpu.convert_layout %r : tensor<128x64xf32, #mma64> -> tensor<128x64xf32, #c>
  blk.store %pc, %out : tensor<128x64x!blk.ptr<f32>, #c>
  return
}

// Attention's loop: S = Q·Kᵀ waits in its iteration; P·V (P in registers)
// accumulates into the carried O, which the next iteration scales before
// its own P·V. P·V is left running (pending = 1) into the next iteration,
// and O is waited for just before that first reader (after the next Q·Kᵀ,
// whose synchronous wait has completed it already), and after the loop.
// V's ring, which the running P·V reads, has one slot more than K's
// (S + 1 = 3): the copies at the top of iteration i then overwrite the slot
// of i - 2, never the one of i - 1 that P·V may still be reading; the
// copies still go first.
// CHECK-LABEL: func.func @run_on
// CHECK: blkgpu.local_alloc -> !blkgpu.memdesc<2x64x128xf16
// CHECK: blkgpu.local_alloc -> !blkgpu.memdesc<3x128x128xf16
// CHECK: scf.for {{.*}} iter_args(%[[O:[^ ]*]] = %{{[^ ]*}}
// CHECK: blkgpu.async_wait {pending = 0 : i32}
// CHECK-NOT: blkgpu.wgmma
// CHECK: blkgpu.async_commit
// CHECK: blkgpu.wgmma %{{.*}} : !blkgpu.memdesc<128x64xf16
// CHECK-NOT: pending = 1
// CHECK: %[[READY:.*]] = blkgpu.wgmma_wait %[[O]] {pending = 0 : i32}
// CHECK-NEXT: arith.mulf %[[READY]]
// CHECK: %[[PV:.*]] = blkgpu.wgmma {{.*}} {pending = 1 : i32} : tensor<128x128xf16
// CHECK: scf.yield %[[PV]]
// CHECK: %[[DONE:.*]] = blkgpu.wgmma_wait %{{.*}} {pending = 0 : i32}
// CHECK: blkgpu.convert_layout %[[DONE]]
func.func @run_on(%qa: !blkgpu.memdesc<128x64xf16, #nv>, %pk0: tensor<64x128x!blk.ptr<f16>, #b>,
                  %pv0: tensor<128x128x!blk.ptr<f16>, #c>, %inc: tensor<64x128xi32, #b>,
                  %incv: tensor<128x128xi32, #c>, %alpha: tensor<128x128xf32, #mma>,
                  %pc: tensor<128x128x!blk.ptr<f32>, #c>, %n: i32)
    attributes {blk.num_stages = 2 : i32, blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<128x128xf32, #mma>
  %r:3 = scf.for %i = %c0 to %n step %c1 iter_args(%o = %zero, %pk = %pk0, %pv = %pv0)
      -> (tensor<128x128xf32, #mma>, tensor<64x128x!blk.ptr<f16>, #b>, tensor<128x128x!blk.ptr<f16>, #c>) : i32 {
    %k = blk.load %pk : tensor<64x128x!blk.ptr<f16>, #b>
    %kb = blkgpu.local_alloc %k : tensor<64x128xf16, #b> -> !blkgpu.memdesc<64x128xf16, #nv>
    %s = blkgpu.wgmma %qa, %kb, %zero : !blkgpu.memdesc<128x64xf16, #nv>, !blkgpu.memdesc<64x128xf16, #nv>, tensor<128x128xf32, #mma> -> tensor<128x128xf32, #mma>
    %p = arith.truncf %s : tensor<128x128xf32, #mma> to tensor<128x128xf16, #mma>
    %scaled = arith.mulf %o, %alpha : tensor<128x128xf32, #mma>
    %v = blk.load %pv : tensor<128x128x!blk.ptr<f16>, #c>
    %vb = blkgpu.local_alloc %v : tensor<128x128xf16, #c> -> !blkgpu.memdesc<128x128xf16, #nv>
    %o1 = blkgpu.wgmma %p, %vb, %scaled : tensor<128x128xf16, #mma>, !blkgpu.memdesc<128x128xf16, #nv>, tensor<128x128xf32, #mma> -> tensor<128x128xf32, #mma>
    %pk1 = blk.addptr %pk, %inc : tensor<64x128x!blk.ptr<f16>, #b>, tensor<64x128xi32, #b>
    %pv1 = blk.addptr %pv, %incv : tensor<128x128x!blk.ptr<f16>, #c>, tensor<128x128xi32, #c>
    scf.yield %o1, %pk1, %pv1 : tensor<128x128xf32, #mma>, tensor<64x128x!blk.ptr<f16>, #b>, tensor<128x128x!blk.ptr<f16>, #c>
  }
  %out = blkgpu.convert_layout %r#0 : tensor<128x128xf32, #mma> -> tensor<128x128xf32, #c>
  blk.store %pc, %out : tensor<128x128x!blk.ptr<f32>, #c>
  return
}
