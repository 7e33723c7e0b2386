module attributes {blk.source = "/work/main/samples/copy_2d.blk", blk.source_hash = "fnv1a64:8932deb793ebaba5"} {
  func.func @copy_2d_hardcoded__BLOCK_M_4_BLOCK_N_4__w1(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<f32>, %arg2: i32, %arg3: i32) attributes {blk.autotune_key = [], blk.config = {BLOCK_M = 4 : i64, BLOCK_N = 4 : i64}, blk.const_params = ["BLOCK_M:i32", "BLOCK_N:i32"], blk.grid = "[{\22int\22: 1}]", blk.grid_source = ["1"], blk.kernel = "copy_2d_hardcoded", blk.num_stages = 3 : i32, blk.num_warps = 1 : i32, blk.param_names = ["x", "out", "M", "N"], blk.param_types = ["*f32", "*f32", "i32", "i32"]} {
    %0 = blk.make_range 0, 4 : tensor<4xi32>
    %1 = blk.expand_dims %0 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %2 = blk.splat %arg2 : i32 -> tensor<4x1xi32>
    %3 = arith.cmpi slt, %1, %2 : tensor<4x1xi32>
    %4 = blk.broadcast %3 : tensor<4x1xi1> -> tensor<4x4xi1>
    %5 = blk.expand_dims %0 {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
    %6 = blk.splat %arg3 : i32 -> tensor<1x4xi32>
    %7 = arith.cmpi slt, %5, %6 : tensor<1x4xi32>
    %8 = blk.broadcast %7 : tensor<1x4xi1> -> tensor<4x4xi1>
    %9 = arith.andi %4, %8 : tensor<4x4xi1>
    %10 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<4x1x!blk.ptr<f32>>
    %11 = blk.splat %arg3 : i32 -> tensor<4x1xi32>
    %12 = arith.muli %1, %11 : tensor<4x1xi32>
    %13 = blk.addptr %10, %12 : tensor<4x1x!blk.ptr<f32>>, tensor<4x1xi32>
    %14 = blk.broadcast %13 : tensor<4x1x!blk.ptr<f32>> -> tensor<4x4x!blk.ptr<f32>>
    %15 = blk.broadcast %5 : tensor<1x4xi32> -> tensor<4x4xi32>
    %16 = blk.addptr %14, %15 : tensor<4x4x!blk.ptr<f32>>, tensor<4x4xi32>
    %17 = blk.load %16, %9 : tensor<4x4x!blk.ptr<f32>>
    %18 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<4x1x!blk.ptr<f32>>
    %19 = blk.addptr %18, %12 : tensor<4x1x!blk.ptr<f32>>, tensor<4x1xi32>
    %20 = blk.broadcast %19 : tensor<4x1x!blk.ptr<f32>> -> tensor<4x4x!blk.ptr<f32>>
    %21 = blk.addptr %20, %15 : tensor<4x4x!blk.ptr<f32>>, tensor<4x4xi32>
    blk.store %21, %17, %9 : tensor<4x4x!blk.ptr<f32>>
    return
  }
  func.func @copy_2d_strided__BLOCK_M_4_BLOCK_N_4__w1(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<f32>, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32) attributes {blk.autotune_key = [], blk.config = {BLOCK_M = 4 : i64, BLOCK_N = 4 : i64}, blk.const_params = ["BLOCK_M:i32", "BLOCK_N:i32"], blk.grid = "[{\22int\22: 1}]", blk.grid_source = ["1"], blk.kernel = "copy_2d_strided", blk.num_stages = 3 : i32, blk.num_warps = 1 : i32, blk.param_names = ["x", "out", "M", "N", "stride_row", "stride_col"], blk.param_types = ["*f32", "*f32", "i32", "i32", "i32", "i32"]} {
    %0 = blk.make_range 0, 4 : tensor<4xi32>
    %1 = blk.expand_dims %0 {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %2 = blk.splat %arg2 : i32 -> tensor<4x1xi32>
    %3 = arith.cmpi slt, %1, %2 : tensor<4x1xi32>
    %4 = blk.broadcast %3 : tensor<4x1xi1> -> tensor<4x4xi1>
    %5 = blk.expand_dims %0 {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
    %6 = blk.splat %arg3 : i32 -> tensor<1x4xi32>
    %7 = arith.cmpi slt, %5, %6 : tensor<1x4xi32>
    %8 = blk.broadcast %7 : tensor<1x4xi1> -> tensor<4x4xi1>
    %9 = arith.andi %4, %8 : tensor<4x4xi1>
    %10 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<4x1x!blk.ptr<f32>>
    %11 = blk.splat %arg4 : i32 -> tensor<4x1xi32>
    %12 = arith.muli %1, %11 : tensor<4x1xi32>
    %13 = blk.addptr %10, %12 : tensor<4x1x!blk.ptr<f32>>, tensor<4x1xi32>
    %14 = blk.broadcast %13 : tensor<4x1x!blk.ptr<f32>> -> tensor<4x4x!blk.ptr<f32>>
    %15 = blk.splat %arg5 : i32 -> tensor<1x4xi32>
    %16 = arith.muli %5, %15 : tensor<1x4xi32>
    %17 = blk.broadcast %16 : tensor<1x4xi32> -> tensor<4x4xi32>
    %18 = blk.addptr %14, %17 : tensor<4x4x!blk.ptr<f32>>, tensor<4x4xi32>
    %19 = blk.load %18, %9 : tensor<4x4x!blk.ptr<f32>>
    %20 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<4x1x!blk.ptr<f32>>
    %21 = blk.splat %arg3 : i32 -> tensor<4x1xi32>
    %22 = arith.muli %1, %21 : tensor<4x1xi32>
    %23 = blk.addptr %20, %22 : tensor<4x1x!blk.ptr<f32>>, tensor<4x1xi32>
    %24 = blk.broadcast %23 : tensor<4x1x!blk.ptr<f32>> -> tensor<4x4x!blk.ptr<f32>>
    %25 = blk.broadcast %5 : tensor<1x4xi32> -> tensor<4x4xi32>
    %26 = blk.addptr %24, %25 : tensor<4x4x!blk.ptr<f32>>, tensor<4x4xi32>
    blk.store %26, %19, %9 : tensor<4x4x!blk.ptr<f32>>
    return
  }
  func.func @copy_2d_strided__BLOCK_M_2_BLOCK_N_2__w1(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<f32>, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32) attributes {blk.autotune_key = [], blk.config = {BLOCK_M = 2 : i64, BLOCK_N = 2 : i64}, blk.const_params = ["BLOCK_M:i32", "BLOCK_N:i32"], blk.grid = "[{\22int\22: 1}]", blk.grid_source = ["1"], blk.kernel = "copy_2d_strided", blk.num_stages = 3 : i32, blk.num_warps = 1 : i32, blk.param_names = ["x", "out", "M", "N", "stride_row", "stride_col"], blk.param_types = ["*f32", "*f32", "i32", "i32", "i32", "i32"]} {
    %0 = blk.make_range 0, 2 : tensor<2xi32>
    %1 = blk.expand_dims %0 {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
    %2 = blk.splat %arg2 : i32 -> tensor<2x1xi32>
    %3 = arith.cmpi slt, %1, %2 : tensor<2x1xi32>
    %4 = blk.broadcast %3 : tensor<2x1xi1> -> tensor<2x2xi1>
    %5 = blk.expand_dims %0 {axis = 0 : i32} : tensor<2xi32> -> tensor<1x2xi32>
    %6 = blk.splat %arg3 : i32 -> tensor<1x2xi32>
    %7 = arith.cmpi slt, %5, %6 : tensor<1x2xi32>
    %8 = blk.broadcast %7 : tensor<1x2xi1> -> tensor<2x2xi1>
    %9 = arith.andi %4, %8 : tensor<2x2xi1>
    %10 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<2x1x!blk.ptr<f32>>
    %11 = blk.splat %arg4 : i32 -> tensor<2x1xi32>
    %12 = arith.muli %1, %11 : tensor<2x1xi32>
    %13 = blk.addptr %10, %12 : tensor<2x1x!blk.ptr<f32>>, tensor<2x1xi32>
    %14 = blk.broadcast %13 : tensor<2x1x!blk.ptr<f32>> -> tensor<2x2x!blk.ptr<f32>>
    %15 = blk.splat %arg5 : i32 -> tensor<1x2xi32>
    %16 = arith.muli %5, %15 : tensor<1x2xi32>
    %17 = blk.broadcast %16 : tensor<1x2xi32> -> tensor<2x2xi32>
    %18 = blk.addptr %14, %17 : tensor<2x2x!blk.ptr<f32>>, tensor<2x2xi32>
    %19 = blk.load %18, %9 : tensor<2x2x!blk.ptr<f32>>
    %20 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<2x1x!blk.ptr<f32>>
    %21 = blk.splat %arg3 : i32 -> tensor<2x1xi32>
    %22 = arith.muli %1, %21 : tensor<2x1xi32>
    %23 = blk.addptr %20, %22 : tensor<2x1x!blk.ptr<f32>>, tensor<2x1xi32>
    %24 = blk.broadcast %23 : tensor<2x1x!blk.ptr<f32>> -> tensor<2x2x!blk.ptr<f32>>
    %25 = blk.broadcast %5 : tensor<1x2xi32> -> tensor<2x2xi32>
    %26 = blk.addptr %24, %25 : tensor<2x2x!blk.ptr<f32>>, tensor<2x2xi32>
    blk.store %26, %19, %9 : tensor<2x2x!blk.ptr<f32>>
    return
  }
}

