// A load in a slice of an mma layout (what blkgpu-remove-layout-conversions
// makes of a row vector moved into a score tile's rows, attention's lse):
// each thread loads the elements of its two rows one by one, predicated by
// the mask, with no shared memory and no barrier before they are used;
// then the rows move to a blocked layout for the store. A 2-D load in the
// mma layout itself loads element by element too.
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

// A 2-D load in an mma layout itself (no blocked base, so no vector width
// to prove): each thread loads its 32 elements one by one.
// CHECK-LABEL: .entry tile
// CHECK-NOT: bar.sync
// CHECK-COUNT-32: ld.global.f32
// CHECK-NOT: ld.global
// CHECK: bar.sync
// CHECK: ret;
#b2 = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mr = #blkgpu.slice<{dim = 1, parent = #mma}>
#mc = #blkgpu.slice<{dim = 0, parent = #mma}>
func.func @tile(%x: !blk.ptr<f32> {blk.aligned = 16 : i32}, %y: !blk.ptr<f32> {blk.aligned = 16 : i32})
    attributes {blk.kernel = "tile", blk.param_names = ["x", "y"], blk.num_warps = 4 : i32,
                blkgpu.num_warps = 4 : i32} {
  %r = blk.make_range 0, 64 : tensor<64xi32, #mr>
  %c = blk.make_range 0, 64 : tensor<64xi32, #mc>
  %r2 = blk.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #mr> -> tensor<64x1xi32, #mma>
  %c64 = arith.constant dense<64> : tensor<64x1xi32, #mma>
  %rm = arith.muli %r2, %c64 : tensor<64x1xi32, #mma>
  %rb = blk.broadcast %rm : tensor<64x1xi32, #mma> -> tensor<64x64xi32, #mma>
  %c2 = blk.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #mc> -> tensor<1x64xi32, #mma>
  %cb = blk.broadcast %c2 : tensor<1x64xi32, #mma> -> tensor<64x64xi32, #mma>
  %off = arith.addi %rb, %cb : tensor<64x64xi32, #mma>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<64x64x!blk.ptr<f32>, #mma>
  %xp = blk.addptr %xs, %off : tensor<64x64x!blk.ptr<f32>, #mma>, tensor<64x64xi32, #mma>
  %v = blk.load %xp : tensor<64x64x!blk.ptr<f32>, #mma>
  %vb = blkgpu.convert_layout %v : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #b2>
  %offb = blkgpu.convert_layout %off : tensor<64x64xi32, #mma> -> tensor<64x64xi32, #b2>
  %ys = blk.splat %y : !blk.ptr<f32> -> tensor<64x64x!blk.ptr<f32>, #b2>
  %yp = blk.addptr %ys, %offb : tensor<64x64x!blk.ptr<f32>, #b2>, tensor<64x64xi32, #b2>
  blk.store %yp, %vb : tensor<64x64x!blk.ptr<f32>, #b2>
  return
}
