module attributes {blk.source = "/work/main/samples/transpose_tile.blk", blk.source_hash = "fnv1a64:da9790e18d2c7404"} {
  func.func @transpose_tile__BLOCK_M_2_BLOCK_N_2__w1(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<f32>, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32) attributes {blk.autotune_key = [], blk.config = {BLOCK_M = 2 : i64, BLOCK_N = 2 : i64}, blk.const_params = ["BLOCK_M:i32", "BLOCK_N:i32"], blk.grid = "[{\22op\22: \22cdiv\22, \22args\22: [{\22param\22: 2}, {\22int\22: 2}]}, {\22op\22: \22cdiv\22, \22args\22: [{\22param\22: 3}, {\22int\22: 2}]}]", blk.grid_source = ["cdiv(M, BLOCK_M)", "cdiv(N, BLOCK_N)"], blk.kernel = "transpose_tile", blk.num_stages = 3 : i32, blk.num_warps = 1 : i32, blk.param_names = ["x", "out", "M", "N", "stride_xm", "stride_xn", "stride_om", "stride_on"], blk.param_types = ["*f32", "*f32", "i32", "i32", "i32", "i32", "i32", "i32"]} {
    %c2_i32 = arith.constant 2 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<2x2xf32>
    %0 = blk.program_id 0
    %1 = blk.program_id 1
    %2 = arith.muli %0, %c2_i32 : i32
    %3 = blk.splat %2 : i32 -> tensor<2xi32>
    %4 = blk.make_range 0, 2 : tensor<2xi32>
    %5 = arith.addi %3, %4 : tensor<2xi32>
    %6 = arith.muli %1, %c2_i32 : i32
    %7 = blk.splat %6 : i32 -> tensor<2xi32>
    %8 = arith.addi %7, %4 : tensor<2xi32>
    %9 = blk.expand_dims %5 {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
    %10 = blk.splat %arg2 : i32 -> tensor<2x1xi32>
    %11 = arith.cmpi slt, %9, %10 : tensor<2x1xi32>
    %12 = blk.broadcast %11 : tensor<2x1xi1> -> tensor<2x2xi1>
    %13 = blk.expand_dims %8 {axis = 0 : i32} : tensor<2xi32> -> tensor<1x2xi32>
    %14 = blk.splat %arg3 : i32 -> tensor<1x2xi32>
    %15 = arith.cmpi slt, %13, %14 : tensor<1x2xi32>
    %16 = blk.broadcast %15 : tensor<1x2xi1> -> tensor<2x2xi1>
    %17 = arith.andi %12, %16 : tensor<2x2xi1>
    %18 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<2x1x!blk.ptr<f32>>
    %19 = blk.splat %arg4 : i32 -> tensor<2x1xi32>
    %20 = arith.muli %9, %19 : tensor<2x1xi32>
    %21 = blk.addptr %18, %20 : tensor<2x1x!blk.ptr<f32>>, tensor<2x1xi32>
    %22 = blk.broadcast %21 : tensor<2x1x!blk.ptr<f32>> -> tensor<2x2x!blk.ptr<f32>>
    %23 = blk.splat %arg5 : i32 -> tensor<1x2xi32>
    %24 = arith.muli %13, %23 : tensor<1x2xi32>
    %25 = blk.broadcast %24 : tensor<1x2xi32> -> tensor<2x2xi32>
    %26 = blk.addptr %22, %25 : tensor<2x2x!blk.ptr<f32>>, tensor<2x2xi32>
    %27 = blk.load %26, %17, %cst : tensor<2x2x!blk.ptr<f32>>
    %28 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<1x2x!blk.ptr<f32>>
    %29 = blk.splat %arg6 : i32 -> tensor<1x2xi32>
    %30 = arith.muli %13, %29 : tensor<1x2xi32>
    %31 = blk.addptr %28, %30 : tensor<1x2x!blk.ptr<f32>>, tensor<1x2xi32>
    %32 = blk.broadcast %31 : tensor<1x2x!blk.ptr<f32>> -> tensor<2x2x!blk.ptr<f32>>
    %33 = blk.splat %arg7 : i32 -> tensor<2x1xi32>
    %34 = arith.muli %9, %33 : tensor<2x1xi32>
    %35 = blk.broadcast %34 : tensor<2x1xi32> -> tensor<2x2xi32>
    %36 = blk.addptr %32, %35 : tensor<2x2x!blk.ptr<f32>>, tensor<2x2xi32>
    blk.store %36, %27, %17 : tensor<2x2x!blk.ptr<f32>>
    return
  }
  func.func @transpose_tile__BLOCK_M_32_BLOCK_N_32__w4(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<f32>, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32) attributes {blk.autotune_key = [], blk.config = {BLOCK_M = 32 : i64, BLOCK_N = 32 : i64}, blk.const_params = ["BLOCK_M:i32", "BLOCK_N:i32"], blk.grid = "[{\22op\22: \22cdiv\22, \22args\22: [{\22param\22: 2}, {\22int\22: 32}]}, {\22op\22: \22cdiv\22, \22args\22: [{\22param\22: 3}, {\22int\22: 32}]}]", blk.grid_source = ["cdiv(M, BLOCK_M)", "cdiv(N, BLOCK_N)"], blk.kernel = "transpose_tile", blk.num_stages = 3 : i32, blk.num_warps = 4 : i32, blk.param_names = ["x", "out", "M", "N", "stride_xm", "stride_xn", "stride_om", "stride_on"], blk.param_types = ["*f32", "*f32", "i32", "i32", "i32", "i32", "i32", "i32"]} {
    %c32_i32 = arith.constant 32 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %0 = blk.program_id 0
    %1 = blk.program_id 1
    %2 = arith.muli %0, %c32_i32 : i32
    %3 = blk.splat %2 : i32 -> tensor<32xi32>
    %4 = blk.make_range 0, 32 : tensor<32xi32>
    %5 = arith.addi %3, %4 : tensor<32xi32>
    %6 = arith.muli %1, %c32_i32 : i32
    %7 = blk.splat %6 : i32 -> tensor<32xi32>
    %8 = arith.addi %7, %4 : tensor<32xi32>
    %9 = blk.expand_dims %5 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %10 = blk.splat %arg2 : i32 -> tensor<32x1xi32>
    %11 = arith.cmpi slt, %9, %10 : tensor<32x1xi32>
    %12 = blk.broadcast %11 : tensor<32x1xi1> -> tensor<32x32xi1>
    %13 = blk.expand_dims %8 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %14 = blk.splat %arg3 : i32 -> tensor<1x32xi32>
    %15 = arith.cmpi slt, %13, %14 : tensor<1x32xi32>
    %16 = blk.broadcast %15 : tensor<1x32xi1> -> tensor<32x32xi1>
    %17 = arith.andi %12, %16 : tensor<32x32xi1>
    %18 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<32x1x!blk.ptr<f32>>
    %19 = blk.splat %arg4 : i32 -> tensor<32x1xi32>
    %20 = arith.muli %9, %19 : tensor<32x1xi32>
    %21 = blk.addptr %18, %20 : tensor<32x1x!blk.ptr<f32>>, tensor<32x1xi32>
    %22 = blk.broadcast %21 : tensor<32x1x!blk.ptr<f32>> -> tensor<32x32x!blk.ptr<f32>>
    %23 = blk.splat %arg5 : i32 -> tensor<1x32xi32>
    %24 = arith.muli %13, %23 : tensor<1x32xi32>
    %25 = blk.broadcast %24 : tensor<1x32xi32> -> tensor<32x32xi32>
    %26 = blk.addptr %22, %25 : tensor<32x32x!blk.ptr<f32>>, tensor<32x32xi32>
    %27 = blk.load %26, %17, %cst : tensor<32x32x!blk.ptr<f32>>
    %28 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<1x32x!blk.ptr<f32>>
    %29 = blk.splat %arg6 : i32 -> tensor<1x32xi32>
    %30 = arith.muli %13, %29 : tensor<1x32xi32>
    %31 = blk.addptr %28, %30 : tensor<1x32x!blk.ptr<f32>>, tensor<1x32xi32>
    %32 = blk.broadcast %31 : tensor<1x32x!blk.ptr<f32>> -> tensor<32x32x!blk.ptr<f32>>
    %33 = blk.splat %arg7 : i32 -> tensor<32x1xi32>
    %34 = arith.muli %9, %33 : tensor<32x1xi32>
    %35 = blk.broadcast %34 : tensor<32x1xi32> -> tensor<32x32xi32>
    %36 = blk.addptr %32, %35 : tensor<32x32x!blk.ptr<f32>>, tensor<32x32xi32>
    blk.store %36, %27, %17 : tensor<32x32x!blk.ptr<f32>>
    return
  }
}

