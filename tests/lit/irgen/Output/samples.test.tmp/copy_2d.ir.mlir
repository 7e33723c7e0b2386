module attributes {blk.source = "/work/main/samples/copy_2d.blk", blk.source_hash = "fnv1a64:8932deb793ebaba5"} {
  func.func @copy_2d_hardcoded__BLOCK_M_4_BLOCK_N_4__w1(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<f32>, %arg2: i32, %arg3: i32) attributes {blk.autotune_key = [], blk.config = {BLOCK_M = 4 : i64, BLOCK_N = 4 : i64}, blk.const_params = ["BLOCK_M:i32", "BLOCK_N:i32"], blk.grid = "[{\22int\22: 1}]", blk.grid_source = ["1"], blk.kernel = "copy_2d_hardcoded", blk.num_stages = 3 : i32, blk.num_warps = 1 : i32, blk.param_names = ["x", "out", "M", "N"], blk.param_types = ["*f32", "*f32", "i32", "i32"]} {
    %0 = blk.make_range 0, 4 : tensor<4xi32>
    %1 = blk.make_range 0, 4 : tensor<4xi32>
    %2 = blk.expand_dims %0 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %3 = blk.splat %arg2 : i32 -> tensor<4x1xi32>
    %4 = arith.cmpi slt, %2, %3 : tensor<4x1xi32>
    %5 = blk.broadcast %4 : tensor<4x1xi1> -> tensor<4x4xi1>
    %6 = blk.expand_dims %1 {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
    %7 = blk.splat %arg3 : i32 -> tensor<1x4xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<1x4xi32>
    %9 = blk.broadcast %8 : tensor<1x4xi1> -> tensor<4x4xi1>
    %10 = arith.andi %5, %9 : tensor<4x4xi1>
    %11 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<4x1x!blk.ptr<f32>>
    %12 = blk.expand_dims %0 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %13 = blk.splat %arg3 : i32 -> tensor<4x1xi32>
    %14 = arith.muli %12, %13 : tensor<4x1xi32>
    %15 = blk.addptr %11, %14 : tensor<4x1x!blk.ptr<f32>>, tensor<4x1xi32>
    %16 = blk.broadcast %15 : tensor<4x1x!blk.ptr<f32>> -> tensor<4x4x!blk.ptr<f32>>
    %17 = blk.expand_dims %1 {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
    %18 = blk.broadcast %17 : tensor<1x4xi32> -> tensor<4x4xi32>
    %19 = blk.addptr %16, %18 : tensor<4x4x!blk.ptr<f32>>, tensor<4x4xi32>
    %20 = blk.load %19, %10 : tensor<4x4x!blk.ptr<f32>>
    %21 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<4x1x!blk.ptr<f32>>
    %22 = blk.expand_dims %0 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %23 = blk.splat %arg3 : i32 -> tensor<4x1xi32>
    %24 = arith.muli %22, %23 : tensor<4x1xi32>
    %25 = blk.addptr %21, %24 : tensor<4x1x!blk.ptr<f32>>, tensor<4x1xi32>
    %26 = blk.broadcast %25 : tensor<4x1x!blk.ptr<f32>> -> tensor<4x4x!blk.ptr<f32>>
    %27 = blk.expand_dims %1 {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
    %28 = blk.broadcast %27 : tensor<1x4xi32> -> tensor<4x4xi32>
    %29 = blk.addptr %26, %28 : tensor<4x4x!blk.ptr<f32>>, tensor<4x4xi32>
    blk.store %29, %20, %10 : tensor<4x4x!blk.ptr<f32>>
    return
  }
  func.func @copy_2d_strided__BLOCK_M_4_BLOCK_N_4__w1(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<f32>, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32) attributes {blk.autotune_key = [], blk.config = {BLOCK_M = 4 : i64, BLOCK_N = 4 : i64}, blk.const_params = ["BLOCK_M:i32", "BLOCK_N:i32"], blk.grid = "[{\22int\22: 1}]", blk.grid_source = ["1"], blk.kernel = "copy_2d_strided", blk.num_stages = 3 : i32, blk.num_warps = 1 : i32, blk.param_names = ["x", "out", "M", "N", "stride_row", "stride_col"], blk.param_types = ["*f32", "*f32", "i32", "i32", "i32", "i32"]} {
    %0 = blk.make_range 0, 4 : tensor<4xi32>
    %1 = blk.make_range 0, 4 : tensor<4xi32>
    %2 = blk.expand_dims %0 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %3 = blk.splat %arg2 : i32 -> tensor<4x1xi32>
    %4 = arith.cmpi slt, %2, %3 : tensor<4x1xi32>
    %5 = blk.broadcast %4 : tensor<4x1xi1> -> tensor<4x4xi1>
    %6 = blk.expand_dims %1 {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
    %7 = blk.splat %arg3 : i32 -> tensor<1x4xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<1x4xi32>
    %9 = blk.broadcast %8 : tensor<1x4xi1> -> tensor<4x4xi1>
    %10 = arith.andi %5, %9 : tensor<4x4xi1>
    %11 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<4x1x!blk.ptr<f32>>
    %12 = blk.expand_dims %0 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %13 = blk.splat %arg4 : i32 -> tensor<4x1xi32>
    %14 = arith.muli %12, %13 : tensor<4x1xi32>
    %15 = blk.addptr %11, %14 : tensor<4x1x!blk.ptr<f32>>, tensor<4x1xi32>
    %16 = blk.broadcast %15 : tensor<4x1x!blk.ptr<f32>> -> tensor<4x4x!blk.ptr<f32>>
    %17 = blk.expand_dims %1 {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
    %18 = blk.splat %arg5 : i32 -> tensor<1x4xi32>
    %19 = arith.muli %17, %18 : tensor<1x4xi32>
    %20 = blk.broadcast %19 : tensor<1x4xi32> -> tensor<4x4xi32>
    %21 = blk.addptr %16, %20 : tensor<4x4x!blk.ptr<f32>>, tensor<4x4xi32>
    %22 = blk.load %21, %10 : tensor<4x4x!blk.ptr<f32>>
    %23 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<4x1x!blk.ptr<f32>>
    %24 = blk.expand_dims %0 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %25 = blk.splat %arg3 : i32 -> tensor<4x1xi32>
    %26 = arith.muli %24, %25 : tensor<4x1xi32>
    %27 = blk.addptr %23, %26 : tensor<4x1x!blk.ptr<f32>>, tensor<4x1xi32>
    %28 = blk.broadcast %27 : tensor<4x1x!blk.ptr<f32>> -> tensor<4x4x!blk.ptr<f32>>
    %29 = blk.expand_dims %1 {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
    %30 = blk.broadcast %29 : tensor<1x4xi32> -> tensor<4x4xi32>
    %31 = blk.addptr %28, %30 : tensor<4x4x!blk.ptr<f32>>, tensor<4x4xi32>
    blk.store %31, %22, %10 : tensor<4x4x!blk.ptr<f32>>
    return
  }
  func.func @copy_2d_strided__BLOCK_M_2_BLOCK_N_2__w1(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<f32>, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32) attributes {blk.autotune_key = [], blk.config = {BLOCK_M = 2 : i64, BLOCK_N = 2 : i64}, blk.const_params = ["BLOCK_M:i32", "BLOCK_N:i32"], blk.grid = "[{\22int\22: 1}]", blk.grid_source = ["1"], blk.kernel = "copy_2d_strided", blk.num_stages = 3 : i32, blk.num_warps = 1 : i32, blk.param_names = ["x", "out", "M", "N", "stride_row", "stride_col"], blk.param_types = ["*f32", "*f32", "i32", "i32", "i32", "i32"]} {
    %0 = blk.make_range 0, 2 : tensor<2xi32>
    %1 = blk.make_range 0, 2 : tensor<2xi32>
    %2 = blk.expand_dims %0 {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
    %3 = blk.splat %arg2 : i32 -> tensor<2x1xi32>
    %4 = arith.cmpi slt, %2, %3 : tensor<2x1xi32>
    %5 = blk.broadcast %4 : tensor<2x1xi1> -> tensor<2x2xi1>
    %6 = blk.expand_dims %1 {axis = 0 : i32} : tensor<2xi32> -> tensor<1x2xi32>
    %7 = blk.splat %arg3 : i32 -> tensor<1x2xi32>
    %8 = arith.cmpi slt, %6, %7 : tensor<1x2xi32>
    %9 = blk.broadcast %8 : tensor<1x2xi1> -> tensor<2x2xi1>
    %10 = arith.andi %5, %9 : tensor<2x2xi1>
    %11 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<2x1x!blk.ptr<f32>>
    %12 = blk.expand_dims %0 {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
    %13 = blk.splat %arg4 : i32 -> tensor<2x1xi32>
    %14 = arith.muli %12, %13 : tensor<2x1xi32>
    %15 = blk.addptr %11, %14 : tensor<2x1x!blk.ptr<f32>>, tensor<2x1xi32>
    %16 = blk.broadcast %15 : tensor<2x1x!blk.ptr<f32>> -> tensor<2x2x!blk.ptr<f32>>
    %17 = blk.expand_dims %1 {axis = 0 : i32} : tensor<2xi32> -> tensor<1x2xi32>
    %18 = blk.splat %arg5 : i32 -> tensor<1x2xi32>
    %19 = arith.muli %17, %18 : tensor<1x2xi32>
    %20 = blk.broadcast %19 : tensor<1x2xi32> -> tensor<2x2xi32>
    %21 = blk.addptr %16, %20 : tensor<2x2x!blk.ptr<f32>>, tensor<2x2xi32>
    %22 = blk.load %21, %10 : tensor<2x2x!blk.ptr<f32>>
    %23 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<2x1x!blk.ptr<f32>>
    %24 = blk.expand_dims %0 {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
    %25 = blk.splat %arg3 : i32 -> tensor<2x1xi32>
    %26 = arith.muli %24, %25 : tensor<2x1xi32>
    %27 = blk.addptr %23, %26 : tensor<2x1x!blk.ptr<f32>>, tensor<2x1xi32>
    %28 = blk.broadcast %27 : tensor<2x1x!blk.ptr<f32>> -> tensor<2x2x!blk.ptr<f32>>
    %29 = blk.expand_dims %1 {axis = 0 : i32} : tensor<2xi32> -> tensor<1x2xi32>
    %30 = blk.broadcast %29 : tensor<1x2xi32> -> tensor<2x2xi32>
    %31 = blk.addptr %28, %30 : tensor<2x2x!blk.ptr<f32>>, tensor<2x2xi32>
    blk.store %31, %22, %10 : tensor<2x2x!blk.ptr<f32>>
    return
  }
}

