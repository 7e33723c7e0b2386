module attributes {blk.source = "/work/main/samples/vector_add.blk", blk.source_hash = "fnv1a64:47b857e1c898640b"} {
  func.func @vector_add__BLOCK_1024__w4(%arg0: !blk.ptr<f32> {blk.aligned = 16 : i32}, %arg1: !blk.ptr<f32> {blk.aligned = 16 : i32}, %arg2: !blk.ptr<f32> {blk.aligned = 16 : i32}, %arg3: i32) attributes {blk.autotune_key = ["n"], blk.config = {BLOCK = 1024 : i64}, blk.const_params = ["BLOCK:i32"], blk.grid = "[{\22op\22: \22cdiv\22, \22args\22: [{\22param\22: 3}, {\22int\22: 1024}]}]", blk.grid_source = ["cdiv(n, BLOCK)"], blk.kernel = "vector_add", blk.num_stages = 3 : i32, blk.num_warps = 4 : i32, blk.param_names = ["x", "y", "out", "n"], blk.param_types = ["*f32", "*f32", "*f32", "i32"]} {
    %0 = blk.program_id 0
    %c1024_i32 = arith.constant 1024 : i32
    %1 = arith.muli %0, %c1024_i32 : i32
    %2 = blk.splat %1 : i32 -> tensor<1024xi32>
    %3 = blk.make_range 0, 1024 : tensor<1024xi32>
    %4 = arith.addi %2, %3 : tensor<1024xi32>
    %5 = blk.splat %arg3 : i32 -> tensor<1024xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<1024xi32>
    %7 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<1024x!blk.ptr<f32>>
    %8 = blk.addptr %7, %4 : tensor<1024x!blk.ptr<f32>>, tensor<1024xi32>
    %9 = blk.load %8, %6 : tensor<1024x!blk.ptr<f32>>
    %10 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<1024x!blk.ptr<f32>>
    %11 = blk.addptr %10, %4 : tensor<1024x!blk.ptr<f32>>, tensor<1024xi32>
    %12 = blk.load %11, %6 : tensor<1024x!blk.ptr<f32>>
    %13 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<1024x!blk.ptr<f32>>
    %14 = blk.addptr %13, %4 : tensor<1024x!blk.ptr<f32>>, tensor<1024xi32>
    %15 = arith.addf %9, %12 : tensor<1024xf32>
    blk.store %14, %15, %6 : tensor<1024x!blk.ptr<f32>>
    return
  }
  func.func @vector_add__BLOCK_4096__w8(%arg0: !blk.ptr<f32> {blk.aligned = 16 : i32}, %arg1: !blk.ptr<f32> {blk.aligned = 16 : i32}, %arg2: !blk.ptr<f32> {blk.aligned = 16 : i32}, %arg3: i32) attributes {blk.autotune_key = ["n"], blk.config = {BLOCK = 4096 : i64}, blk.const_params = ["BLOCK:i32"], blk.grid = "[{\22op\22: \22cdiv\22, \22args\22: [{\22param\22: 3}, {\22int\22: 4096}]}]", blk.grid_source = ["cdiv(n, BLOCK)"], blk.kernel = "vector_add", blk.num_stages = 3 : i32, blk.num_warps = 8 : i32, blk.param_names = ["x", "y", "out", "n"], blk.param_types = ["*f32", "*f32", "*f32", "i32"]} {
    %0 = blk.program_id 0
    %c4096_i32 = arith.constant 4096 : i32
    %1 = arith.muli %0, %c4096_i32 : i32
    %2 = blk.splat %1 : i32 -> tensor<4096xi32>
    %3 = blk.make_range 0, 4096 : tensor<4096xi32>
    %4 = arith.addi %2, %3 : tensor<4096xi32>
    %5 = blk.splat %arg3 : i32 -> tensor<4096xi32>
    %6 = arith.cmpi slt, %4, %5 : tensor<4096xi32>
    %7 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<4096x!blk.ptr<f32>>
    %8 = blk.addptr %7, %4 : tensor<4096x!blk.ptr<f32>>, tensor<4096xi32>
    %9 = blk.load %8, %6 : tensor<4096x!blk.ptr<f32>>
    %10 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<4096x!blk.ptr<f32>>
    %11 = blk.addptr %10, %4 : tensor<4096x!blk.ptr<f32>>, tensor<4096xi32>
    %12 = blk.load %11, %6 : tensor<4096x!blk.ptr<f32>>
    %13 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<4096x!blk.ptr<f32>>
    %14 = blk.addptr %13, %4 : tensor<4096x!blk.ptr<f32>>, tensor<4096xi32>
    %15 = arith.addf %9, %12 : tensor<4096xf32>
    blk.store %14, %15, %6 : tensor<4096x!blk.ptr<f32>>
    return
  }
}

