// blkgpu-assign-layouts gives every tensor a layout: memory ops take the
// `blkgpu.layout` blkgpu-coalesce chose (and lose the attribute), index
// arithmetic takes the first memory op's layout of its shape, reductions
// give slices, and a convert_layout goes where a consumer needs another
// layout. The func is marked `blkgpu.num_warps`, so the blkgpu verifier
// checks the result (blk-opt verifies after the pass).
// RUN: blk-opt %s --blkgpu-assign-layouts | FileCheck %s

#v4 = #blkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#s1 = #blkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// CHECK-DAG: #[[V4:blocked[0-9]*]] = #blkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// CHECK-DAG: #[[S1:blocked[0-9]*]] = #blkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
// (ROW and COL: @two_carried_tiles.)
// CHECK-DAG: #[[ROW:blocked[0-9]*]] = #blkgpu.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
// CHECK-DAG: #[[COL:blocked[0-9]*]] = #blkgpu.blocked<{sizePerThread = [16, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
// CHECK-LABEL: func.func @copy_and_scale
// CHECK-SAME: blkgpu.num_warps = 4 : i32
// CHECK: blk.make_range 0, 1024 : tensor<1024xi32, #[[V4]]>
// CHECK: %[[V:.*]] = blk.load {{.*}} : tensor<1024x!blk.ptr<f32>, #[[V4]]>
// CHECK: arith.mulf {{.*}} : tensor<1024xf32, #[[V4]]>
// The store was given another layout: the product is converted once.
// CHECK: blkgpu.convert_layout {{.*}} : tensor<1024xf32, #[[V4]]> -> tensor<1024xf32, #[[S1]]>
// CHECK: blk.store {{.*}} : tensor<1024x!blk.ptr<f32>, #[[S1]]>
// CHECK-NOT: blkgpu.layout =
func.func @copy_and_scale(%x: !blk.ptr<f32>, %y: !blk.ptr<f32>, %a: f32) attributes {blk.num_warps = 4 : i32} {
  %r = blk.make_range 0, 1024 : tensor<1024xi32>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<1024x!blk.ptr<f32>>
  %xp = blk.addptr %xs, %r : tensor<1024x!blk.ptr<f32>>, tensor<1024xi32>
  %v = blk.load %xp {blkgpu.layout = #v4} : tensor<1024x!blk.ptr<f32>>
  %as = blk.splat %a : f32 -> tensor<1024xf32>
  %w = arith.mulf %v, %as : tensor<1024xf32>
  %ys = blk.splat %y : !blk.ptr<f32> -> tensor<1024x!blk.ptr<f32>>
  %yp = blk.addptr %ys, %r : tensor<1024x!blk.ptr<f32>>, tensor<1024xi32>
  blk.store %yp, %w {blkgpu.layout = #s1} : tensor<1024x!blk.ptr<f32>>
  return
}

// A row reduction gives the slice of its operand's layout; expand_dims of
// it is the parent layout again, with no conversion of the data.
// CHECK-LABEL: func.func @row_sum
// CHECK: %[[T:.*]] = blk.load {{.*}} : tensor<16x64x!blk.ptr<f32>, #[[P:blocked[0-9]*]]>
// CHECK: blk.reduce %{{.*}} {axis = 1 : i32} : (tensor<16x64xf32, #[[P]]>) -> tensor<16xf32, #[[SL:slice[0-9]*]]>
// CHECK: blk.expand_dims {{.*}} : tensor<16xf32, #[[SL]]> -> tensor<16x1xf32, #[[P]]>
// CHECK-NEXT: blk.broadcast {{.*}} -> tensor<16x64xf32, #[[P]]>
// (Conversions of the pointer arithmetic are left to
// blkgpu-remove-layout-conversions.)
// CHECK: blk.store {{.*}}, #[[P]]>
#rows = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @row_sum(%x: !blk.ptr<f32>, %y: !blk.ptr<f32>) attributes {blk.num_warps = 4 : i32} {
  %r = blk.make_range 0, 64 : tensor<64xi32>
  %c = blk.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %cb = blk.broadcast %c : tensor<1x64xi32> -> tensor<16x64xi32>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<16x64x!blk.ptr<f32>>
  %p = blk.addptr %xs, %cb : tensor<16x64x!blk.ptr<f32>>, tensor<16x64xi32>
  %t = blk.load %p {blkgpu.layout = #rows} : tensor<16x64x!blk.ptr<f32>>
  %s = blk.reduce %t {axis = 1 : i32} : (tensor<16x64xf32>) -> tensor<16xf32> {
  ^bb0(%l: f32, %rr: f32):
    %sum = arith.addf %l, %rr : f32
    blk.reduce.return %sum : f32
  }
  %e = blk.expand_dims %s {axis = 1 : i32} : tensor<16xf32> -> tensor<16x1xf32>
  %eb = blk.broadcast %e : tensor<16x1xf32> -> tensor<16x64xf32>
  %ys = blk.splat %y : !blk.ptr<f32> -> tensor<16x64x!blk.ptr<f32>>
  %q = blk.addptr %ys, %cb : tensor<16x64x!blk.ptr<f32>>, tensor<16x64xi32>
  blk.store %q, %eb {blkgpu.layout = #rows} : tensor<16x64x!blk.ptr<f32>>
  return
}

// Two loop-carried pointer blocks of one shape whose loads want different
// layouts (an A tile contiguous along dim 1, a Bᵀ tile handed over through
// its strides contiguous along dim 0): each carried block takes its own
// load's layout, so no pointer block is converted inside the loop; the
// shared step constant and the loads' zero `other` are made again as
// constants in each layout, not converted.
// CHECK-LABEL: func.func @two_carried_tiles
// CHECK-NOT: blkgpu.convert_layout %cst
// CHECK-DAG: arith.constant dense<32> : tensor<32x32xi32, #[[ROW]]>
// CHECK-DAG: arith.constant dense<32> : tensor<32x32xi32, #[[COL]]>
// CHECK-DAG: arith.constant dense<0> : tensor<32x32xi8, #[[COL]]>
// CHECK: scf.for {{.*}} iter_args(%[[A:arg[0-9]+]] = %{{.*}}, %[[B:arg[0-9]+]] = %{{.*}}) -> (tensor<32x32x!blk.ptr<i8>, #[[ROW]]>, tensor<32x32x!blk.ptr<i8>, #[[COL]]>)
// CHECK: blk.load %[[A]], %{{.*}}, %{{.*}} : tensor<32x32x!blk.ptr<i8>, #[[ROW]]>
// CHECK-NEXT: blk.load %[[B]], %{{.*}}, %{{.*}} : tensor<32x32x!blk.ptr<i8>, #[[COL]]>
// (The stores that cross the two, each in the other's layout, convert.)
// CHECK: blk.store
// CHECK: blk.store
// CHECK-NOT: blkgpu.convert_layout
// CHECK: blk.addptr %{{.*}}, %{{.*}} : tensor<32x32x!blk.ptr<i8>, #[[ROW]]>, tensor<32x32xi32, #[[ROW]]>
// CHECK-NEXT: blk.addptr %{{.*}}, %{{.*}} : tensor<32x32x!blk.ptr<i8>, #[[COL]]>, tensor<32x32xi32, #[[COL]]>
// CHECK-NEXT: scf.yield
#row = #blkgpu.blocked<{sizePerThread = [1, 16], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#col = #blkgpu.blocked<{sizePerThread = [16, 1], threadsPerWarp = [4, 8], warpsPerCTA = [1, 4], order = [0, 1]}>
func.func @two_carried_tiles(%x: !blk.ptr<i8>, %y: !blk.ptr<i8>, %n: i32)
    attributes {blk.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %step = arith.constant dense<32> : tensor<32x32xi32>
  %zero = arith.constant dense<0> : tensor<32x32xi8>
  %all = arith.constant dense<true> : tensor<32x32xi1>
  %pa = blk.splat %x : !blk.ptr<i8> -> tensor<32x32x!blk.ptr<i8>>
  %pb = blk.splat %y : !blk.ptr<i8> -> tensor<32x32x!blk.ptr<i8>>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%a = %pa, %b = %pb)
      -> (tensor<32x32x!blk.ptr<i8>>, tensor<32x32x!blk.ptr<i8>>) : i32 {
    %va = blk.load %a, %all, %zero {blkgpu.layout = #row} : tensor<32x32x!blk.ptr<i8>>
    %vb = blk.load %b, %all, %zero {blkgpu.layout = #col} : tensor<32x32x!blk.ptr<i8>>
    blk.store %b, %va {blkgpu.layout = #row} : tensor<32x32x!blk.ptr<i8>>
    blk.store %a, %vb {blkgpu.layout = #col} : tensor<32x32x!blk.ptr<i8>>
    %a2 = blk.addptr %a, %step : tensor<32x32x!blk.ptr<i8>>, tensor<32x32xi32>
    %b2 = blk.addptr %b, %step : tensor<32x32x!blk.ptr<i8>>, tensor<32x32xi32>
    scf.yield %a2, %b2 : tensor<32x32x!blk.ptr<i8>>, tensor<32x32x!blk.ptr<i8>>
  }
  return
}
