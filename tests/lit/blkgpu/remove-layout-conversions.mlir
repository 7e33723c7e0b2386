// blkgpu-remove-layout-conversions on hand-written blkgpu IR: chains fold,
// index arithmetic is recomputed in the layout its user wants, a
// conversion of loaded data stays (but a row vector of an mma layout loads
// in place), dead ops go.
// RUN: timeout 60 blk-opt %s --blkgpu-remove-layout-conversions | FileCheck %s

#a = #blkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #blkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#c = #blkgpu.blocked<{sizePerThread = [2], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

// CHECK-DAG: #[[A:blocked[0-9]*]] = #blkgpu.blocked<{sizePerThread = [4]
// CHECK-DAG: #[[B:blocked[0-9]*]] = #blkgpu.blocked<{sizePerThread = [1]
// CHECK-LABEL: func.func @index_math_is_recomputed
// CHECK: %[[V:.*]] = blk.load {{.*}} : tensor<512x!blk.ptr<f32>, #[[A]]>
// The store's offsets are built directly in its layout #b ...
// CHECK-NEXT: %[[SB:.*]] = blk.splat %arg1 : !blk.ptr<f32> -> tensor<512x!blk.ptr<f32>, #[[B]]>
// CHECK-NEXT: %[[RB:.*]] = blk.make_range 0, 512 : tensor<512xi32, #[[B]]>
// CHECK-NEXT: %[[P:.*]] = blk.addptr %[[SB]], %[[RB]] : tensor<512x!blk.ptr<f32>, #[[B]]>
// ... while the loaded data is moved once, a->b (the a->c->b chain folded).
// CHECK-NEXT: %[[M:.*]] = blkgpu.convert_layout %[[V]] : tensor<512xf32, #[[A]]> -> tensor<512xf32, #[[B]]>
// CHECK-NEXT: blk.store %[[P]], %[[M]] : tensor<512x!blk.ptr<f32>, #[[B]]>
func.func @index_math_is_recomputed(%x: !blk.ptr<f32>, %y: !blk.ptr<f32>)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %r = blk.make_range 0, 512 : tensor<512xi32, #a>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<512x!blk.ptr<f32>, #a>
  %xp = blk.addptr %xs, %r : tensor<512x!blk.ptr<f32>, #a>, tensor<512xi32, #a>
  %v = blk.load %xp : tensor<512x!blk.ptr<f32>, #a>
  %ys = blk.splat %y : !blk.ptr<f32> -> tensor<512x!blk.ptr<f32>, #a>
  %yp = blk.addptr %ys, %r : tensor<512x!blk.ptr<f32>, #a>, tensor<512xi32, #a>
  %ypb = blkgpu.convert_layout %yp : tensor<512x!blk.ptr<f32>, #a> -> tensor<512x!blk.ptr<f32>, #b>
  %vc = blkgpu.convert_layout %v : tensor<512xf32, #a> -> tensor<512xf32, #c>
  %vb = blkgpu.convert_layout %vc : tensor<512xf32, #c> -> tensor<512xf32, #b>
  blk.store %ypb, %vb : tensor<512x!blk.ptr<f32>, #b>
  return
}

// A conversion to the same type and one whose result is unused disappear.
// CHECK-LABEL: func.func @identity_and_dead
// CHECK-NOT: blkgpu.convert_layout
// CHECK: blk.store %{{.*}}, %{{.*}} : tensor<512x!blk.ptr<f32>, #[[A]]>
func.func @identity_and_dead(%x: !blk.ptr<f32>)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %r = blk.make_range 0, 512 : tensor<512xi32, #a>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<512x!blk.ptr<f32>, #a>
  %xp = blk.addptr %xs, %r : tensor<512x!blk.ptr<f32>, #a>, tensor<512xi32, #a>
  %v = blk.load %xp : tensor<512x!blk.ptr<f32>, #a>
  %same = blkgpu.convert_layout %v : tensor<512xf32, #a> -> tensor<512xf32, #a>
  %dead = blkgpu.convert_layout %v : tensor<512xf32, #a> -> tensor<512xf32, #b>
  blk.store %xp, %same : tensor<512x!blk.ptr<f32>, #a>
  return
}

