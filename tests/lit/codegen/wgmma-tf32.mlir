// blkgpu.wgmma with f32 operands (a dot with precision "tf32") from
// hand-written blkgpu IR: both buffers K-major with the 128-byte swizzle
// (32 f32 per row), A stored from K-contiguous registers as 16-byte
// vectors, B from N-contiguous registers (the tf32 operand layout of
// blkgpu-coalesce: one element per thread) as 4-byte stores; one
// m64n64k8.f32.tf32.tf32 per k8 step (32 bytes: +2 in both descriptors),
// without the transpose immediates the tf32 form does not have. ptxas
// accepts it for sm_90a.
// RUN: blk-codegen-test %s --arch=sm_90a --emit=ptx > %t.ptx && %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: FileCheck %s < %t.ptx

// CHECK-LABEL: .entry tile
// CHECK: st.shared.v4.f32
// CHECK: fence.proxy.async.shared::cta;
// CHECK-COUNT-16: st.shared.f32 [
// CHECK-NOT: st.shared
// CHECK: fence.proxy.async.shared::cta;
// CHECK: bar.sync 0;
// CHECK: or.b64 {{.*}}, 4611686293305294848;
// CHECK: or.b64 {{.*}}, 4611686293305294848;
// CHECK: wgmma.fence.sync.aligned;
// CHECK: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {{.*}}, p, 1, 1; }
// CHECK: or.b64 {{.*}}, 4611686293305294850;
// CHECK: or.b64 {{.*}}, 4611686293305294850;
// CHECK: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {{.*}}, p, 1, 1; }
// CHECK-COUNT-2: wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {{.*}}, p, 1, 1; }
// CHECK-NOT: wgmma.mma_async
// CHECK: wgmma.commit_group.sync.aligned;
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK-NOT: ld.local
// CHECK: ret;

#a = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#sa = #blkgpu.slice<{dim = 1, parent = #a}>
#sk = #blkgpu.slice<{dim = 0, parent = #a}>
#b = #blkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [1, 0]}>
#sbk = #blkgpu.slice<{dim = 1, parent = #b}>
#sbn = #blkgpu.slice<{dim = 0, parent = #b}>
#c = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 64}>
#ta = #blkgpu.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 32}>
#tb = #blkgpu.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1], pad = 0, block = 32}>
func.func @tile(%pa: !blk.ptr<f32> {blk.aligned = 16 : i32}, %pb: !blk.ptr<f32> {blk.aligned = 16 : i32},
                %pc: !blk.ptr<f32> {blk.aligned = 16 : i32})
    attributes {blk.kernel = "tile", blk.param_names = ["a", "b", "c"], blk.num_warps = 4 : i32,
                blkgpu.num_warps = 4 : i32} {
  // A [64, 32] row-major: a + 32 r + k.
  %r = blk.make_range 0, 64 : tensor<64xi32, #sa>
  %k = blk.make_range 0, 32 : tensor<32xi32, #sk>
  %r2 = blk.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #sa> -> tensor<64x1xi32, #a>
  %c32 = arith.constant dense<32> : tensor<64x1xi32, #a>
  %rm = arith.muli %r2, %c32 : tensor<64x1xi32, #a>
  %rb = blk.broadcast %rm : tensor<64x1xi32, #a> -> tensor<64x32xi32, #a>
  %k2 = blk.expand_dims %k {axis = 0 : i32} : tensor<32xi32, #sk> -> tensor<1x32xi32, #a>
  %kb = blk.broadcast %k2 : tensor<1x32xi32, #a> -> tensor<64x32xi32, #a>
  %offa = arith.addi %rb, %kb : tensor<64x32xi32, #a>
  %as = blk.splat %pa : !blk.ptr<f32> -> tensor<64x32x!blk.ptr<f32>, #a>
  %ap = blk.addptr %as, %offa : tensor<64x32x!blk.ptr<f32>, #a>, tensor<64x32xi32, #a>
  %x = blk.load %ap : tensor<64x32x!blk.ptr<f32>, #a>
  // B [32, 64] row-major: b + 64 k + n.
  %bk = blk.make_range 0, 32 : tensor<32xi32, #sbk>
  %bn = blk.make_range 0, 64 : tensor<64xi32, #sbn>
  %bk2 = blk.expand_dims %bk {axis = 1 : i32} : tensor<32xi32, #sbk> -> tensor<32x1xi32, #b>
  %c64 = arith.constant dense<64> : tensor<32x1xi32, #b>
  %bkm = arith.muli %bk2, %c64 : tensor<32x1xi32, #b>
  %bkb = blk.broadcast %bkm : tensor<32x1xi32, #b> -> tensor<32x64xi32, #b>
  %bn2 = blk.expand_dims %bn {axis = 0 : i32} : tensor<64xi32, #sbn> -> tensor<1x64xi32, #b>
  %bnb = blk.broadcast %bn2 : tensor<1x64xi32, #b> -> tensor<32x64xi32, #b>
  %offb = arith.addi %bkb, %bnb : tensor<32x64xi32, #b>
  %bs = blk.splat %pb : !blk.ptr<f32> -> tensor<32x64x!blk.ptr<f32>, #b>
  %bp = blk.addptr %bs, %offb : tensor<32x64x!blk.ptr<f32>, #b>, tensor<32x64xi32, #b>
  %y = blk.load %bp : tensor<32x64x!blk.ptr<f32>, #b>
  %xa = blkgpu.local_alloc %x : tensor<64x32xf32, #a> -> !blkgpu.memdesc<64x32xf32, #ta>
  %yb = blkgpu.local_alloc %y : tensor<32x64xf32, #b> -> !blkgpu.memdesc<32x64xf32, #tb>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %d = blkgpu.wgmma %xa, %yb, %zero : !blkgpu.memdesc<64x32xf32, #ta>, !blkgpu.memdesc<32x64xf32, #tb>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  // C [64, 64] row-major: c + 64 r + n.
  %cr = blk.make_range 0, 64 : tensor<64xi32, #blkgpu.slice<{dim = 1, parent = #c}>>
  %cn = blk.make_range 0, 64 : tensor<64xi32, #blkgpu.slice<{dim = 0, parent = #c}>>
  %cr2 = blk.expand_dims %cr {axis = 1 : i32} : tensor<64xi32, #blkgpu.slice<{dim = 1, parent = #c}>> -> tensor<64x1xi32, #c>
  %cc64 = arith.constant dense<64> : tensor<64x1xi32, #c>
  %crm = arith.muli %cr2, %cc64 : tensor<64x1xi32, #c>
  %crb = blk.broadcast %crm : tensor<64x1xi32, #c> -> tensor<64x64xi32, #c>
  %cn2 = blk.expand_dims %cn {axis = 0 : i32} : tensor<64xi32, #blkgpu.slice<{dim = 0, parent = #c}>> -> tensor<1x64xi32, #c>
  %cnb = blk.broadcast %cn2 : tensor<1x64xi32, #c> -> tensor<64x64xi32, #c>
  %offc = arith.addi %crb, %cnb : tensor<64x64xi32, #c>
  %dc = blkgpu.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #c>
  %cs = blk.splat %pc : !blk.ptr<f32> -> tensor<64x64x!blk.ptr<f32>, #c>
  %cp = blk.addptr %cs, %offc : tensor<64x64x!blk.ptr<f32>, #c>, tensor<64x64xi32, #c>
  blk.store %cp, %dc : tensor<64x64x!blk.ptr<f32>, #c>
  return
}
