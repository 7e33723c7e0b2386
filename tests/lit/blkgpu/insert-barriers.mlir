// blkgpu-insert-barriers: a barrier goes before a shared-memory user only
// when bytes it writes may still be accessed by an earlier user with no
// barrier since. Users here are 4-warp reductions of 16 bytes at the
// offsets blkgpu-allocate-shared would give; each one's own write->read
// barrier is part of its lowering.
// RUN: blk-opt %s --blkgpu-insert-barriers --split-input-file | FileCheck %s

#a = #blkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// The first user waits for nothing; a second one at the same bytes waits;
// one at other bytes does not.
// CHECK-LABEL: func.func @straight_line
// CHECK-NOT: blkgpu.barrier
// CHECK: blk.reduce {{.*}}scratch_offset = 0
// CHECK-NOT: blkgpu.barrier
// CHECK: blk.reduce {{.*}}scratch_offset = 16
// CHECK-NEXT: ^bb0
// CHECK: blkgpu.barrier
// CHECK-NEXT: blk.reduce {{.*}}scratch_offset = 16
// CHECK-NOT: blkgpu.barrier
// CHECK: return
func.func @straight_line(%v: tensor<512xf32, #a>) -> (f32, f32, f32)
    attributes {blkgpu.num_warps = 4 : i32, blkgpu.shared_bytes = 32 : i64} {
  %s0 = blk.reduce %v {axis = 0 : i32, blkgpu.scratch_offset = 0 : i64} : (tensor<512xf32, #a>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %q = arith.addf %l, %r : f32
    blk.reduce.return %q : f32
  }
  %s1 = blk.reduce %v {axis = 0 : i32, blkgpu.scratch_offset = 16 : i64} : (tensor<512xf32, #a>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %q = arith.addf %l, %r : f32
    blk.reduce.return %q : f32
  }
  %s2 = blk.reduce %v {axis = 0 : i32, blkgpu.scratch_offset = 16 : i64} : (tensor<512xf32, #a>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %q = arith.addf %l, %r : f32
    blk.reduce.return %q : f32
  }
  return %s0, %s1, %s2 : f32, f32, f32
}

// -----

#a = #blkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Alone in a loop, a user must wait for its own previous iteration's
// reads: the barrier goes inside the loop, right before it. After the
// loop, a user at other bytes waits for nothing (also when the loop runs
// zero times).
// CHECK-LABEL: func.func @loop
// CHECK: scf.for
// CHECK-NEXT: blkgpu.barrier
// CHECK-NEXT: blk.reduce {{.*}}scratch_offset = 0
// CHECK: scf.yield
// CHECK-NOT: blkgpu.barrier
// CHECK: blk.reduce {{.*}}scratch_offset = 16
// CHECK-NOT: blkgpu.barrier
// CHECK: return
func.func @loop(%v: tensor<512xf32, #a>, %n: i32) -> (f32, f32)
    attributes {blkgpu.num_warps = 4 : i32, blkgpu.shared_bytes = 32 : i64} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %f0 = arith.constant 0.0 : f32
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%t = %f0) -> (f32) : i32 {
    %s = blk.reduce %v {axis = 0 : i32, blkgpu.scratch_offset = 0 : i64} : (tensor<512xf32, #a>) -> f32 {
    ^bb0(%l: f32, %r: f32):
      %q = arith.addf %l, %r : f32
      blk.reduce.return %q : f32
    }
    %u = arith.addf %t, %s : f32
    scf.yield %u : f32
  }
  %s2 = blk.reduce %v {axis = 0 : i32, blkgpu.scratch_offset = 16 : i64} : (tensor<512xf32, #a>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %q = arith.addf %l, %r : f32
    blk.reduce.return %q : f32
  }
  return %acc, %s2 : f32, f32
}

// -----

#a = #blkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// Two users alternating in a loop body: neither overlaps the one before
// it, in the same iteration or across the back edge: no barrier at all.
// CHECK-LABEL: func.func @ping_pong
// CHECK-NOT: blkgpu.barrier
// CHECK: return
func.func @ping_pong(%v: tensor<512xf32, #a>, %n: i32) -> f32
    attributes {blkgpu.num_warps = 4 : i32, blkgpu.shared_bytes = 32 : i64} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %f0 = arith.constant 0.0 : f32
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%t = %f0) -> (f32) : i32 {
    %s = blk.reduce %v {axis = 0 : i32, blkgpu.scratch_offset = 0 : i64} : (tensor<512xf32, #a>) -> f32 {
    ^bb0(%l: f32, %r: f32):
      %q = arith.addf %l, %r : f32
      blk.reduce.return %q : f32
    }
    %m = blk.reduce %v {axis = 0 : i32, blkgpu.scratch_offset = 16 : i64} : (tensor<512xf32, #a>) -> f32 {
    ^bb0(%l: f32, %r: f32):
      %q = arith.maximumf %l, %r : f32
      blk.reduce.return %q : f32
    }
    %u = arith.addf %t, %s : f32
    %w = arith.addf %u, %m : f32
    scf.yield %w : f32
  }
  return %acc : f32
}

// -----

