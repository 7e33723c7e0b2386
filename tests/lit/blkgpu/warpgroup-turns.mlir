// blkgpu-warpgroup-turns on hand-written blkgpu IR (verifier on): in a
// warp-specialised kernel's consumer region, a loop issuing a Q·Kᵀ
// (deferred, pending = -1) and a P·V that runs on into the next iteration
// (pending = 1, yielded) makes its consumer warpgroups take turns: a wait
// right before P·V (after the rescale), a pass right after Q·Kᵀ (before
// its wait), a wait of all but warpgroup 0 before the loop and a pass of
// all but the last after it. Loops left alone: a barrier in a turn (the
// top of the body, or after P·V), a scratch user there, one consumer
// warpgroup, a loop outside warp_specialize, a P·V that does not run on.
// The hand-overlapped form (both wgmmas issued back to back) takes turns
// too: @overlapped.
// The PTX of the ops: tests/lit/codegen/warp-specialize.test.
// RUN: blk-opt %s --split-input-file --blkgpu-warpgroup-turns | FileCheck %s

#mma = #blkgpu.mma<{version = 3, warpsPerCTA = [8, 1], instrN = 64}>
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>

// CHECK-LABEL: func.func @attention
// CHECK: } consumer {
// CHECK: blkgpu.barrier
// CHECK-NEXT: blkgpu.turn_wait {skip = 0 : i32, warpgroups = 2 : i32}
// CHECK-NEXT: %[[LOOP:.*]] = scf.for
// CHECK: blkgpu.wgmma {{.*}}{pending = -1 : i32}
// CHECK-NEXT: blkgpu.turn_pass {warpgroups = 2 : i32}
// CHECK-NEXT: blkgpu.wgmma_wait
// CHECK: arith.mulf
// CHECK-NEXT: blkgpu.turn_wait {warpgroups = 2 : i32}
// CHECK-NEXT: blkgpu.wgmma {{.*}}{pending = 1 : i32}
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: blkgpu.turn_pass {skip = 1 : i32, warpgroups = 2 : i32}
// CHECK-NEXT: blkgpu.wgmma_wait %[[LOOP]]
func.func @attention(%q: !blkgpu.memdesc<128x64xf16, #nv>, %k: !blkgpu.memdesc<64x64xf16, #nv>,
    %p: tensor<128x64xf16, #mma>, %acc: tensor<128x64xf32, #mma>, %n: i32)
    attributes {blk.warp_specialize, blkgpu.num_warps = 8 : i32} {
  blkgpu.warp_specialize attributes {consumer_registers = 232 : i32, producer_registers = 40 : i32, producer_warps = 4 : i32} producer {
  } consumer {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %half = arith.constant dense<0.5> : tensor<128x64xf32, #mma>
    blkgpu.barrier
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%o = %acc) -> (tensor<128x64xf32, #mma>) : i32 {
      %s = blkgpu.wgmma %q, %k, %zero {pending = -1 : i32} : !blkgpu.memdesc<128x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
      %sw = blkgpu.wgmma_wait %s {pending = 0 : i32} : tensor<128x64xf32, #mma>
      %e = math.exp2 %sw : tensor<128x64xf32, #mma>
      %ow = blkgpu.wgmma_wait %o {pending = 0 : i32} : tensor<128x64xf32, #mma>
      %scaled = arith.mulf %ow, %half : tensor<128x64xf32, #mma>
      %next = blkgpu.wgmma %p, %k, %scaled {pending = 1 : i32} : tensor<128x64xf16, #mma>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
      scf.yield %next : tensor<128x64xf32, #mma>
    }
    %rw = blkgpu.wgmma_wait %r {pending = 0 : i32} : tensor<128x64xf32, #mma>
  }
  return
}

// -----

#mma = #blkgpu.mma<{version = 3, warpsPerCTA = [8, 1], instrN = 64}>
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>

