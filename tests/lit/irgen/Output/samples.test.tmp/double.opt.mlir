module attributes {blk.source = "/work/main/samples/double.blk", blk.source_hash = "fnv1a64:e2836f3d0799995b"} {
  func.func @double_kernel__BLOCK_8__w1(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<f32>, %arg2: i32) attributes {blk.autotune_key = [], blk.config = {BLOCK = 8 : i64}, blk.const_params = ["BLOCK:i32"], blk.grid = "[{\22int\22: 1}]", blk.grid_source = ["1"], blk.kernel = "double_kernel", blk.num_stages = 3 : i32, blk.num_warps = 1 : i32, blk.param_names = ["x", "out", "n"], blk.param_types = ["*f32", "*f32", "i32"]} {
    %cst = arith.constant dense<0.000000e+00> : tensor<8xf32>
    %cst_0 = arith.constant dense<2.000000e+00> : tensor<8xf32>
    %0 = blk.make_range 0, 8 : tensor<8xi32>
    %1 = blk.splat %arg2 : i32 -> tensor<8xi32>
    %2 = arith.cmpi slt, %0, %1 : tensor<8xi32>
    %3 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<8x!blk.ptr<f32>>
    %4 = blk.addptr %3, %0 : tensor<8x!blk.ptr<f32>>, tensor<8xi32>
    %5 = blk.load %4, %2, %cst : tensor<8x!blk.ptr<f32>>
    %6 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<8x!blk.ptr<f32>>
    %7 = blk.addptr %6, %0 : tensor<8x!blk.ptr<f32>>, tensor<8xi32>
    %8 = arith.mulf %5, %cst_0 : tensor<8xf32>
    blk.store %7, %8, %2 : tensor<8x!blk.ptr<f32>>
    return
  }
}

