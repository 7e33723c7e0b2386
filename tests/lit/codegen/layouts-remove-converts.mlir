// Index arithmetic is recomputed in the layout its user needs instead of
// being converted: the transpose's offsets are built directly in the store's
// layout (make_range in slice layouts of it), so the only conversion left
// moves the loaded tile.
// RUN: blk-opt %s --blkgpu-pipeline --mlir-print-local-scope | FileCheck %s

// CHECK: blk.make_range 0, 64 : tensor<64xi32, #blkgpu.slice<{dim = 1, parent = #blkgpu.blocked<{sizePerThread = [1, 4]
// CHECK: blk.make_range 0, 64 : tensor<64xi32, #blkgpu.slice<{dim = 0, parent = #blkgpu.blocked<{sizePerThread = [1, 4]
// CHECK: blk.load
// CHECK: blkgpu.convert_layout
// CHECK-NOT: blkgpu.convert_layout
// CHECK: blk.make_range 0, 64 : tensor<64xi32, #blkgpu.slice<{dim = {{[01]}}, parent = #blkgpu.blocked<{sizePerThread = [4, 1]
// CHECK-NOT: blkgpu.convert_layout
// CHECK: blk.store
func.func @transpose__BLOCK_64__w4(%x: !blk.ptr<f32> {blk.aligned = 16 : i32}, %out: !blk.ptr<f32> {blk.aligned = 16 : i32},
    %M: i32 {blk.multiple_of = 16 : i32}, %N: i32 {blk.multiple_of = 16 : i32})
    attributes {blk.kernel = "transpose", blk.num_warps = 4 : i32} {
  %pm = blk.program_id 0
  %pn = blk.program_id 1
  %c64 = arith.constant 64 : i32
  %r = blk.make_range 0, 64 : tensor<64xi32>
  %bm = arith.muli %pm, %c64 : i32
  %bn = arith.muli %pn, %c64 : i32
  %bms = blk.splat %bm : i32 -> tensor<64xi32>
  %bns = blk.splat %bn : i32 -> tensor<64xi32>
  %rows = arith.addi %bms, %r : tensor<64xi32>
  %cols = arith.addi %bns, %r : tensor<64xi32>
  %rows2 = blk.expand_dims %rows {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %cols2 = blk.expand_dims %cols {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %Ns = blk.splat %N : i32 -> tensor<64x1xi32>
  %Ms = blk.splat %M : i32 -> tensor<1x64xi32>
  %ro = arith.muli %rows2, %Ns : tensor<64x1xi32>
  %rob = blk.broadcast %ro : tensor<64x1xi32> -> tensor<64x64xi32>
  %cob = blk.broadcast %cols2 : tensor<1x64xi32> -> tensor<64x64xi32>
  %xoff = arith.addi %rob, %cob : tensor<64x64xi32>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<64x64x!blk.ptr<f32>>
  %xp = blk.addptr %xs, %xoff : tensor<64x64x!blk.ptr<f32>>, tensor<64x64xi32>
  %tile = blk.load %xp : tensor<64x64x!blk.ptr<f32>>
  %oc = arith.muli %cols2, %Ms : tensor<1x64xi32>
  %ocb = blk.broadcast %oc : tensor<1x64xi32> -> tensor<64x64xi32>
  %orb = blk.broadcast %rows2 : tensor<64x1xi32> -> tensor<64x64xi32>
  %ooff = arith.addi %ocb, %orb : tensor<64x64xi32>
  %os = blk.splat %out : !blk.ptr<f32> -> tensor<64x64x!blk.ptr<f32>>
  %op = blk.addptr %os, %ooff : tensor<64x64x!blk.ptr<f32>>, tensor<64x64xi32>
  blk.store %op, %tile : tensor<64x64x!blk.ptr<f32>>
  return
}
