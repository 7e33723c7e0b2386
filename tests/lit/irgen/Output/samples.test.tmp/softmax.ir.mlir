module attributes {blk.source = "/work/main/samples/softmax.blk", blk.source_hash = "fnv1a64:ae1db50f688428ea"} {
  func.func @softmax__BLOCK_1024__w4(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<f32>, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32) attributes {blk.autotune_key = ["n_cols"], blk.config = {BLOCK = 1024 : i64}, blk.const_params = ["BLOCK:i32"], blk.grid = "[{\22param\22: 4}]", blk.grid_source = ["n_rows"], blk.kernel = "softmax", blk.num_stages = 3 : i32, blk.num_warps = 4 : i32, blk.param_names = ["out", "inp", "in_row_stride", "out_row_stride", "n_rows", "n_cols"], blk.param_types = ["*f32", "*f32", "i32", "i32", "i32", "i32"]} {
    %0 = blk.program_id 0
    %1 = blk.make_range 0, 1024 : tensor<1024xi32>
    %2 = blk.splat %arg5 : i32 -> tensor<1024xi32>
    %3 = arith.cmpi slt, %1, %2 : tensor<1024xi32>
    %4 = arith.muli %0, %arg2 : i32
    %5 = blk.addptr %arg1, %4 : !blk.ptr<f32>, i32
    %6 = blk.splat %5 : !blk.ptr<f32> -> tensor<1024x!blk.ptr<f32>>
    %7 = blk.addptr %6, %1 : tensor<1024x!blk.ptr<f32>>, tensor<1024xi32>
    %cst = arith.constant dense<0xFF800000> : tensor<1024xf32>
    %8 = blk.load %7, %3, %cst : tensor<1024x!blk.ptr<f32>>
    %9 = blk.reduce %8 {axis = 0 : i32} : (tensor<1024xf32>) -> f32 {
    ^bb0(%arg6: f32, %arg7: f32):
      %20 = arith.maximumf %arg6, %arg7 : f32
      blk.reduce.return %20 : f32
    }
    %10 = blk.splat %9 : f32 -> tensor<1024xf32>
    %11 = arith.subf %8, %10 : tensor<1024xf32>
    %12 = math.exp %11 : tensor<1024xf32>
    %13 = blk.reduce %12 {axis = 0 : i32} : (tensor<1024xf32>) -> f32 {
    ^bb0(%arg6: f32, %arg7: f32):
      %20 = arith.addf %arg6, %arg7 : f32
      blk.reduce.return %20 : f32
    }
    %14 = arith.muli %0, %arg3 : i32
    %15 = blk.addptr %arg0, %14 : !blk.ptr<f32>, i32
    %16 = blk.splat %15 : !blk.ptr<f32> -> tensor<1024x!blk.ptr<f32>>
    %17 = blk.addptr %16, %1 : tensor<1024x!blk.ptr<f32>>, tensor<1024xi32>
    %18 = blk.splat %13 : f32 -> tensor<1024xf32>
    %19 = arith.divf %12, %18 : tensor<1024xf32>
    blk.store %17, %19, %3 : tensor<1024x!blk.ptr<f32>>
    return
  }
  func.func @softmax__BLOCK_4096__w8(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<f32>, %arg2: i32, %arg3: i32, %arg4: i32, %arg5: i32) attributes {blk.autotune_key = ["n_cols"], blk.config = {BLOCK = 4096 : i64}, blk.const_params = ["BLOCK:i32"], blk.grid = "[{\22param\22: 4}]", blk.grid_source = ["n_rows"], blk.kernel = "softmax", blk.num_stages = 3 : i32, blk.num_warps = 8 : i32, blk.param_names = ["out", "inp", "in_row_stride", "out_row_stride", "n_rows", "n_cols"], blk.param_types = ["*f32", "*f32", "i32", "i32", "i32", "i32"]} {
    %0 = blk.program_id 0
    %1 = blk.make_range 0, 4096 : tensor<4096xi32>
    %2 = blk.splat %arg5 : i32 -> tensor<4096xi32>
    %3 = arith.cmpi slt, %1, %2 : tensor<4096xi32>
    %4 = arith.muli %0, %arg2 : i32
    %5 = blk.addptr %arg1, %4 : !blk.ptr<f32>, i32
    %6 = blk.splat %5 : !blk.ptr<f32> -> tensor<4096x!blk.ptr<f32>>
    %7 = blk.addptr %6, %1 : tensor<4096x!blk.ptr<f32>>, tensor<4096xi32>
    %cst = arith.constant dense<0xFF800000> : tensor<4096xf32>
    %8 = blk.load %7, %3, %cst : tensor<4096x!blk.ptr<f32>>
    %9 = blk.reduce %8 {axis = 0 : i32} : (tensor<4096xf32>) -> f32 {
    ^bb0(%arg6: f32, %arg7: f32):
      %20 = arith.maximumf %arg6, %arg7 : f32
      blk.reduce.return %20 : f32
    }
    %10 = blk.splat %9 : f32 -> tensor<4096xf32>
    %11 = arith.subf %8, %10 : tensor<4096xf32>
    %12 = math.exp %11 : tensor<4096xf32>
    %13 = blk.reduce %12 {axis = 0 : i32} : (tensor<4096xf32>) -> f32 {
    ^bb0(%arg6: f32, %arg7: f32):
      %20 = arith.addf %arg6, %arg7 : f32
      blk.reduce.return %20 : f32
    }
    %14 = arith.muli %0, %arg3 : i32
    %15 = blk.addptr %arg0, %14 : !blk.ptr<f32>, i32
    %16 = blk.splat %15 : !blk.ptr<f32> -> tensor<4096x!blk.ptr<f32>>
    %17 = blk.addptr %16, %1 : tensor<4096x!blk.ptr<f32>>, tensor<4096xi32>
    %18 = blk.splat %13 : f32 -> tensor<4096xf32>
    %19 = arith.divf %12, %18 : tensor<4096xf32>
    blk.store %17, %19, %3 : tensor<4096x!blk.ptr<f32>>
    return
  }
}

