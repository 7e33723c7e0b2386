// A load in a slice of an mma layout (what blkgpu-remove-layout-conversions
// makes of a row vector moved into a score tile's rows, attention's lse):
// each thread loads the elements of its two rows one by one, predicated by
// the mask, with no shared memory and no barrier before they are used;
// then the rows move to a blocked layout for the store.
// RUN: blk-codegen-test %s --arch=sm_90a --emit=ptx > %t.ptx && %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: FileCheck %s < %t.ptx

// CHECK-LABEL: .entry rows
// CHECK-NOT: bar.sync
// CHECK-COUNT-2: ld.global.b32
// CHECK-NOT: ld.global
// CHECK: add.rn.f32
// CHECK: bar.sync
// CHECK: ret;

#b = #blkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mma = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 64}>
#rows = #blkgpu.slice<{dim = 1, parent = #mma}>
func.func @rows(%x: !blk.ptr<f32> {blk.aligned = 16 : i32}, %y: !blk.ptr<f32> {blk.aligned = 16 : i32},
                %n: i32)
    attributes {blk.kernel = "rows", blk.param_names = ["x", "y", "n"], blk.num_warps = 4 : i32,
                blkgpu.num_warps = 4 : i32} {
  %r = blk.make_range 0, 64 : tensor<64xi32, #rows>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<64x!blk.ptr<f32>, #rows>
  %xp = blk.addptr %xs, %r : tensor<64x!blk.ptr<f32>, #rows>, tensor<64xi32, #rows>
  %ns = blk.splat %n : i32 -> tensor<64xi32, #rows>
  %ok = arith.cmpi slt, %r, %ns : tensor<64xi32, #rows>
  %zero = arith.constant dense<0.0> : tensor<64xf32, #rows>
  %v = blk.load %xp, %ok, %zero : tensor<64x!blk.ptr<f32>, #rows>
  %w = arith.addf %v, %v : tensor<64xf32, #rows>
  %wb = blkgpu.convert_layout %w : tensor<64xf32, #rows> -> tensor<64xf32, #b>
  %rb = blk.make_range 0, 64 : tensor<64xi32, #b>
  %ys = blk.splat %y : !blk.ptr<f32> -> tensor<64x!blk.ptr<f32>, #b>
  %yp = blk.addptr %ys, %rb : tensor<64x!blk.ptr<f32>, #b>, tensor<64xi32, #b>
  blk.store %yp, %wb : tensor<64x!blk.ptr<f32>, #b>
  return
}