#a = #blkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// A user in one branch of an if: the user after the if at the same bytes
// must wait (the branch may have run). Barriers already in the IR are
// re-planned: the one written before the if (nothing in flight) goes.
// CHECK-LABEL: func.func @branch
// CHECK-NOT: blkgpu.barrier
// CHECK: scf.if
// CHECK: blk.reduce {{.*}}scratch_offset = 0
// CHECK: } else {
// CHECK-NOT: blk.reduce
// CHECK: blkgpu.barrier
// CHECK-NEXT: blk.reduce {{.*}}scratch_offset = 0
// CHECK: blkgpu.barrier
// CHECK-NEXT: blk.reduce {{.*}}scratch_offset = 0
// CHECK-NOT: blkgpu.barrier
// CHECK: return
func.func @branch(%v: tensor<512xf32, #a>, %c: i1) -> (f32, f32)
    attributes {blkgpu.num_warps = 4 : i32, blkgpu.shared_bytes = 32 : i64} {
  %f0 = arith.constant 0.0 : f32
  blkgpu.barrier
  %x = scf.if %c -> (f32) {
    %s = blk.reduce %v {axis = 0 : i32, blkgpu.scratch_offset = 0 : i64} : (tensor<512xf32, #a>) -> f32 {
    ^bb0(%l: f32, %r: f32):
      %q = arith.addf %l, %r : f32
      blk.reduce.return %q : f32
    }
    scf.yield %s : f32
  } else {
    scf.yield %f0 : f32
  }
  %s1 = blk.reduce %v {axis = 0 : i32, blkgpu.scratch_offset = 0 : i64} : (tensor<512xf32, #a>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %q = arith.addf %l, %r : f32
    blk.reduce.return %q : f32
  }
  %s2 = blk.reduce %v {axis = 0 : i32, blkgpu.scratch_offset = 0 : i64} : (tensor<512xf32, #a>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %q = arith.addf %l, %r : f32
    blk.reduce.return %q : f32
  }
  return %s1, %s2 : f32, f32
}

// -----

// Buffers: a load after a store of the same buffer waits (read after
// write); two loads do not; in the loop, the store of the next iteration
// waits for this iteration's load (write after read).
#b = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
// CHECK-LABEL: func.func @buffers
// CHECK: blkgpu.local_alloc
// CHECK-NOT: blkgpu.barrier
// CHECK: blkgpu.local_store
// CHECK-NEXT: blkgpu.barrier
// CHECK-NEXT: blkgpu.local_load
// CHECK-NEXT: blkgpu.local_load
// CHECK: scf.for
// CHECK-NEXT: blkgpu.barrier
// CHECK-NEXT: blkgpu.local_store
// CHECK-NEXT: blkgpu.barrier
// CHECK-NEXT: blkgpu.local_load
// CHECK: scf.yield
func.func @buffers(%t: tensor<64x64xf16, #b>, %n: i32) -> tensor<64x64xf16, #b>
    attributes {blkgpu.num_warps = 4 : i32, blkgpu.shared_bytes = 8192 : i64} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = blkgpu.local_alloc {blkgpu.buffer_offset = 0 : i64} -> !blkgpu.memdesc<64x64xf16, #sh>
  blkgpu.local_store %t, %a : tensor<64x64xf16, #b> -> !blkgpu.memdesc<64x64xf16, #sh>
  %x = blkgpu.local_load %a : !blkgpu.memdesc<64x64xf16, #sh> -> tensor<64x64xf16, #b>
  %y = blkgpu.local_load %a : !blkgpu.memdesc<64x64xf16, #sh> -> tensor<64x64xf16, #b>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %x) -> (tensor<64x64xf16, #b>) : i32 {
    blkgpu.local_store %acc, %a : tensor<64x64xf16, #b> -> !blkgpu.memdesc<64x64xf16, #sh>
    %z = blkgpu.local_load %a : !blkgpu.memdesc<64x64xf16, #sh> -> tensor<64x64xf16, #b>
    scf.yield %z : tensor<64x64xf16, #b>
  }
  return %r : tensor<64x64xf16, #b>
}

// -----

// A buffer written before a loop and only read in it (attention's Q tile
// read by every iteration's dot): the read waits once, before the loop,
// not in every iteration. Where the body needs a barrier of its own at
// that point anyway (it writes the buffer too), nothing is added before
// the loop.
#b = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
// CHECK-LABEL: func.func @read_only_loop
// CHECK: blkgpu.local_store
// CHECK-NEXT: blkgpu.barrier
// CHECK-NEXT: scf.for
// CHECK-NOT: blkgpu.barrier
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: scf.for
// CHECK-NEXT: blkgpu.barrier
// CHECK-NEXT: blkgpu.local_load
// CHECK-NEXT: blkgpu.barrier
// CHECK-NEXT: blkgpu.local_store
// CHECK: scf.yield
func.func @read_only_loop(%t: tensor<64x64xf16, #b>, %n: i32) -> tensor<64x64xf16, #b>
    attributes {blkgpu.num_warps = 4 : i32, blkgpu.shared_bytes = 8192 : i64} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %a = blkgpu.local_alloc {blkgpu.buffer_offset = 0 : i64} -> !blkgpu.memdesc<64x64xf16, #sh>
  blkgpu.local_store %t, %a : tensor<64x64xf16, #b> -> !blkgpu.memdesc<64x64xf16, #sh>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %t) -> (tensor<64x64xf16, #b>) : i32 {
    %z = blkgpu.local_load %a : !blkgpu.memdesc<64x64xf16, #sh> -> tensor<64x64xf16, #b>
    %s = arith.addf %acc, %z : tensor<64x64xf16, #b>
    scf.yield %s : tensor<64x64xf16, #b>
  }
  %w = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %r) -> (tensor<64x64xf16, #b>) : i32 {
    %z = blkgpu.local_load %a : !blkgpu.memdesc<64x64xf16, #sh> -> tensor<64x64xf16, #b>
    blkgpu.local_store %z, %a : tensor<64x64xf16, #b> -> !blkgpu.memdesc<64x64xf16, #sh>
    scf.yield %z : tensor<64x64xf16, #b>
  }
  return %w : tensor<64x64xf16, #b>
}
