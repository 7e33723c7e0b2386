// Reductions of a 32x64 block along each axis give slice layouts of the
// load's layout; the 1-D stores then want their own layout.
// RUN: blk-opt %s --blkgpu-pipeline --mlir-print-local-scope | FileCheck %s --check-prefix=GPU
// RUN: blk-codegen-test %s --emit=ptx > %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx

// GPU: blk.reduce {{.*}} -> tensor<32xf32, #blkgpu.slice<{dim = 1, parent = #blkgpu.blocked<{sizePerThread = [1, 4]
// GPU: blk.reduce {{.*}} -> tensor<64xf32, #blkgpu.slice<{dim = 0, parent = #blkgpu.blocked<{sizePerThread = [1, 4]
// PTX: shfl.sync.bfly.b32
// PTX-NOT: ld.local

func.func @reduce2d__w4(%x: !blk.ptr<f32> {blk.aligned = 16 : i32}, %rows: !blk.ptr<f32> {blk.aligned = 16 : i32},
    %cols: !blk.ptr<f32> {blk.aligned = 16 : i32}, %rmax: !blk.ptr<f32> {blk.aligned = 16 : i32})
    attributes {blk.kernel = "reduce2d", blk.num_warps = 4 : i32} {
  %r32 = blk.make_range 0, 32 : tensor<32xi32>
  %r64 = blk.make_range 0, 64 : tensor<64xi32>
  %a = blk.expand_dims %r32 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
  %c64 = arith.constant dense<64> : tensor<32x1xi32>
  %am = arith.muli %a, %c64 : tensor<32x1xi32>
  %ab = blk.broadcast %am : tensor<32x1xi32> -> tensor<32x64xi32>
  %b = blk.expand_dims %r64 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %bb = blk.broadcast %b : tensor<1x64xi32> -> tensor<32x64xi32>
  %off = arith.addi %ab, %bb : tensor<32x64xi32>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<32x64x!blk.ptr<f32>>
  %xp = blk.addptr %xs, %off : tensor<32x64x!blk.ptr<f32>>, tensor<32x64xi32>
  %v = blk.load %xp : tensor<32x64x!blk.ptr<f32>>
  %rs = blk.reduce %v {axis = 1 : i32} : (tensor<32x64xf32>) -> tensor<32xf32> {
  ^bb0(%l: f32, %r: f32):
    %t = arith.addf %l, %r : f32
    blk.reduce.return %t : f32
  }
  %cs = blk.reduce %v {axis = 0 : i32} : (tensor<32x64xf32>) -> tensor<64xf32> {
  ^bb0(%l: f32, %r: f32):
    %t = arith.addf %l, %r : f32
    blk.reduce.return %t : f32
  }
  %mx = blk.reduce %v {axis = 1 : i32} : (tensor<32x64xf32>) -> tensor<32xf32> {
  ^bb0(%l: f32, %r: f32):
    %t = arith.maximumf %l, %r : f32
    blk.reduce.return %t : f32
  }
  %rsp = blk.splat %rows : !blk.ptr<f32> -> tensor<32x!blk.ptr<f32>>
  %rp = blk.addptr %rsp, %r32 : tensor<32x!blk.ptr<f32>>, tensor<32xi32>
  blk.store %rp, %rs : tensor<32x!blk.ptr<f32>>
  %csp = blk.splat %cols : !blk.ptr<f32> -> tensor<64x!blk.ptr<f32>>
  %cp = blk.addptr %csp, %r64 : tensor<64x!blk.ptr<f32>>, tensor<64xi32>
  blk.store %cp, %cs : tensor<64x!blk.ptr<f32>>
  %msp = blk.splat %rmax : !blk.ptr<f32> -> tensor<32x!blk.ptr<f32>>
  %mp = blk.addptr %msp, %r32 : tensor<32x!blk.ptr<f32>>, tensor<32xi32>
  blk.store %mp, %mx : tensor<32x!blk.ptr<f32>>
  return
}
