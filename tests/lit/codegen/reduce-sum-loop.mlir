// Seed 5.3 sum: an scf.for accumulating masked loads, then a whole-block
// reduction: in-thread adds, 5 butterfly shuffles across the warp, one
// shared-memory step across the 4 warps; the scalar store runs in thread 0.
// RUN: blk-opt %s --blkgpu-pipeline --mlir-print-local-scope | FileCheck %s --check-prefix=GPU
// RUN: blk-codegen-test %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: blk-codegen-test %s --emit=ptx > %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin

// 128 elements over 128 threads: one element each, no vectors.
// GPU: scf.for {{.*}} -> (tensor<128xf32, #blkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>>)
// GPU-NOT: convert_layout

// PTX-COUNT-5: shfl.sync.bfly.b32
// The only shared-memory user: nothing to wait for before its stores.
// PTX-NOT: bar.sync
// PTX: st.shared.f32
// PTX: bar.sync 0;
// PTX: ld.shared
// PTX: setp.eq.s32 [[T0:%p[0-9]+]], %r{{[0-9]+}}, 0;
// PTX: @[[T0]] st.global.b32
// PTX-NOT: ld.local

func.func @sum_gridstride__BLOCK_128__NUM_CHUNKS_8__w4(%x: !blk.ptr<f32>, %out: !blk.ptr<f32>, %n: i32)
    attributes {blk.kernel = "sum_gridstride", blk.param_names = ["x", "out", "n"],
                blk.config = {BLOCK = 128 : i64, NUM_CHUNKS = 8 : i64}} {
  %r = blk.make_range 0, 128 : tensor<128xi32>
  %acc0 = arith.constant dense<0.0> : tensor<128xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %c128 = arith.constant 128 : i32
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<128x!blk.ptr<f32>>
  %ns = blk.splat %n : i32 -> tensor<128xi32>
  %acc = scf.for %c = %c0 to %c8 step %c1 iter_args(%a = %acc0) -> (tensor<128xf32>) : i32 {
    %base = arith.muli %c, %c128 : i32
    %bs = blk.splat %base : i32 -> tensor<128xi32>
    %offs = arith.addi %bs, %r : tensor<128xi32>
    %mask = arith.cmpi slt, %offs, %ns : tensor<128xi32>
    %p = blk.addptr %xs, %offs : tensor<128x!blk.ptr<f32>>, tensor<128xi32>
    %v = blk.load %p, %mask, %acc0 : tensor<128x!blk.ptr<f32>>
    %s = arith.addf %a, %v : tensor<128xf32>
    scf.yield %s : tensor<128xf32>
  }
  %total = blk.reduce %acc {axis = 0 : i32} : (tensor<128xf32>) -> f32 {
  ^bb0(%l: f32, %rr: f32):
    %t = arith.addf %l, %rr : f32
    blk.reduce.return %t : f32
  }
  blk.store %out, %total : !blk.ptr<f32>
  return
}
