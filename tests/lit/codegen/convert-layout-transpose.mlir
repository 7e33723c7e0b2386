// Tile transpose (seed 5.4) with unit inner strides: the load is contiguous
// along dim 1 and the store along dim 0, so each gets its own coalesced,
// 16-byte vectorised layout and the tile moves between them through shared
// memory between two barriers, in the layout (contiguous dim, padding, XOR
// swizzle, access widths) that simulates to the fewest bank conflicts:
// here column-major and swizzled, scalar stores and 8-byte loads.
// RUN: blk-opt %s --blkgpu-pipeline --mlir-print-local-scope | FileCheck %s --check-prefix=GPU
// RUN: blk-codegen-test %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: blk-codegen-test %s --emit=ptx > %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: blk-codegen-test %s --emit=info | FileCheck %s --check-prefix=INFO

// GPU: blk.load {{.*}}#blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>>
// GPU-NEXT: blkgpu.convert_layout {{.*}} -> tensor<64x64xf32, #blkgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>>
// GPU-NOT: blkgpu.convert_layout
// GPU: blk.store {{.*}}sizePerThread = [4, 1]

// PTX-COUNT-8: ld.global.v4.f32
// The first shared-memory user: no barrier before its stores.
// PTX-NOT: bar.sync
// PTX-COUNT-32: st.shared.f32
// PTX: bar.sync 0;
// PTX-COUNT-16: ld.shared.v2.f32
// PTX-COUNT-8: st.global.v4.f32
// PTX-NOT: ld.local

// INFO: transpose__BLOCK_64__w4 threads=128 shared=16384 dynamic=0

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