// A barrier at the top of the body is inside the turn that spans the back
// edge (P·V_i to Q·Kᵀ_i+1): the other warpgroup may be waiting for that
// turn instead of meeting the barrier. No turns.
// CHECK-LABEL: func.func @barrier_in_turn
// CHECK-NOT: blkgpu.turn_
// CHECK: return
func.func @barrier_in_turn(%q: !blkgpu.memdesc<128x64xf16, #nv>, %k: !blkgpu.memdesc<64x64xf16, #nv>,
    %p: tensor<128x64xf16, #mma>, %acc: tensor<128x64xf32, #mma>, %n: i32)
    attributes {blk.warp_specialize, blkgpu.num_warps = 8 : i32} {
  blkgpu.warp_specialize attributes {consumer_registers = 232 : i32, producer_registers = 40 : i32, producer_warps = 4 : i32} producer {
  } consumer {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%o = %acc) -> (tensor<128x64xf32, #mma>) : i32 {
      blkgpu.barrier
      %s = blkgpu.wgmma %q, %k, %zero {pending = -1 : i32} : !blkgpu.memdesc<128x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
      %sw = blkgpu.wgmma_wait %s {pending = 0 : i32} : tensor<128x64xf32, #mma>
      %ow = blkgpu.wgmma_wait %o {pending = 0 : i32} : tensor<128x64xf32, #mma>
      %sum = arith.addf %ow, %sw : tensor<128x64xf32, #mma>
      %next = blkgpu.wgmma %p, %k, %sum {pending = 1 : i32} : tensor<128x64xf16, #mma>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
      scf.yield %next : tensor<128x64xf32, #mma>
    }
  }
  return
}

// -----

#mma = #blkgpu.mma<{version = 3, warpsPerCTA = [8, 1], instrN = 64}>
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#blocked = #blkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>

// A scratch user (a conversion through shared memory, which meets the
// consumers at a barrier) after P·V, in the turn. No turns.
// CHECK-LABEL: func.func @scratch_in_turn
// CHECK-NOT: blkgpu.turn_
// CHECK: return
func.func @scratch_in_turn(%q: !blkgpu.memdesc<128x64xf16, #nv>, %k: !blkgpu.memdesc<64x64xf16, #nv>,
    %p: tensor<128x64xf16, #mma>, %acc: tensor<128x64xf32, #mma>, %n: i32)
    attributes {blk.warp_specialize, blkgpu.num_warps = 8 : i32} {
  blkgpu.warp_specialize attributes {consumer_registers = 232 : i32, producer_registers = 40 : i32, producer_warps = 4 : i32} producer {
  } consumer {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%o = %acc, %x = %zero) -> (tensor<128x64xf32, #mma>, tensor<128x64xf32, #mma>) : i32 {
      %s = blkgpu.wgmma %q, %k, %zero {pending = -1 : i32} : !blkgpu.memdesc<128x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
      %sw = blkgpu.wgmma_wait %s {pending = 0 : i32} : tensor<128x64xf32, #mma>
      %ow = blkgpu.wgmma_wait %o {pending = 0 : i32} : tensor<128x64xf32, #mma>
      %next = blkgpu.wgmma %p, %k, %ow {pending = 1 : i32} : tensor<128x64xf16, #mma>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
      %c = blkgpu.convert_layout %sw {blkgpu.scratch_offset = 0 : i64} : tensor<128x64xf32, #mma> -> tensor<128x64xf32, #blocked>
      %back = blkgpu.convert_layout %c {blkgpu.scratch_offset = 0 : i64} : tensor<128x64xf32, #blocked> -> tensor<128x64xf32, #mma>
      scf.yield %next, %back : tensor<128x64xf32, #mma>, tensor<128x64xf32, #mma>
    }
  }
  return
}

// -----

#mma = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 64}>
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>

// One consumer warpgroup: nobody to take turns with.
// CHECK-LABEL: func.func @one_warpgroup
// CHECK-NOT: blkgpu.turn_
// CHECK: return
func.func @one_warpgroup(%q: !blkgpu.memdesc<64x64xf16, #nv>, %k: !blkgpu.memdesc<64x64xf16, #nv>,
    %p: tensor<64x64xf16, #mma>, %acc: tensor<64x64xf32, #mma>, %n: i32)
    attributes {blk.warp_specialize, blkgpu.num_warps = 4 : i32} {
  blkgpu.warp_specialize attributes {consumer_registers = 232 : i32, producer_registers = 40 : i32, producer_warps = 4 : i32} producer {
  } consumer {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%o = %acc) -> (tensor<64x64xf32, #mma>) : i32 {
      %s = blkgpu.wgmma %q, %k, %zero {pending = -1 : i32} : !blkgpu.memdesc<64x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
      %sw = blkgpu.wgmma_wait %s {pending = 0 : i32} : tensor<64x64xf32, #mma>
      %ow = blkgpu.wgmma_wait %o {pending = 0 : i32} : tensor<64x64xf32, #mma>
      %sum = arith.addf %ow, %sw : tensor<64x64xf32, #mma>
      %next = blkgpu.wgmma %p, %k, %sum {pending = 1 : i32} : tensor<64x64xf16, #mma>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
      scf.yield %next : tensor<64x64xf32, #mma>
    }
  }
  return
}

