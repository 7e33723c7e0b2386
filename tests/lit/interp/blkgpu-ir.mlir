// The interpreter runs blkgpu IR: @tile is plain blk IR (a 4 x 8 tile
// written transposed, and its row sums); @tile_encoded is the same kernel
// after --blkgpu-assign-layouts (every tensor encoded, slice layouts on the
// reduce and expand_dims, ten blkgpu.convert_layout, blkgpu.* hints on the
// memory ops). Encodings and hints are ignored and convert_layout is the
// identity, so both print the same, byte for byte.
// RUN: %blkc run %s -k tile --grid 1 --arg x=iota:f32:32 --arg out=zeros:f32:32 --arg rows=zeros:f32:4 --print out --print rows > %t.plain
// RUN: %blkc run %s -k tile_encoded --grid 1 --arg x=iota:f32:32 --arg out=zeros:f32:32 --arg rows=zeros:f32:4 --print out --print rows > %t.encoded
// RUN: FileCheck %s < %t.plain
// RUN: diff %t.plain %t.encoded
// The encoded kernel really holds what is to be ignored.
// RUN: grep -cE "^ +%[0-9]+ = blkgpu[.]convert_layout" %s | FileCheck %s --check-prefix=CONVERTS
// CHECK: out = [0, 8, 16, 24, 1, 9, 17, 25, 2, 10, 18, 26, 3, 11, 19, 27, 4, 12, 20, 28, 5, 13, 21, 29, 6, 14, 22, 30, 7, 15, 23, 31]
// CHECK-NEXT: rows = [28, 92, 156, 220]
// CONVERTS: 10

#blocked = #blkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#blocked1 = #blkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [1, 1], order = [1, 0]}>
#blocked2 = #blkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 1], order = [1, 0]}>
#blocked3 = #blkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [0, 1]}>
#blocked4 = #blkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 1], order = [1, 0]}>
#blocked5 = #blkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 1], order = [0, 1]}>
#slice = #blkgpu.slice<{dim = 1, parent = #blocked1}>
#slice1 = #blkgpu.slice<{dim = 0, parent = #blocked2}>
#slice2 = #blkgpu.slice<{dim = 1, parent = #blocked2}>

