// blkgpu.wgmma on 8 warps (two warpgroups along M): each warpgroup's
// descriptor base is built from the warp index shuffled from lane 0
// (shfl.sync.idx), which ptxas knows is the same in every lane of a warp,
// so the descriptors can live in uniform registers; `tid.x >> 5` alone
// would put them in vector registers of every thread. One shuffle per
// kernel. A single warpgroup needs none (wgmma.mlir). ptxas accepts it.
// RUN: blk-codegen-test %s --arch=sm_90a --emit=ptx > %t.ptx && %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: FileCheck %s < %t.ptx

// CHECK-LABEL: .entry two_groups
// CHECK: shfl.sync.idx.b32 [[W:%r[0-9]+]], {{%r[0-9]+}}, 0, 31, -1;
// CHECK-NOT: shfl.sync.idx
// CHECK: {{shl|and|shr|bfe}}.{{b|u}}32 {{%r[0-9]+}}, [[W]],
// CHECK: or.b64 {{.*}}, 4611686293305294848;
// CHECK: wgmma.fence.sync.aligned;
// CHECK-COUNT-4: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16
// CHECK-NOT: shfl.sync.idx
// CHECK: ret;

#a = #blkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#sa = #blkgpu.slice<{dim = 1, parent = #a}>
#sb = #blkgpu.slice<{dim = 0, parent = #a}>
#c = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [8, 1], order = [1, 0]}>
#mma = #blkgpu.mma<{version = 3, warpsPerCTA = [8, 1], instrN = 64}>
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
func.func @two_groups(%pa: !blk.ptr<f16> {blk.aligned = 16 : i32}, %pb: !blk.ptr<f16> {blk.aligned = 16 : i32},
                      %pc: !blk.ptr<f32> {blk.aligned = 16 : i32})
    attributes {blk.kernel = "two_groups", blk.param_names = ["a", "b", "c"], blk.num_warps = 8 : i32,
                blkgpu.num_warps = 8 : i32} {
  %r = blk.make_range 0, 128 : tensor<128xi32, #sa>
  %k = blk.make_range 0, 64 : tensor<64xi32, #sb>
  %r2 = blk.expand_dims %r {axis = 1 : i32} : tensor<128xi32, #sa> -> tensor<128x1xi32, #a>
  %c64 = arith.constant dense<64> : tensor<128x1xi32, #a>
  %rm = arith.muli %r2, %c64 : tensor<128x1xi32, #a>
  %rb = blk.broadcast %rm : tensor<128x1xi32, #a> -> tensor<128x64xi32, #a>
  %k2 = blk.expand_dims %k {axis = 0 : i32} : tensor<64xi32, #sb> -> tensor<1x64xi32, #a>
  %kb = blk.broadcast %k2 : tensor<1x64xi32, #a> -> tensor<128x64xi32, #a>
  %off = arith.addi %rb, %kb : tensor<128x64xi32, #a>
  %as = blk.splat %pa : !blk.ptr<f16> -> tensor<128x64x!blk.ptr<f16>, #a>
  %ap = blk.addptr %as, %off : tensor<128x64x!blk.ptr<f16>, #a>, tensor<128x64xi32, #a>
  %x = blk.load %ap : tensor<128x64x!blk.ptr<f16>, #a>
  %r64 = blk.make_range 0, 64 : tensor<64xi32, #sa>
  %rr2 = blk.expand_dims %r64 {axis = 1 : i32} : tensor<64xi32, #sa> -> tensor<64x1xi32, #a>
  %c64b = arith.constant dense<64> : tensor<64x1xi32, #a>
  %rrm = arith.muli %rr2, %c64b : tensor<64x1xi32, #a>
  %rrb = blk.broadcast %rrm : tensor<64x1xi32, #a> -> tensor<64x64xi32, #a>
  %kb64 = blk.broadcast %k2 : tensor<1x64xi32, #a> -> tensor<64x64xi32, #a>
  %offb = arith.addi %rrb, %kb64 : tensor<64x64xi32, #a>
  %bs = blk.splat %pb : !blk.ptr<f16> -> tensor<64x64x!blk.ptr<f16>, #a>
  %bp = blk.addptr %bs, %offb : tensor<64x64x!blk.ptr<f16>, #a>, tensor<64x64xi32, #a>
  %y = blk.load %bp : tensor<64x64x!blk.ptr<f16>, #a>
  %xa = blkgpu.local_alloc %x : tensor<128x64xf16, #a> -> !blkgpu.memdesc<128x64xf16, #nv>
  %yb = blkgpu.local_alloc %y : tensor<64x64xf16, #a> -> !blkgpu.memdesc<64x64xf16, #nv>
  %zero = arith.constant dense<0.0> : tensor<128x64xf32, #mma>
  %d = blkgpu.wgmma %xa, %yb, %zero : !blkgpu.memdesc<128x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
  %dc = blkgpu.convert_layout %d : tensor<128x64xf32, #mma> -> tensor<128x64xf32, #c>
  %offc = blkgpu.convert_layout %off : tensor<128x64xi32, #a> -> tensor<128x64xi32, #c>
  %cs = blk.splat %pc : !blk.ptr<f32> -> tensor<128x64x!blk.ptr<f32>, #c>
  %cp = blk.addptr %cs, %offc : tensor<128x64x!blk.ptr<f32>, #c>, tensor<128x64xi32, #c>
  blk.store %cp, %dc : tensor<128x64x!blk.ptr<f32>, #c>
  return
}
