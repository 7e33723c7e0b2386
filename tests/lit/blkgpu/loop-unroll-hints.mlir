// blkgpu-loop-unroll-hints: a loop of run-time trip count that only streams
// memory is marked for a runtime unroll so one unrolled body loads about 64
// bytes per thread; constant trip counts and loops that synchronise the
// program (here: a reduction) are not marked.
// RUN: blk-opt %s --blkgpu-loop-unroll-hints | FileCheck %s

#a = #blkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// One 16-byte load per thread per iteration: unroll by 4.
// CHECK-LABEL: func.func @stream
// CHECK: scf.for
// CHECK: } {blkgpu.unroll = 4 : i32}
// Constant bounds: left to LLVM and ptxas.
// CHECK: scf.for
// CHECK-NOT: blkgpu.unroll
// CHECK: return
func.func @stream(%x: !blk.ptr<f32>, %n: i32) -> ()
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %zero = arith.constant dense<0.0> : tensor<512xf32, #a>
  %r = blk.make_range 0, 512 : tensor<512xi32, #a>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<512x!blk.ptr<f32>, #a>
  %xp = blk.addptr %xs, %r : tensor<512x!blk.ptr<f32>, #a>, tensor<512xi32, #a>
  %acc = scf.for %i = %c0 to %n step %c1 iter_args(%s = %zero) -> (tensor<512xf32, #a>) : i32 {
    %v = blk.load %xp : tensor<512x!blk.ptr<f32>, #a>
    %t = arith.addf %s, %v : tensor<512xf32, #a>
    scf.yield %t : tensor<512xf32, #a>
  }
  %acc2 = scf.for %i = %c0 to %c8 step %c1 iter_args(%s = %acc) -> (tensor<512xf32, #a>) : i32 {
    %v = blk.load %xp : tensor<512x!blk.ptr<f32>, #a>
    %t = arith.addf %s, %v : tensor<512xf32, #a>
    scf.yield %t : tensor<512xf32, #a>
  }
  blk.store %xp, %acc2 : tensor<512x!blk.ptr<f32>, #a>
  return
}

// A reduction in the body: never marked.
// CHECK-LABEL: func.func @with_reduction
// CHECK-NOT: blkgpu.unroll
// CHECK: return
func.func @with_reduction(%x: !blk.ptr<f32>, %y: !blk.ptr<f32>, %n: i32)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %f0 = arith.constant 0.0 : f32
  %r = blk.make_range 0, 512 : tensor<512xi32, #a>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<512x!blk.ptr<f32>, #a>
  %xp = blk.addptr %xs, %r : tensor<512x!blk.ptr<f32>, #a>, tensor<512xi32, #a>
  %total = scf.for %i = %c0 to %n step %c1 iter_args(%s = %f0) -> (f32) : i32 {
    %v = blk.load %xp : tensor<512x!blk.ptr<f32>, #a>
    %part = blk.reduce %v {axis = 0 : i32} : (tensor<512xf32, #a>) -> f32 {
    ^bb0(%l: f32, %rr: f32):
      %q = arith.addf %l, %rr : f32
      blk.reduce.return %q : f32
    }
    %t = arith.addf %s, %part : f32
    scf.yield %t : f32
  }
  blk.store %y, %total : !blk.ptr<f32>
  return
}
