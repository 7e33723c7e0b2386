// blkgpu.async_copy to PTX, from hand-written blkgpu IR: an f32 tile whose
// registers and slot rows run along the same dim moves as 16-byte
// cp.async.cg; one whose slot is K-major while its registers run along N
// (a tf32 B operand) moves one 4-byte cp.async.ca per element; a masked
// copy passes a src-size of 0 where the mask is off. ptxas accepts it.
// RUN: blk-codegen-test %s --arch=sm_90a --emit=ptx > %t.ptx && %ptxas -arch=sm_90a %t.ptx -o %t.cubin
// RUN: FileCheck %s < %t.ptx

// CHECK-LABEL: .entry copies
// CHECK-COUNT-4: cp.async.cg.shared.global [{{%rd[0-9]+}}], [{{%rd[0-9]+}}], 16;
// CHECK-NOT: cp.async.cg
// CHECK-COUNT-16: cp.async.ca.shared.global [{{%rd[0-9]+}}], [{{%rd[0-9]+}}], 4, {{%r[0-9]+}};
// CHECK-NOT: cp.async.ca
// CHECK-NOT: ld.global
// CHECK: cp.async.commit_group;
// CHECK: cp.async.wait_group 0;
// CHECK: ret;

#a = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#sa = #blkgpu.slice<{dim = 1, parent = #a}>
#sk = #blkgpu.slice<{dim = 0, parent = #a}>
#b = #blkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [1, 0]}>
#sbk = #blkgpu.slice<{dim = 1, parent = #b}>
#sbn = #blkgpu.slice<{dim = 0, parent = #b}>
#ta = #blkgpu.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 32}>
#tb = #blkgpu.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1], pad = 0, block = 32}>
func.func @copies(%a: !blk.ptr<f32> {blk.aligned = 16 : i32}, %b: !blk.ptr<f32> {blk.aligned = 16 : i32},
                  %c: !blk.ptr<f32> {blk.aligned = 16 : i32}, %n: i32)
    attributes {blk.kernel = "copies", blk.param_names = ["a", "b", "c", "n"],
                blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
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
  %as = blk.splat %a : !blk.ptr<f32> -> tensor<64x32x!blk.ptr<f32>, #a>
  %pa = blk.addptr %as, %offa : tensor<64x32x!blk.ptr<f32>, #a>, tensor<64x32xi32, #a>
  // B [32, 64] row-major: b + 64 k + col, masked to col < n.
  %bk = blk.make_range 0, 32 : tensor<32xi32, #sbk>
  %bn = blk.make_range 0, 64 : tensor<64xi32, #sbn>
  %bk2 = blk.expand_dims %bk {axis = 1 : i32} : tensor<32xi32, #sbk> -> tensor<32x1xi32, #b>
  %c64 = arith.constant dense<64> : tensor<32x1xi32, #b>
  %bkm = arith.muli %bk2, %c64 : tensor<32x1xi32, #b>
  %bkb = blk.broadcast %bkm : tensor<32x1xi32, #b> -> tensor<32x64xi32, #b>
  %bn2 = blk.expand_dims %bn {axis = 0 : i32} : tensor<64xi32, #sbn> -> tensor<1x64xi32, #b>
  %bnb = blk.broadcast %bn2 : tensor<1x64xi32, #b> -> tensor<32x64xi32, #b>
  %offb = arith.addi %bkb, %bnb : tensor<32x64xi32, #b>
  %bs = blk.splat %b : !blk.ptr<f32> -> tensor<32x64x!blk.ptr<f32>, #b>
  %pb = blk.addptr %bs, %offb : tensor<32x64x!blk.ptr<f32>, #b>, tensor<32x64xi32, #b>
  %ns = blk.splat %n : i32 -> tensor<32x64xi32, #b>
  %mb = arith.cmpi slt, %bnb, %ns : tensor<32x64xi32, #b>
  %sa = blkgpu.local_alloc {blkgpu.buffer_offset = 0 : i64} -> !blkgpu.memdesc<64x32xf32, #ta>
  %sb = blkgpu.local_alloc {blkgpu.buffer_offset = 8192 : i64} -> !blkgpu.memdesc<32x64xf32, #tb>
  blkgpu.async_copy %pa, %sa {blkgpu.align = array<i64: 4, 16>, blkgpu.contiguity = array<i64: 1, 32>, blkgpu.mask_constancy = array<i64: 64, 32>} : tensor<64x32x!blk.ptr<f32>, #a> -> !blkgpu.memdesc<64x32xf32, #ta>
  blkgpu.async_copy %pb, %sb, %mb {blkgpu.align = array<i64: 4, 16>, blkgpu.contiguity = array<i64: 1, 64>, blkgpu.mask_constancy = array<i64: 32, 1>} : tensor<32x64x!blk.ptr<f32>, #b> -> !blkgpu.memdesc<32x64xf32, #tb>, tensor<32x64xi1, #b>
  blkgpu.async_commit
  blkgpu.async_wait {pending = 0 : i32}
  %v = blkgpu.local_load %sb : !blkgpu.memdesc<32x64xf32, #tb> -> tensor<32x64xf32, #b>
  %w = blkgpu.local_load %sa : !blkgpu.memdesc<64x32xf32, #ta> -> tensor<64x32xf32, #a>
  %cs = blk.splat %c : !blk.ptr<f32> -> tensor<32x64x!blk.ptr<f32>, #b>
  %pc = blk.addptr %cs, %offb : tensor<32x64x!blk.ptr<f32>, #b>, tensor<32x64xi32, #b>
  blk.store %pc, %v : tensor<32x64x!blk.ptr<f32>, #b>
  %ca = blk.splat %c : !blk.ptr<f32> -> tensor<64x32x!blk.ptr<f32>, #a>
  %pca = blk.addptr %ca, %offa : tensor<64x32x!blk.ptr<f32>, #a>, tensor<64x32xi32, #a>
  blk.store %pca, %w : tensor<64x32x!blk.ptr<f32>, #a>
  return
}
