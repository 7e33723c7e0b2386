module attributes {blk.source = "/work/main/samples/sum_gridstride.blk", blk.source_hash = "fnv1a64:6c279c35c413c425"} {
  func.func @sum_gridstride__BLOCK_128_NUM_CHUNKS_8__w4(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<f32>, %arg2: i32) attributes {blk.autotune_key = [], blk.config = {BLOCK = 128 : i64, NUM_CHUNKS = 8 : i64}, blk.const_params = ["BLOCK:i32", "NUM_CHUNKS:i32"], blk.grid = "[{\22int\22: 1}]", blk.grid_source = ["1"], blk.kernel = "sum_gridstride", blk.num_stages = 3 : i32, blk.num_warps = 4 : i32, blk.param_names = ["x", "out", "n"], blk.param_types = ["*f32", "*f32", "i32"]} {
    %0 = blk.make_range 0, 128 : tensor<128xi32>
    %cst = arith.constant dense<0.000000e+00> : tensor<128xf32>
    %c0_i32 = arith.constant 0 : i32
    %c8_i32 = arith.constant 8 : i32
    %c1_i32 = arith.constant 1 : i32
    %1 = scf.for %arg3 = %c0_i32 to %c8_i32 step %c1_i32 iter_args(%arg4 = %cst) -> (tensor<128xf32>)  : i32 {
      %c128_i32 = arith.constant 128 : i32
      %3 = arith.muli %arg3, %c128_i32 : i32
      %4 = blk.splat %3 : i32 -> tensor<128xi32>
      %5 = arith.addi %4, %0 : tensor<128xi32>
      %6 = blk.splat %arg2 : i32 -> tensor<128xi32>
      %7 = arith.cmpi slt, %5, %6 : tensor<128xi32>
      %8 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<128x!blk.ptr<f32>>
      %9 = blk.addptr %8, %5 : tensor<128x!blk.ptr<f32>>, tensor<128xi32>
      %cst_0 = arith.constant dense<0.000000e+00> : tensor<128xf32>
      %10 = blk.load %9, %7, %cst_0 : tensor<128x!blk.ptr<f32>>
      %11 = arith.addf %arg4, %10 : tensor<128xf32>
      scf.yield %11 : tensor<128xf32>
    }
    %2 = blk.reduce %1 {axis = 0 : i32} : (tensor<128xf32>) -> f32 {
    ^bb0(%arg3: f32, %arg4: f32):
      %3 = arith.addf %arg3, %arg4 : f32
      blk.reduce.return %3 : f32
    }
    blk.store %arg1, %2 : !blk.ptr<f32>
    return
  }
}