// -----

#mma = #blkgpu.mma<{version = 3, warpsPerCTA = [8, 1], instrN = 64}>
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>

// Not warp-specialised (every warp of the program meets bar.sync 0 there;
// the turns count the consumer warpgroups of a warp_specialize), and a P·V
// that is waited for in its own iteration but issued only after Q·Kᵀ was
// waited for (not back to back): no turns.
// CHECK-LABEL: func.func @plain
// CHECK-NOT: blkgpu.turn_
// CHECK-LABEL: func.func @synchronous
// CHECK-NOT: blkgpu.turn_
// CHECK: return
func.func @plain(%q: !blkgpu.memdesc<128x64xf16, #nv>, %k: !blkgpu.memdesc<64x64xf16, #nv>,
    %p: tensor<128x64xf16, #mma>, %acc: tensor<128x64xf32, #mma>, %n: i32)
    attributes {blkgpu.num_warps = 8 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%o = %acc) -> (tensor<128x64xf32, #mma>) : i32 {
    %s = blkgpu.wgmma %q, %k, %zero {pending = -1 : i32} : !blkgpu.memdesc<128x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
    %sw = blkgpu.wgmma_wait %s {pending = 0 : i32} : tensor<128x64xf32, #mma>
    %ow = blkgpu.wgmma_wait %o {pending = 0 : i32} : tensor<128x64xf32, #mma>
    %sum = arith.addf %ow, %sw : tensor<128x64xf32, #mma>
    %next = blkgpu.wgmma %p, %k, %sum {pending = 1 : i32} : tensor<128x64xf16, #mma>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
    scf.yield %next : tensor<128x64xf32, #mma>
  }
  return
}
func.func @synchronous(%q: !blkgpu.memdesc<128x64xf16, #nv>, %k: !blkgpu.memdesc<64x64xf16, #nv>,
    %p: tensor<128x64xf16, #mma>, %acc: tensor<128x64xf32, #mma>, %n: i32)
    attributes {blk.warp_specialize, blkgpu.num_warps = 8 : i32} {
  blkgpu.warp_specialize attributes {consumer_registers = 232 : i32, producer_registers = 40 : i32, producer_warps = 4 : i32} producer {
  } consumer {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %r = scf.for %i = %c0 to %n step %c1 iter_args(%o = %acc) -> (tensor<128x64xf32, #mma>) : i32 {
      %s = blkgpu.wgmma %q, %k, %zero {pending = -1 : i32} : !blkgpu.memdesc<128x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
      %sw = blkgpu.wgmma_wait %s {pending = 0 : i32} : tensor<128x64xf32, #mma>
      %sum = arith.addf %o, %sw : tensor<128x64xf32, #mma>
      %next = blkgpu.wgmma %p, %k, %sum {pending = -1 : i32} : tensor<128x64xf16, #mma>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
      %nw = blkgpu.wgmma_wait %next {pending = 0 : i32} : tensor<128x64xf32, #mma>
      scf.yield %nw : tensor<128x64xf32, #mma>
    }
  }
  return
}

// -----

#mma = #blkgpu.mma<{version = 3, warpsPerCTA = [8, 1], instrN = 64}>
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>

// The hand-overlapped form: Q·Kᵀ_i and P·V_i-1 issued back to back (both
// deferred), Q·Kᵀ waited for with P·V in flight, P·V before the rescale.
// A turn is the two: the pass right after P·V's issue, the wait for the
// next turn at the body's end; the same wait before the loop and pass
// after it.
// CHECK-LABEL: func.func @overlapped
// CHECK: } consumer {
// CHECK: blkgpu.turn_wait {skip = 0 : i32, warpgroups = 2 : i32}
// CHECK-NEXT: %[[LOOP:.*]]:2 = scf.for
// CHECK-NEXT: blkgpu.wgmma {{.*}}{pending = -1 : i32}
// CHECK-NEXT: blkgpu.wgmma {{.*}}{pending = -1 : i32}
// CHECK-NEXT: blkgpu.turn_pass {warpgroups = 2 : i32}
// CHECK-NEXT: blkgpu.wgmma_wait {{.*}}{pending = 1 : i32}
// CHECK: arith.truncf
// CHECK-NEXT: blkgpu.turn_wait {warpgroups = 2 : i32}
// CHECK-NEXT: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: blkgpu.turn_pass {skip = 1 : i32, warpgroups = 2 : i32}
// CHECK-LABEL: func.func @overlapped_barrier_in_turn
// CHECK-NOT: blkgpu.turn_
// CHECK: return
func.func @overlapped(%q: !blkgpu.memdesc<128x64xf16, #nv>, %k: !blkgpu.memdesc<64x64xf16, #nv>,
    %p: tensor<128x64xf16, #mma>, %acc: tensor<128x64xf32, #mma>, %n: i32)
    attributes {blk.warp_specialize, blkgpu.num_warps = 8 : i32} {
  blkgpu.warp_specialize attributes {consumer_registers = 232 : i32, producer_registers = 40 : i32, producer_warps = 4 : i32} producer {
  } consumer {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%o = %acc, %pb = %p) -> (tensor<128x64xf32, #mma>, tensor<128x64xf16, #mma>) : i32 {
      %s = blkgpu.wgmma %q, %k, %zero {pending = -1 : i32} : !blkgpu.memdesc<128x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
      %pv = blkgpu.wgmma %pb, %k, %o {pending = -1 : i32} : tensor<128x64xf16, #mma>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
      %sw = blkgpu.wgmma_wait %s {pending = 1 : i32} : tensor<128x64xf32, #mma>
      %e = math.exp2 %sw : tensor<128x64xf32, #mma>
      %pvw = blkgpu.wgmma_wait %pv {pending = 0 : i32} : tensor<128x64xf32, #mma>
      %scaled = arith.mulf %pvw, %e : tensor<128x64xf32, #mma>
      %pn = arith.truncf %e : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
      scf.yield %scaled, %pn : tensor<128x64xf32, #mma>, tensor<128x64xf16, #mma>
    }
  }
  return
}
func.func @overlapped_barrier_in_turn(%q: !blkgpu.memdesc<128x64xf16, #nv>, %k: !blkgpu.memdesc<64x64xf16, #nv>,
    %p: tensor<128x64xf16, #mma>, %acc: tensor<128x64xf32, #mma>, %n: i32)
    attributes {blk.warp_specialize, blkgpu.num_warps = 8 : i32} {
  blkgpu.warp_specialize attributes {consumer_registers = 232 : i32, producer_registers = 40 : i32, producer_warps = 4 : i32} producer {
  } consumer {
    %c0 = arith.constant 0 : i32
    %c1 = arith.constant 1 : i32
    %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
    %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%o = %acc, %pb = %p) -> (tensor<128x64xf32, #mma>, tensor<128x64xf16, #mma>) : i32 {
      blkgpu.barrier
      %s = blkgpu.wgmma %q, %k, %zero {pending = -1 : i32} : !blkgpu.memdesc<128x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
      %pv = blkgpu.wgmma %pb, %k, %o {pending = -1 : i32} : tensor<128x64xf16, #mma>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
      %sw = blkgpu.wgmma_wait %s {pending = 1 : i32} : tensor<128x64xf32, #mma>
      %e = math.exp2 %sw : tensor<128x64xf32, #mma>
      %pvw = blkgpu.wgmma_wait %pv {pending = 0 : i32} : tensor<128x64xf32, #mma>
      %scaled = arith.mulf %pvw, %e : tensor<128x64xf32, #mma>
      %pn = arith.truncf %e : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
      scf.yield %scaled, %pn : tensor<128x64xf32, #mma>, tensor<128x64xf16, #mma>
    }
  }
  return
}
