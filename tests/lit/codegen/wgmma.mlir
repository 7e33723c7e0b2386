// blkgpu.wgmma from hand-written blkgpu IR: both operands stored into
// 128-byte NVMMA buffers (16-byte st.shared, then fence.proxy.async), one
// barrier, then per warpgroup wgmma.fence, one m64n64k16 per k16 step with
// the descriptors of ../shared/docs/TENSORCORES.md (A K-major: SBO 1024 B,
// 128-byte swizzle: 0x4000004000000000, +2 per k16 step; B N-major, the
// transposed form: LBO 64 rows x 128 B = 8192 B, 0x4000004002000000, +128
// per k16 step; the zero accumulator only through scale-d), commit and wait 0; one warpgroup: its descriptors need no
// warp index (no shuffle, wgmma-uniform-warp.mlir). ptxas accepts it for sm_90a.
// RUN: blk-codegen-test %s --arch=sm_90a --emit=ptx > %t.ptx && %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: FileCheck %s < %t.ptx

// CHECK-LABEL: .entry tile
// CHECK-NOT: shfl.sync.idx
// CHECK: .shared .align 1024 .b8 tile__smem
// CHECK: st.shared.v4.b32
// CHECK: fence.proxy.async.shared::cta;
// CHECK: st.shared.v4.b32
// CHECK: fence.proxy.async.shared::cta;
// CHECK: bar.sync 0;
// CHECK: or.b64 {{.*}}, 4611686293305294848;
// CHECK: or.b64 {{.*}}, 4611686293338849280;
// CHECK: wgmma.fence.sync.aligned;
// The accumulator is a constant zero: nothing sets registers to 0, and the
// first k16 step runs with scale-d false (D = A·B), the others with true.
// CHECK-NOT: mov.f32
// CHECK: setp.ne.b32 p, 0, 0;
// CHECK-NEXT: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 1;
// CHECK: or.b64 {{.*}}, 4611686293305294850;
// CHECK: add.s64 {{.*}}, 4611686293338849408;
// CHECK: setp.ne.b32 p, %r{{[0-9]+}}, 0;
// CHECK-NEXT: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 1;
// CHECK-COUNT-2: wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 {{.*}}, p, 1, 1, 0, 1;
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK-NOT: ld.local
// CHECK: ret;

#a = #blkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sa = #blkgpu.slice<{dim = 1, parent = #a}>
#sb = #blkgpu.slice<{dim = 0, parent = #a}>
#c = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 64}>
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
func.func @tile(%pa: !blk.ptr<f16> {blk.aligned = 16 : i32}, %pb: !blk.ptr<f16> {blk.aligned = 16 : i32},
                %pc: !blk.ptr<f32> {blk.aligned = 16 : i32})
    attributes {blk.kernel = "tile", blk.param_names = ["a", "b", "c"], blk.num_warps = 4 : i32,
                blkgpu.num_warps = 4 : i32} {
  %r = blk.make_range 0, 64 : tensor<64xi32, #sa>
  %k = blk.make_range 0, 64 : tensor<64xi32, #sb>
  %r2 = blk.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #sa> -> tensor<64x1xi32, #a>
  %c64 = arith.constant dense<64> : tensor<64x1xi32, #a>
  %rm = arith.muli %r2, %c64 : tensor<64x1xi32, #a>
  %rb = blk.broadcast %rm : tensor<64x1xi32, #a> -> tensor<64x64xi32, #a>
  %k2 = blk.expand_dims %k {axis = 0 : i32} : tensor<64xi32, #sb> -> tensor<1x64xi32, #a>
  %kb = blk.broadcast %k2 : tensor<1x64xi32, #a> -> tensor<64x64xi32, #a>
  %off = arith.addi %rb, %kb : tensor<64x64xi32, #a>
  %as = blk.splat %pa : !blk.ptr<f16> -> tensor<64x64x!blk.ptr<f16>, #a>
  %ap = blk.addptr %as, %off : tensor<64x64x!blk.ptr<f16>, #a>, tensor<64x64xi32, #a>
  %x = blk.load %ap : tensor<64x64x!blk.ptr<f16>, #a>
  %bs = blk.splat %pb : !blk.ptr<f16> -> tensor<64x64x!blk.ptr<f16>, #a>
  %bp = blk.addptr %bs, %off : tensor<64x64x!blk.ptr<f16>, #a>, tensor<64x64xi32, #a>
  %y = blk.load %bp : tensor<64x64x!blk.ptr<f16>, #a>
  %xa = blkgpu.local_alloc %x : tensor<64x64xf16, #a> -> !blkgpu.memdesc<64x64xf16, #nv>
  %yb = blkgpu.local_alloc %y : tensor<64x64xf16, #a> -> !blkgpu.memdesc<64x64xf16, #nv>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %d = blkgpu.wgmma %xa, %yb, %zero : !blkgpu.memdesc<64x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  %dc = blkgpu.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #c>
  %offc = blkgpu.convert_layout %off : tensor<64x64xi32, #a> -> tensor<64x64xi32, #c>
  %cs = blk.splat %pc : !blk.ptr<f32> -> tensor<64x64x!blk.ptr<f32>, #c>
  %cp = blk.addptr %cs, %offc : tensor<64x64x!blk.ptr<f32>, #c>, tensor<64x64xi32, #c>
  blk.store %cp, %dc : tensor<64x64x!blk.ptr<f32>, #c>
  return
}
