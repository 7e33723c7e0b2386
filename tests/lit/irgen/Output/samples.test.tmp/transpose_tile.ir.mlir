module attributes {blk.source = "/work/main/samples/transpose_tile.blk", blk.source_hash = "fnv1a64:da9790e18d2c7404"} {
  func.func @transpose_tile__BLOCK_M_2_BLOCK_N_2__w1(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<f32>, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32) attributes {blk.autotune_key = [], blk.config = {BLOCK_M = 2 : i64, BLOCK_N = 2 : i64}, blk.const_params = ["BLOCK_M:i32", "BLOCK_N:i32"], blk.grid = "[{\22op\22: \22cdiv\22, \22args\22: [{\22param\22: 2}, {\22int\22: 2}]}, {\22op\22: \22cdiv\22, \22args\22: [{\22param\22: 3}, {\22int\22: 2}]}]", blk.grid_source = ["cdiv(M, BLOCK_M)", "cdiv(N, BLOCK_N)"], blk.kernel = "transpose_tile", blk.num_stages = 3 : i32, blk.num_warps = 1 : i32, blk.param_names = ["x", "out", "M", "N", "stride_xm", "stride_xn", "stride_om", "stride_on"], blk.param_types = ["*f32", "*f32", "i32", "i32", "i32", "i32", "i32", "i32"]} {
    %0 = blk.program_id 0
    %1 = blk.program_id 1
    %c2_i32 = arith.constant 2 : i32
    %2 = arith.muli %0, %c2_i32 : i32
    %3 = blk.splat %2 : i32 -> tensor<2xi32>
    %4 = blk.make_range 0, 2 : tensor<2xi32>
    %5 = arith.addi %3, %4 : tensor<2xi32>
    %c2_i32_0 = arith.constant 2 : i32
    %6 = arith.muli %1, %c2_i32_0 : i32
    %7 = blk.splat %6 : i32 -> tensor<2xi32>
    %8 = blk.make_range 0, 2 : tensor<2xi32>
    %9 = arith.addi %7, %8 : tensor<2xi32>
    %10 = blk.expand_dims %5 {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
    %11 = blk.splat %arg2 : i32 -> tensor<2x1xi32>
    %12 = arith.cmpi slt, %10, %11 : tensor<2x1xi32>
    %13 = blk.broadcast %12 : tensor<2x1xi1> -> tensor<2x2xi1>
    %14 = blk.expand_dims %9 {axis = 0 : i32} : tensor<2xi32> -> tensor<1x2xi32>
    %15 = blk.splat %arg3 : i32 -> tensor<1x2xi32>
    %16 = arith.cmpi slt, %14, %15 : tensor<1x2xi32>
    %17 = blk.broadcast %16 : tensor<1x2xi1> -> tensor<2x2xi1>
    %18 = arith.andi %13, %17 : tensor<2x2xi1>
    %19 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<2x1x!blk.ptr<f32>>
    %20 = blk.expand_dims %5 {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
    %21 = blk.splat %arg4 : i32 -> tensor<2x1xi32>
    %22 = arith.muli %20, %21 : tensor<2x1xi32>
    %23 = blk.addptr %19, %22 : tensor<2x1x!blk.ptr<f32>>, tensor<2x1xi32>
    %24 = blk.broadcast %23 : tensor<2x1x!blk.ptr<f32>> -> tensor<2x2x!blk.ptr<f32>>
    %25 = blk.expand_dims %9 {axis = 0 : i32} : tensor<2xi32> -> tensor<1x2xi32>
    %26 = blk.splat %arg5 : i32 -> tensor<1x2xi32>
    %27 = arith.muli %25, %26 : tensor<1x2xi32>
    %28 = blk.broadcast %27 : tensor<1x2xi32> -> tensor<2x2xi32>
    %29 = blk.addptr %24, %28 : tensor<2x2x!blk.ptr<f32>>, tensor<2x2xi32>
    %cst = arith.constant dense<0.000000e+00> : tensor<2x2xf32>
    %30 = blk.load %29, %18, %cst : tensor<2x2x!blk.ptr<f32>>
    %31 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<1x2x!blk.ptr<f32>>
    %32 = blk.expand_dims %9 {axis = 0 : i32} : tensor<2xi32> -> tensor<1x2xi32>
    %33 = blk.splat %arg6 : i32 -> tensor<1x2xi32>
    %34 = arith.muli %32, %33 : tensor<1x2xi32>
    %35 = blk.addptr %31, %34 : tensor<1x2x!blk.ptr<f32>>, tensor<1x2xi32>
    %36 = blk.broadcast %35 : tensor<1x2x!blk.ptr<f32>> -> tensor<2x2x!blk.ptr<f32>>
    %37 = blk.expand_dims %5 {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
    %38 = blk.splat %arg7 : i32 -> tensor<2x1xi32>
    %39 = arith.muli %37, %38 : tensor<2x1xi32>
    %40 = blk.broadcast %39 : tensor<2x1xi32> -> tensor<2x2xi32>
    %41 = blk.addptr %36, %40 : tensor<2x2x!blk.ptr<f32>>, tensor<2x2xi32>
    blk.store %41, %30, %18 : tensor<2x2x!blk.ptr<f32>>
    return
  }
  func.func @transpose_tile__BLOCK_M_32_BLOCK_N_32__w4(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<f32>, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32) attributes {blk.autotune_key = [], blk.config = {BLOCK_M = 32 : i64, BLOCK_N = 32 : i64}, blk.const_params = ["BLOCK_M:i32", "BLOCK_N:i32"], blk.grid = "[{\22op\22: \22cdiv\22, \22args\22: [{\22param\22: 2}, {\22int\22: 32}]}, {\22op\22: \22cdiv\22, \22args\22: [{\22param\22: 3}, {\22int\22: 32}]}]", blk.grid_source = ["cdiv(M, BLOCK_M)", "cdiv(N, BLOCK_N)"], blk.kernel = "transpose_tile", blk.num_stages = 3 : i32, blk.num_warps = 4 : i32, blk.param_names = ["x", "out", "M", "N", "stride_xm", "stride_xn", "stride_om", "stride_on"], blk.param_types = ["*f32", "*f32", "i32", "i32", "i32", "i32", "i32", "i32"]} {
    %0 = blk.program_id 0
    %1 = blk.program_id 1
    %c32_i32 = arith.constant 32 : i32
    %2 = arith.muli %0, %c32_i32 : i32
    %3 = blk.splat %2 : i32 -> tensor<32xi32>
    %4 = blk.make_range 0, 32 : tensor<32xi32>
    %5 = arith.addi %3, %4 : tensor<32xi32>
    %c32_i32_0 = arith.constant 32 : i32
    %6 = arith.muli %1, %c32_i32_0 : i32
    %7 = blk.splat %6 : i32 -> tensor<32xi32>
    %8 = blk.make_range 0, 32 : tensor<32xi32>
    %9 = arith.addi %7, %8 : tensor<32xi32>
    %10 = blk.expand_dims %5 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %11 = blk.splat %arg2 : i32 -> tensor<32x1xi32>
    %12 = arith.cmpi slt, %10, %11 : tensor<32x1xi32>
    %13 = blk.broadcast %12 : tensor<32x1xi1> -> tensor<32x32xi1>
    %14 = blk.expand_dims %9 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %15 = blk.splat %arg3 : i32 -> tensor<1x32xi32>
    %16 = arith.cmpi slt, %14, %15 : tensor<1x32xi32>
    %17 = blk.broadcast %16 : tensor<1x32xi1> -> tensor<32x32xi1>
    %18 = arith.andi %13, %17 : tensor<32x32xi1>
    %19 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<32x1x!blk.ptr<f32>>
    %20 = blk.expand_dims %5 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %21 = blk.splat %arg4 : i32 -> tensor<32x1xi32>
    %22 = arith.muli %20, %21 : tensor<32x1xi32>
    %23 = blk.addptr %19, %22 : tensor<32x1x!blk.ptr<f32>>, tensor<32x1xi32>
    %24 = blk.broadcast %23 : tensor<32x1x!blk.ptr<f32>> -> tensor<32x32x!blk.ptr<f32>>
    %25 = blk.expand_dims %9 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %26 = blk.splat %arg5 : i32 -> tensor<1x32xi32>
    %27 = arith.muli %25, %26 : tensor<1x32xi32>
    %28 = blk.broadcast %27 : tensor<1x32xi32> -> tensor<32x32xi32>
    %29 = blk.addptr %24, %28 : tensor<32x32x!blk.ptr<f32>>, tensor<32x32xi32>
    %cst = arith.constant dense<0.000000e+00> : tensor<32x32xf32>
    %30 = blk.load %29, %18, %cst : tensor<32x32x!blk.ptr<f32>>
    %31 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<1x32x!blk.ptr<f32>>
    %32 = blk.expand_dims %9 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %33 = blk.splat %arg6 : i32 -> tensor<1x32xi32>
    %34 = arith.muli %32, %33 : tensor<1x32xi32>
    %35 = blk.addptr %31, %34 : tensor<1x32x!blk.ptr<f32>>, tensor<1x32xi32>
    %36 = blk.broadcast %35 : tensor<1x32x!blk.ptr<f32>> -> tensor<32x32x!blk.ptr<f32>>
    %37 = blk.expand_dims %5 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %38 = blk.splat %arg7 : i32 -> tensor<32x1xi32>
    %39 = arith.muli %37, %38 : tensor<32x1xi32>
    %40 = blk.broadcast %39 : tensor<32x1xi32> -> tensor<32x32xi32>
    %41 = blk.addptr %36, %40 : tensor<32x32x!blk.ptr<f32>>, tensor<32x32xi32>
    blk.store %41, %30, %18 : tensor<32x32x!blk.ptr<f32>>
    return
  }
}

