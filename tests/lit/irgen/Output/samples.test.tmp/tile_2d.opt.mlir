module attributes {blk.source = "/work/main/samples/tile_2d.blk", blk.source_hash = "fnv1a64:a3cf72d0d0715930"} {
  func.func @tile_2d__BLOCK_M_64_BLOCK_N_64__w4(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<f32>, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: f32) attributes {blk.autotune_key = [], blk.config = {BLOCK_M = 64 : i64, BLOCK_N = 64 : i64}, blk.const_params = ["BLOCK_M:i32", "BLOCK_N:i32"], blk.grid = "[{\22op\22: \22cdiv\22, \22args\22: [{\22param\22: 2}, {\22int\22: 64}]}, {\22op\22: \22cdiv\22, \22args\22: [{\22param\22: 3}, {\22int\22: 64}]}]", blk.grid_source = ["cdiv(M, BLOCK_M)", "cdiv(N, BLOCK_N)"], blk.kernel = "tile_2d", blk.num_stages = 3 : i32, blk.num_warps = 4 : i32, blk.param_names = ["a", "b", "M", "N", "stride_am", "stride_an", "alpha"], blk.param_types = ["*f32", "*f32", "i32", "i32", "i32", "i32", "f32"]} {
    %c64_i32 = arith.constant 64 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %0 = blk.program_id 0
    %1 = blk.program_id 1
    %2 = arith.muli %0, %c64_i32 : i32
    %3 = blk.splat %2 : i32 -> tensor<64xi32>
    %4 = blk.make_range 0, 64 : tensor<64xi32>
    %5 = arith.addi %3, %4 : tensor<64xi32>
    %6 = arith.muli %1, %c64_i32 : i32
    %7 = blk.splat %6 : i32 -> tensor<64xi32>
    %8 = arith.addi %7, %4 : tensor<64xi32>
    %9 = blk.expand_dims %5 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %10 = blk.splat %arg4 : i32 -> tensor<64x1xi32>
    %11 = arith.muli %9, %10 : tensor<64x1xi32>
    %12 = blk.broadcast %11 : tensor<64x1xi32> -> tensor<64x64xi32>
    %13 = blk.expand_dims %8 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %14 = blk.splat %arg5 : i32 -> tensor<1x64xi32>
    %15 = arith.muli %13, %14 : tensor<1x64xi32>
    %16 = blk.broadcast %15 : tensor<1x64xi32> -> tensor<64x64xi32>
    %17 = arith.addi %12, %16 : tensor<64x64xi32>
    %18 = blk.splat %arg2 : i32 -> tensor<64x1xi32>
    %19 = arith.cmpi slt, %9, %18 : tensor<64x1xi32>
    %20 = blk.broadcast %19 : tensor<64x1xi1> -> tensor<64x64xi1>
    %21 = blk.splat %arg3 : i32 -> tensor<1x64xi32>
    %22 = arith.cmpi slt, %13, %21 : tensor<1x64xi32>
    %23 = blk.broadcast %22 : tensor<1x64xi1> -> tensor<64x64xi1>
    %24 = arith.andi %20, %23 : tensor<64x64xi1>
    %25 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<64x64x!blk.ptr<f32>>
    %26 = blk.addptr %25, %17 : tensor<64x64x!blk.ptr<f32>>, tensor<64x64xi32>
    %27 = blk.load %26, %24, %cst : tensor<64x64x!blk.ptr<f32>>
    %28 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<64x64x!blk.ptr<f32>>
    %29 = blk.addptr %28, %17 : tensor<64x64x!blk.ptr<f32>>, tensor<64x64xi32>
    %30 = blk.splat %arg6 : f32 -> tensor<64x64xf32>
    %31 = arith.mulf %27, %30 : tensor<64x64xf32>
    blk.store %29, %31, %24 : tensor<64x64x!blk.ptr<f32>>
    return
  }
  func.func @tile_2d__BLOCK_M_128_BLOCK_N_256__w8(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<f32>, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: f32) attributes {blk.autotune_key = [], blk.config = {BLOCK_M = 128 : i64, BLOCK_N = 256 : i64}, blk.const_params = ["BLOCK_M:i32", "BLOCK_N:i32"], blk.grid = "[{\22op\22: \22cdiv\22, \22args\22: [{\22param\22: 2}, {\22int\22: 128}]}, {\22op\22: \22cdiv\22, \22args\22: [{\22param\22: 3}, {\22int\22: 256}]}]", blk.grid_source = ["cdiv(M, BLOCK_M)", "cdiv(N, BLOCK_N)"], blk.kernel = "tile_2d", blk.num_stages = 3 : i32, blk.num_warps = 8 : i32, blk.param_names = ["a", "b", "M", "N", "stride_am", "stride_an", "alpha"], blk.param_types = ["*f32", "*f32", "i32", "i32", "i32", "i32", "f32"]} {
    %c128_i32 = arith.constant 128 : i32
    %c256_i32 = arith.constant 256 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<128x256xf32>
    %0 = blk.program_id 0
    %1 = blk.program_id 1
    %2 = arith.muli %0, %c128_i32 : i32
    %3 = blk.splat %2 : i32 -> tensor<128xi32>
    %4 = blk.make_range 0, 128 : tensor<128xi32>
    %5 = arith.addi %3, %4 : tensor<128xi32>
    %6 = arith.muli %1, %c256_i32 : i32
    %7 = blk.splat %6 : i32 -> tensor<256xi32>
    %8 = blk.make_range 0, 256 : tensor<256xi32>
    %9 = arith.addi %7, %8 : tensor<256xi32>
    %10 = blk.expand_dims %5 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %11 = blk.splat %arg4 : i32 -> tensor<128x1xi32>
    %12 = arith.muli %10, %11 : tensor<128x1xi32>
    %13 = blk.broadcast %12 : tensor<128x1xi32> -> tensor<128x256xi32>
    %14 = blk.expand_dims %9 {axis = 0 : i32} : tensor<256xi32> -> tensor<1x256xi32>
    %15 = blk.splat %arg5 : i32 -> tensor<1x256xi32>
    %16 = arith.muli %14, %15 : tensor<1x256xi32>
    %17 = blk.broadcast %16 : tensor<1x256xi32> -> tensor<128x256xi32>
    %18 = arith.addi %13, %17 : tensor<128x256xi32>
    %19 = blk.splat %arg2 : i32 -> tensor<128x1xi32>
    %20 = arith.cmpi slt, %10, %19 : tensor<128x1xi32>
    %21 = blk.broadcast %20 : tensor<128x1xi1> -> tensor<128x256xi1>
    %22 = blk.splat %arg3 : i32 -> tensor<1x256xi32>
    %23 = arith.cmpi slt, %14, %22 : tensor<1x256xi32>
    %24 = blk.broadcast %23 : tensor<1x256xi1> -> tensor<128x256xi1>
    %25 = arith.andi %21, %24 : tensor<128x256xi1>
    %26 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<128x256x!blk.ptr<f32>>
    %27 = blk.addptr %26, %18 : tensor<128x256x!blk.ptr<f32>>, tensor<128x256xi32>
    %28 = blk.load %27, %25, %cst : tensor<128x256x!blk.ptr<f32>>
    %29 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<128x256x!blk.ptr<f32>>
    %30 = blk.addptr %29, %18 : tensor<128x256x!blk.ptr<f32>>, tensor<128x256xi32>
    %31 = blk.splat %arg6 : f32 -> tensor<128x256xf32>
    %32 = arith.mulf %28, %31 : tensor<128x256xf32>
    blk.store %30, %32, %25 : tensor<128x256x!blk.ptr<f32>>
    return
  }
}