// A narrowing cast after a move runs before it: f16 moves, not f32.
// CHECK-LABEL: func.func @cast_before_move
// CHECK: %[[H:.*]] = arith.truncf %{{.*}} : tensor<512xf32, #[[A]]> to tensor<512xf16, #[[A]]>
// CHECK-NEXT: %[[M:.*]] = blkgpu.convert_layout %[[H]] : tensor<512xf16, #[[A]]> -> tensor<512xf16, #[[B]]>
// CHECK-NOT: arith.truncf
// CHECK: blk.store %{{.*}}, %[[M]]
func.func @cast_before_move(%x: !blk.ptr<f32>, %y: !blk.ptr<f16>)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %r = blk.make_range 0, 512 : tensor<512xi32, #a>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<512x!blk.ptr<f32>, #a>
  %xp = blk.addptr %xs, %r : tensor<512x!blk.ptr<f32>, #a>, tensor<512xi32, #a>
  %v = blk.load %xp : tensor<512x!blk.ptr<f32>, #a>
  %vb = blkgpu.convert_layout %v : tensor<512xf32, #a> -> tensor<512xf32, #b>
  %h = arith.truncf %vb : tensor<512xf32, #b> to tensor<512xf16, #b>
  %rb = blk.make_range 0, 512 : tensor<512xi32, #b>
  %ys = blk.splat %y : !blk.ptr<f16> -> tensor<512x!blk.ptr<f16>, #b>
  %yp = blk.addptr %ys, %rb : tensor<512x!blk.ptr<f16>, #b>, tensor<512xi32, #b>
  blk.store %yp, %h : tensor<512x!blk.ptr<f16>, #b>
  return
}

// A narrowing cast of index arithmetic is recomputed with it in the user's
// layout, so nothing moves. (Moving the cast before the conversion instead
// undid the recomputation, which redid it: the pass never finished.)
// CHECK-LABEL: func.func @cast_of_index_math
// CHECK-NOT: blkgpu.convert_layout
// CHECK: %[[R:.*]] = blk.make_range 0, 512 : tensor<512xi32, #[[B]]>
// CHECK-NEXT: %[[T:.*]] = arith.trunci %[[R]] : tensor<512xi32, #[[B]]> to tensor<512xi8, #[[B]]>
// CHECK-NOT: blkgpu.convert_layout
// CHECK: blk.store %{{.*}}, %[[T]] : tensor<512x!blk.ptr<i8>, #[[B]]>
func.func @cast_of_index_math(%y: !blk.ptr<i8>)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %r = blk.make_range 0, 512 : tensor<512xi32, #a>
  %t = arith.trunci %r : tensor<512xi32, #a> to tensor<512xi8, #a>
  %tb = blkgpu.convert_layout %t : tensor<512xi8, #a> -> tensor<512xi8, #b>
  %rb = blk.make_range 0, 512 : tensor<512xi32, #b>
  %ys = blk.splat %y : !blk.ptr<i8> -> tensor<512x!blk.ptr<i8>, #b>
  %yp = blk.addptr %ys, %rb : tensor<512x!blk.ptr<i8>, #b>, tensor<512xi32, #b>
  blk.store %yp, %tb : tensor<512x!blk.ptr<i8>, #b>
  return
}

// A 1-D load read only to move into a slice of an mma layout loads there
// instead (pointer and mask recomputed in that layout) when each thread
// holds a few elements: the rows of a score tile (2 per thread). Its
// columns (16 per thread, each a pointer) keep the move.
#v = #blkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#mma = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 64}>
#rows = #blkgpu.slice<{dim = 1, parent = #mma}>
#cols = #blkgpu.slice<{dim = 0, parent = #mma}>
// CHECK-LABEL: func.func @row_vector_loads_in_place
// CHECK: %[[R:.*]] = blk.make_range 0, 64 : tensor<64xi32, #[[ROWS:slice[0-9]*]]>
// CHECK: %[[P:.*]] = blk.addptr {{.*}} : tensor<64x!blk.ptr<f32>, #[[ROWS]]>
// CHECK: %[[M:.*]] = arith.cmpi slt, {{.*}} : tensor<64xi32, #[[ROWS]]>
// CHECK: blk.load %[[P]], %[[M]]{{.*}} : tensor<64x!blk.ptr<f32>, #[[ROWS]]>
// CHECK: %[[C:.*]] = blk.load {{.*}} : tensor<64x!blk.ptr<f32>, #blocked
// CHECK: blkgpu.convert_layout %[[C]] : tensor<64xf32, #blocked{{[0-9]*}}> -> tensor<64xf32, #slice
func.func @row_vector_loads_in_place(%x: !blk.ptr<f32>, %n: i32)
    -> (tensor<64xf32, #rows>, tensor<64xf32, #cols>)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %r = blk.make_range 0, 64 : tensor<64xi32, #v>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<64x!blk.ptr<f32>, #v>
  %xp = blk.addptr %xs, %r : tensor<64x!blk.ptr<f32>, #v>, tensor<64xi32, #v>
  %ns = blk.splat %n : i32 -> tensor<64xi32, #v>
  %ok = arith.cmpi slt, %r, %ns : tensor<64xi32, #v>
  %zero = arith.constant dense<0.0> : tensor<64xf32, #v>
  %a = blk.load %xp, %ok, %zero : tensor<64x!blk.ptr<f32>, #v>
  %ar = blkgpu.convert_layout %a : tensor<64xf32, #v> -> tensor<64xf32, #rows>
  %b = blk.load %xp, %ok, %zero : tensor<64x!blk.ptr<f32>, #v>
  %bc = blkgpu.convert_layout %b : tensor<64xf32, #v> -> tensor<64xf32, #cols>
  return %ar, %bc : tensor<64xf32, #rows>, tensor<64xf32, #cols>
}
