// A row reduction of a wgmma accumulator in its own mma layout (what
// blkgpu-propagate-mma-layouts leaves for attention's running max): each
// thread combines its two rows' 16 columns, then two butterfly steps across
// the quad's lanes (xor 1, 2: the lanes that hold a row's other columns);
// no shared memory and no barrier between the wgmma and the result.
// RUN: blk-codegen-test %s --arch=sm_90a --emit=ptx > %t.ptx && %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: FileCheck %s < %t.ptx

// CHECK-LABEL: .entry rowmax
// CHECK: wgmma.wait_group.sync.aligned 0;
// CHECK-NOT: bar.sync
// CHECK-NOT: shfl.sync.bfly.b32 {{.*}}, {{4|8|16}}, 31
// CHECK: shfl.sync.bfly.b32 {{.*}}, 1, 31, -1;
// CHECK-NOT: bar.sync
// CHECK: shfl.sync.bfly.b32 {{.*}}, 2, 31, -1;
// CHECK-NOT: shfl.sync.bfly.b32 {{.*}}, {{4|8|16}}, 31
// CHECK-NOT: ld.local
// CHECK: ret;

#a = #blkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sa = #blkgpu.slice<{dim = 1, parent = #a}>
#sb = #blkgpu.slice<{dim = 0, parent = #a}>
#c = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 64}>
#rows = #blkgpu.slice<{dim = 1, parent = #mma}>
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
func.func @rowmax(%pa: !blk.ptr<f16> {blk.aligned = 16 : i32}, %pb: !blk.ptr<f16> {blk.aligned = 16 : i32},
                %pc: !blk.ptr<f32> {blk.aligned = 16 : i32})
    attributes {blk.kernel = "rowmax", blk.param_names = ["a", "b", "c"], blk.num_warps = 4 : i32,
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
  %m = blk.reduce %d {axis = 1 : i32} : (tensor<64x64xf32, #mma>) -> tensor<64xf32, #rows> {
  ^bb0(%l: f32, %rr: f32):
    %t = arith.maximumf %l, %rr : f32
    blk.reduce.return %t : f32
  }
  %mr = blkgpu.convert_layout %m : tensor<64xf32, #rows> -> tensor<64xf32, #sa>
  %cs = blk.splat %pc : !blk.ptr<f32> -> tensor<64x!blk.ptr<f32>, #sa>
  %cp = blk.addptr %cs, %r : tensor<64x!blk.ptr<f32>, #sa>, tensor<64xi32, #sa>
  blk.store %cp, %mr : tensor<64x!blk.ptr<f32>, #sa>
  return
}
