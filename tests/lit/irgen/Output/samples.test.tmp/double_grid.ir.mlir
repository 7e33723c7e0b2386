module attributes {blk.source = "/work/main/samples/double_grid.blk", blk.source_hash = "fnv1a64:afc3eac1f412ec6c"} {
  func.func @double_grid__BLOCK_1024__w4(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<f32>, %arg2: i32) attributes {blk.autotune_key = [], blk.config = {BLOCK = 1024 : i64}, blk.const_params = ["BLOCK:i32"], blk.grid = "[{\22op\22: \22cdiv\22, \22args\22: [{\22param\22: 2}, {\22int\22: 1024}]}]", blk.grid_source = ["cdiv(n, BLOCK)"], blk.kernel = "double_grid", blk.num_stages = 3 : i32, blk.num_warps = 4 : i32, blk.param_names = ["x", "out", "n"], blk.param_types = ["*f32", "*f32", "i32"]} {
    %0 = blk.program_id 0
    %c1024_i32 = arith.constant 1024 : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = blk.splat %1 : i32 -> tensor<1024xi32>
    %3 = blk.make_range 0, 1024 : tensor<1024xi32>
    %4 = arith.addi %2, %3 : tensor<1024xi32>
    %5 = blk.splat %arg2 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<1024x!blk.ptr<f32>>
    %8 = blk.addptr %7, %4 : tensor<1024x!blk.ptr<f32>>, tensor<1024xi32>
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %9 = blk.load %8, %6, %cst : tensor<1024x!blk.ptr<f32>>
    %10 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<1024x!blk.ptr<f32>>
    %11 = blk.addptr %10, %4 : tensor<1024x!blk.ptr<f32>>, tensor<1024xi32>
    %cst_0 = arith.constant dense<2.000000e+00> : tensor<1024xf32>
    %12 = arith.mulf %9, %cst_0 : tensor<1024xf32>
    blk.store %11, %12, %6 : tensor<1024x!blk.ptr<f32>>
    return
  }
  func.func @double_grid__BLOCK_256__w2(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<f32>, %arg2: i32) attributes {blk.autotune_key = [], blk.config = {BLOCK = 256 : i64}, blk.const_params = ["BLOCK:i32"], blk.grid = "[{\22op\22: \22cdiv\22, \22args\22: [{\22param\22: 2}, {\22int\22: 256}]}]", blk.grid_source = ["cdiv(n, BLOCK)"], blk.kernel = "double_grid", blk.num_stages = 3 : i32, blk.num_warps = 2 : i32, blk.param_names = ["x", "out", "n"], blk.param_types = ["*f32", "*f32", "i32"]} {
    %0 = blk.program_id 0
    %c256_i32 = arith.constant 256 : i32
    %1 = arith.muli %0, %c256_i32 : i32
    %2 = blk.splat %1 : i32 -> tensor<256xi32>
    %3 = blk.make_range 0, 256 : tensor<256xi32>
    %4 = arith.addi %2, %3 : tensor<256xi32>
    %5 = blk.splat %arg2 : i32 -> tensor<256xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<256xi32>
    %7 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<256x!blk.ptr<f32>>
    %8 = blk.addptr %7, %4 : tensor<256x!blk.ptr<f32>>, tensor<256xi32>
    %cst = arith.constant dense<0.000000e+00> : tensor<256xf32>
    %9 = blk.load %8, %6, %cst : tensor<256x!blk.ptr<f32>>
    %10 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<256x!blk.ptr<f32>>
    %11 = blk.addptr %10, %4 : tensor<256x!blk.ptr<f32>>, tensor<256xi32>
    %cst_0 = arith.constant dense<2.000000e+00> : tensor<256xf32>
    %12 = arith.mulf %9, %cst_0 : tensor<256xf32>
    blk.store %11, %12, %6 : tensor<256x!blk.ptr<f32>>
    return
  }
  func.func @double_grid__BLOCK_8__w1(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<f32>, %arg2: i32) attributes {blk.autotune_key = [], blk.config = {BLOCK = 8 : i64}, blk.const_params = ["BLOCK:i32"], blk.grid = "[{\22op\22: \22cdiv\22, \22args\22: [{\22param\22: 2}, {\22int\22: 8}]}]", blk.grid_source = ["cdiv(n, BLOCK)"], blk.kernel = "double_grid", blk.num_stages = 3 : i32, blk.num_warps = 1 : i32, blk.param_names = ["x", "out", "n"], blk.param_types = ["*f32", "*f32", "i32"]} {
    %0 = blk.program_id 0
    %c8_i32 = arith.constant 8 : i32
    %1 = arith.muli %0, %c8_i32 : i32
    %2 = blk.splat %1 : i32 -> tensor<8xi32>
    %3 = blk.make_range 0, 8 : tensor<8xi32>
    %4 = arith.addi %2, %3 : tensor<8xi32>
    %5 = blk.splat %arg2 : i32 -> tensor<8xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<8xi32>
    %7 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<8x!blk.ptr<f32>>
    %8 = blk.addptr %7, %4 : tensor<8x!blk.ptr<f32>>, tensor<8xi32>
    %cst = arith.constant dense<0.000000e+00> : tensor<8xf32>
    %9 = blk.load %8, %6, %cst : tensor<8x!blk.ptr<f32>>
    %10 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<8x!blk.ptr<f32>>
    %11 = blk.addptr %10, %4 : tensor<8x!blk.ptr<f32>>, tensor<8xi32>
    %cst_0 = arith.constant dense<2.000000e+00> : tensor<8xf32>
    %12 = arith.mulf %9, %cst_0 : tensor<8xf32>
    blk.store %11, %12, %6 : tensor<8x!blk.ptr<f32>>
    return
  }
}