func.func @tile__w1(%x: !blk.ptr<f32>, %out: !blk.ptr<f32>, %rows: !blk.ptr<f32>)
    attributes {blk.kernel = "tile", blk.num_warps = 1 : i32, blk.param_names = ["x", "out", "rows"]} {
  %r4 = blk.make_range 0, 4 : tensor<4xi32>
  %r8 = blk.make_range 0, 8 : tensor<8xi32>
  %i = blk.expand_dims %r4 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
  %j = blk.expand_dims %r8 {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
  %c8 = arith.constant dense<8> : tensor<4x1xi32>
  %c4b = arith.constant dense<4> : tensor<4x8xi32>
  %i8 = arith.muli %i, %c8 : tensor<4x1xi32>
  %ib = blk.broadcast %i8 : tensor<4x1xi32> -> tensor<4x8xi32>
  %jb = blk.broadcast %j : tensor<1x8xi32> -> tensor<4x8xi32>
  %offs = arith.addi %ib, %jb : tensor<4x8xi32>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<4x8x!blk.ptr<f32>>
  %xp = blk.addptr %xs, %offs : tensor<4x8x!blk.ptr<f32>>, tensor<4x8xi32>
  %v = blk.load %xp : tensor<4x8x!blk.ptr<f32>>
  %t = blk.trans %v {order = array<i32: 1, 0>} : tensor<4x8xf32> -> tensor<8x4xf32>
  %jb4 = arith.muli %jb, %c4b : tensor<4x8xi32>
  %ib1 = blk.broadcast %i : tensor<4x1xi32> -> tensor<4x8xi32>
  %toffs = arith.addi %ib1, %jb4 : tensor<4x8xi32>
  %offst = blk.trans %toffs {order = array<i32: 1, 0>} : tensor<4x8xi32> -> tensor<8x4xi32>
  %os = blk.splat %out : !blk.ptr<f32> -> tensor<8x4x!blk.ptr<f32>>
  %op = blk.addptr %os, %offst : tensor<8x4x!blk.ptr<f32>>, tensor<8x4xi32>
  blk.store %op, %t : tensor<8x4x!blk.ptr<f32>>
  %s = "blk.reduce"(%v) ({
  ^bb0(%a: f32, %b: f32):
    %sum = arith.addf %a, %b : f32
    blk.reduce.return %sum : f32
  }) {axis = 1 : i32} : (tensor<4x8xf32>) -> tensor<4xf32>
  %rs = blk.splat %rows : !blk.ptr<f32> -> tensor<4x!blk.ptr<f32>>
  %rp = blk.addptr %rs, %r4 : tensor<4x!blk.ptr<f32>>, tensor<4xi32>
  blk.store %rp, %s : tensor<4x!blk.ptr<f32>>
  return
}

func.func @tile_encoded__w1(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<f32>, %arg2: !blk.ptr<f32>) attributes {blk.kernel = "tile_encoded", blk.num_warps = 1 : i32, blk.param_names = ["x", "out", "rows"], blkgpu.num_warps = 1 : i32} {
  %0 = blk.make_range 0, 4 : tensor<4xi32, #blocked>
  %1 = blkgpu.convert_layout %0 : tensor<4xi32, #blocked> -> tensor<4xi32, #slice>
  %2 = blk.make_range 0, 8 : tensor<8xi32, #blocked>
  %3 = blkgpu.convert_layout %2 : tensor<8xi32, #blocked> -> tensor<8xi32, #slice1>
  %4 = blk.expand_dims %1 {axis = 1 : i32} : tensor<4xi32, #slice> -> tensor<4x1xi32, #blocked1>
  %5 = blk.expand_dims %3 {axis = 0 : i32} : tensor<8xi32, #slice1> -> tensor<1x8xi32, #blocked2>
  %cst = arith.constant dense<8> : tensor<4x1xi32, #blocked1>
  %cst_0 = arith.constant dense<4> : tensor<4x8xi32, #blocked2>
  %6 = arith.muli %4, %cst : tensor<4x1xi32, #blocked1>
  %7 = blk.broadcast %6 : tensor<4x1xi32, #blocked1> -> tensor<4x8xi32, #blocked1>
  %8 = blk.broadcast %5 : tensor<1x8xi32, #blocked2> -> tensor<4x8xi32, #blocked2>
  %9 = blkgpu.convert_layout %8 : tensor<4x8xi32, #blocked2> -> tensor<4x8xi32, #blocked1>
  %10 = arith.addi %7, %9 : tensor<4x8xi32, #blocked1>
  %11 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<4x8x!blk.ptr<f32>, #blocked2>
  %12 = blkgpu.convert_layout %11 : tensor<4x8x!blk.ptr<f32>, #blocked2> -> tensor<4x8x!blk.ptr<f32>, #blocked1>
  %13 = blk.addptr %12, %10 : tensor<4x8x!blk.ptr<f32>, #blocked1>, tensor<4x8xi32, #blocked1>
  %14 = blkgpu.convert_layout %13 : tensor<4x8x!blk.ptr<f32>, #blocked1> -> tensor<4x8x!blk.ptr<f32>, #blocked2>
  %15 = blk.load %14 {blkgpu.align = array<i64: 4, 4>, blkgpu.contiguity = array<i64: 1, 8>, blkgpu.mask_constancy = array<i64: 4, 8>} : tensor<4x8x!blk.ptr<f32>, #blocked2>
  %16 = blk.trans %15 {order = array<i32: 1, 0>} : tensor<4x8xf32, #blocked2> -> tensor<8x4xf32, #blocked3>
  %17 = blkgpu.convert_layout %16 : tensor<8x4xf32, #blocked3> -> tensor<8x4xf32, #blocked4>
  %18 = arith.muli %8, %cst_0 : tensor<4x8xi32, #blocked2>
  %19 = blkgpu.convert_layout %18 : tensor<4x8xi32, #blocked2> -> tensor<4x8xi32, #blocked1>
  %20 = blk.broadcast %4 : tensor<4x1xi32, #blocked1> -> tensor<4x8xi32, #blocked1>
  %21 = arith.addi %20, %19 : tensor<4x8xi32, #blocked1>
  %22 = blk.trans %21 {order = array<i32: 1, 0>} : tensor<4x8xi32, #blocked1> -> tensor<8x4xi32, #blocked5>
  %23 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<8x4x!blk.ptr<f32>, #blocked4>
  %24 = blkgpu.convert_layout %23 : tensor<8x4x!blk.ptr<f32>, #blocked4> -> tensor<8x4x!blk.ptr<f32>, #blocked5>
  %25 = blk.addptr %24, %22 : tensor<8x4x!blk.ptr<f32>, #blocked5>, tensor<8x4xi32, #blocked5>
  %26 = blkgpu.convert_layout %25 : tensor<8x4x!blk.ptr<f32>, #blocked5> -> tensor<8x4x!blk.ptr<f32>, #blocked4>
  blk.store %26, %17 {blkgpu.align = array<i64: 4, 4>, blkgpu.contiguity = array<i64: 1, 4>, blkgpu.mask_constancy = array<i64: 8, 4>} : tensor<8x4x!blk.ptr<f32>, #blocked4>
  %27 = blk.reduce %15 {axis = 1 : i32} : (tensor<4x8xf32, #blocked2>) -> tensor<4xf32, #slice2> {
  ^bb0(%arg3: f32, %arg4: f32):
    %31 = arith.addf %arg3, %arg4 : f32
    blk.reduce.return %31 : f32
  }
  %28 = blkgpu.convert_layout %27 : tensor<4xf32, #slice2> -> tensor<4xf32, #blocked>
  %29 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<4x!blk.ptr<f32>, #blocked>
  %30 = blk.addptr %29, %0 : tensor<4x!blk.ptr<f32>, #blocked>, tensor<4xi32, #blocked>
  blk.store %30, %28 {blkgpu.align = array<i64: 4>, blkgpu.contiguity = array<i64: 4>, blkgpu.mask_constancy = array<i64: 4>} : tensor<4x!blk.ptr<f32>, #blocked>
  return
}
