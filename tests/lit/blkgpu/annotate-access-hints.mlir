// blkgpu-annotate-access-hints records what axis info proves on each block
// memory op: contiguity and alignment of the pointer block, constancy of
// the mask, per dim. Scalar memory ops get nothing.
// RUN: blk-opt %s --blkgpu-annotate-access-hints | FileCheck %s

// A 16-byte aligned base plus arange: 256 contiguous, aligned to 16 bytes;
// the mask `r < n` with n a multiple of 16 is constant in runs of 16.
// CHECK-LABEL: func.func @contiguous
// CHECK: blk.load {{.*}}blkgpu.align = array<i64: 16>, blkgpu.contiguity = array<i64: 256>, blkgpu.mask_constancy = array<i64: 16>
// Unmasked store: the mask is constant over the whole block.
// CHECK: blk.store {{.*}}blkgpu.align = array<i64: 16>, blkgpu.contiguity = array<i64: 256>, blkgpu.mask_constancy = array<i64: 256>
// CHECK-NOT: blkgpu.contiguity
// CHECK: return
func.func @contiguous(%x: !blk.ptr<f32> {blk.aligned = 16 : i32}, %n: i32 {blk.multiple_of = 16 : i32},
                      %s: !blk.ptr<f32>) attributes {blk.num_warps = 4 : i32} {
  %r = blk.make_range 0, 256 : tensor<256xi32>
  %ns = blk.splat %n : i32 -> tensor<256xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<256xi32>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<256x!blk.ptr<f32>>
  %xp = blk.addptr %xs, %r : tensor<256x!blk.ptr<f32>>, tensor<256xi32>
  %v = blk.load %xp, %m : tensor<256x!blk.ptr<f32>>
  blk.store %xp, %v : tensor<256x!blk.ptr<f32>>
  %one = blk.load %s : !blk.ptr<f32>
  blk.store %s, %one : !blk.ptr<f32>
  return
}

// A strided column (stride unknown): nothing contiguous along dim 0, and
// only the element size is known about the alignment of a run (the
// row start depends on the stride).
// CHECK-LABEL: func.func @strided
// CHECK: blk.load {{.*}}blkgpu.align = array<i64: 4, 4>, blkgpu.contiguity = array<i64: 1, 64>, blkgpu.mask_constancy = array<i64: 64, 64>
func.func @strided(%x: !blk.ptr<f32> {blk.aligned = 16 : i32}, %stride: i32) attributes {blk.num_warps = 4 : i32} {
  %r = blk.make_range 0, 64 : tensor<64xi32>
  %rows = blk.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %cols = blk.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %ss = blk.splat %stride : i32 -> tensor<64x1xi32>
  %ro = arith.muli %rows, %ss : tensor<64x1xi32>
  %rb = blk.broadcast %ro : tensor<64x1xi32> -> tensor<64x64xi32>
  %cb = blk.broadcast %cols : tensor<1x64xi32> -> tensor<64x64xi32>
  %off = arith.addi %rb, %cb : tensor<64x64xi32>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<64x64x!blk.ptr<f32>>
  %xp = blk.addptr %xs, %off : tensor<64x64x!blk.ptr<f32>>, tensor<64x64xi32>
  %v = blk.load %xp : tensor<64x64x!blk.ptr<f32>>
  blk.store %xp, %v : tensor<64x64x!blk.ptr<f32>>
  return
}
