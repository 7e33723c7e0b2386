// blkgpu-allocate-shared: every shared-memory user gets an offset in one
// buffer of the largest scratch; users alternate between its two ends; a
// buffer of at most 1 KiB is doubled so that consecutive small users never
// overlap. The scratch_layout attributes stand for choose-shared-layouts.
// RUN: blk-opt %s --blkgpu-allocate-shared --split-input-file | FileCheck %s

#rows = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #blkgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#a = #blkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#sh = #blkgpu.shared<{vec = 2, perPhase = 4, maxPhase = 16, order = [0, 1], pad = 0}>

// A 64x64 f32 transpose (16384 bytes) and a 512-element sum across 4 warps
// (16 bytes): the buffer is the transpose's; the sum goes to its top end.
// CHECK-LABEL: func.func @big_and_small
// CHECK-SAME: blkgpu.shared_bytes = 16384 : i64
// CHECK: blkgpu.convert_layout {{.*}}blkgpu.scratch_offset = 0 : i64
// CHECK: blk.reduce {{.*}}blkgpu.scratch_offset = 16368 : i64
func.func @big_and_small(%t: tensor<64x64xf32, #rows>, %v: tensor<512xf32, #a>) -> (tensor<64x64xf32, #cols>, f32)
    attributes {blkgpu.num_warps = 4 : i32} {
  %m = blkgpu.convert_layout %t {blkgpu.scratch_layout = #sh} : tensor<64x64xf32, #rows> -> tensor<64x64xf32, #cols>
  %s = blk.reduce %v {axis = 0 : i32} : (tensor<512xf32, #a>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %q = arith.addf %l, %r : f32
    blk.reduce.return %q : f32
  }
  return %m, %s : tensor<64x64xf32, #cols>, f32
}

// -----

#a = #blkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// Three reductions of 16 bytes: a 32-byte buffer, offsets 0, 16, 0. A
// reduction inside one warp (here: 1 warp) needs no shared memory.
// CHECK-LABEL: func.func @small
// CHECK-SAME: blkgpu.shared_bytes = 32 : i64
// CHECK: blk.reduce {{.*}}blkgpu.scratch_offset = 0 : i64
// CHECK: blk.reduce {{.*}}blkgpu.scratch_offset = 16 : i64
// CHECK: blk.reduce {{.*}}blkgpu.scratch_offset = 0 : i64
func.func @small(%v: tensor<512xf32, #a>) -> (f32, f32, f32) attributes {blkgpu.num_warps = 4 : i32} {
  %s0 = blk.reduce %v {axis = 0 : i32} : (tensor<512xf32, #a>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %q = arith.addf %l, %r : f32
    blk.reduce.return %q : f32
  }
  %s1 = blk.reduce %v {axis = 0 : i32} : (tensor<512xf32, #a>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %q = arith.maximumf %l, %r : f32
    blk.reduce.return %q : f32
  }
  %s2 = blk.reduce %v {axis = 0 : i32} : (tensor<512xf32, #a>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %q = arith.minimumf %l, %r : f32
    blk.reduce.return %q : f32
  }
  return %s0, %s1, %s2 : f32, f32, f32
}

// -----

#w1 = #blkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
// CHECK-LABEL: func.func @one_warp
// CHECK-NOT: blkgpu.scratch_offset
// CHECK-NOT: blkgpu.shared_bytes
// CHECK: return
func.func @one_warp(%v: tensor<128xf32, #w1>) -> f32 attributes {blkgpu.num_warps = 1 : i32} {
  %s = blk.reduce %v {axis = 0 : i32} : (tensor<128xf32, #w1>) -> f32 {
  ^bb0(%l: f32, %r: f32):
    %q = arith.addf %l, %r : f32
    blk.reduce.return %q : f32
  }
  return %s : f32
}

// -----

// Buffers: two alive at once get disjoint bytes (1024-aligned), a third
// allocated after the first's last use reuses its bytes; scratch goes
// above the buffers alive where it runs: above both inside the loop, at
// the bottom after it (the epilogue of a pipelined loop reuses the ring).
// A use inside the loop keeps %a alive to the loop's end.
#b = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
#a1 = #blkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-LABEL: func.func @buffers
// CHECK-SAME: blkgpu.shared_bytes = 24608 : i64
// CHECK: blkgpu.local_alloc {{.*}}blkgpu.buffer_offset = 0 : i64
// CHECK: blkgpu.local_alloc {{.*}}blkgpu.buffer_offset = 8192 : i64
// CHECK: scf.for
// CHECK: blk.reduce {{.*}}blkgpu.scratch_offset = 24576 : i64
// CHECK: blk.reduce {{.*}}blkgpu.scratch_offset = 16 : i64
// CHECK: blkgpu.local_alloc {{.*}}blkgpu.buffer_offset = 0 : i64
func.func @buffers(%t: tensor<64x64xf16, #b>, %v: tensor<512xf32, #a1>, %n: i32) -> f32
    attributes {blkgpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %f0 = arith.constant 0.0 : f32
  %a = blkgpu.local_alloc %t : tensor<64x64xf16, #b> -> !blkgpu.memdesc<64x64xf16, #sh>
  %ring = blkgpu.local_alloc -> !blkgpu.memdesc<2x64x64xf16, #sh>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %f0) -> (f32) : i32 {
    %x = blkgpu.local_load %a : !blkgpu.memdesc<64x64xf16, #sh> -> tensor<64x64xf16, #b>
    %slot = blkgpu.memdesc_index %ring[%c0] : !blkgpu.memdesc<2x64x64xf16, #sh> -> !blkgpu.memdesc<64x64xf16, #sh>
    blkgpu.local_store %x, %slot : tensor<64x64xf16, #b> -> !blkgpu.memdesc<64x64xf16, #sh>
    %s = blk.reduce %v {axis = 0 : i32} : (tensor<512xf32, #a1>) -> f32 {
    ^bb0(%l: f32, %rr: f32):
      %q = arith.addf %l, %rr : f32
      blk.reduce.return %q : f32
    }
    %u = arith.addf %acc, %s : f32
    scf.yield %u : f32
  }
  %s2 = blk.reduce %v {axis = 0 : i32} : (tensor<512xf32, #a1>) -> f32 {
  ^bb0(%l: f32, %rr: f32):
    %q = arith.addf %l, %rr : f32
    blk.reduce.return %q : f32
  }
  %later = blkgpu.local_alloc %t : tensor<64x64xf16, #b> -> !blkgpu.memdesc<64x64xf16, #sh>
  %sum = arith.addf %r, %s2 : f32
  return %sum : f32
}

// -----

// Program order would strand the long-lived %q (used to the end) above the
// short-lived %a, so that %c, alive with %q only, could not take %a's
// bytes: 16 KiB + 16 KiB + 32 KiB = 64 KiB. Longest-lived first puts %q at
// 0 and %a and %c both at 16 KiB: 48 KiB.
#b = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
// CHECK-LABEL: func.func @stranded
// CHECK-SAME: blkgpu.shared_bytes = 49152 : i64
// CHECK: blkgpu.local_alloc {blkgpu.buffer_offset = 16384 : i64} -> !blkgpu.memdesc<64x128xf16
// CHECK: blkgpu.local_alloc {blkgpu.buffer_offset = 0 : i64} -> !blkgpu.memdesc<64x128xf16
// CHECK: blkgpu.local_alloc {blkgpu.buffer_offset = 16384 : i64} -> !blkgpu.memdesc<128x128xf16
func.func @stranded(%t: tensor<64x128xf16, #b>, %u: tensor<128x128xf16, #b>)
    -> (tensor<64x128xf16, #b>, tensor<128x128xf16, #b>, tensor<64x128xf16, #b>)
    attributes {blkgpu.num_warps = 4 : i32} {
  %a = blkgpu.local_alloc -> !blkgpu.memdesc<64x128xf16, #sh>
  %q = blkgpu.local_alloc -> !blkgpu.memdesc<64x128xf16, #sh>
  blkgpu.local_store %t, %a : tensor<64x128xf16, #b> -> !blkgpu.memdesc<64x128xf16, #sh>
  blkgpu.local_store %t, %q : tensor<64x128xf16, #b> -> !blkgpu.memdesc<64x128xf16, #sh>
  %x = blkgpu.local_load %a : !blkgpu.memdesc<64x128xf16, #sh> -> tensor<64x128xf16, #b>
  %c = blkgpu.local_alloc -> !blkgpu.memdesc<128x128xf16, #sh>
  blkgpu.local_store %u, %c : tensor<128x128xf16, #b> -> !blkgpu.memdesc<128x128xf16, #sh>
  %y = blkgpu.local_load %c : !blkgpu.memdesc<128x128xf16, #sh> -> tensor<128x128xf16, #b>
  %z = blkgpu.local_load %q : !blkgpu.memdesc<64x128xf16, #sh> -> tensor<64x128xf16, #b>
  return %x, %y, %z : tensor<64x128xf16, #b>, tensor<128x128xf16, #b>, tensor<64x128xf16, #b>
}
