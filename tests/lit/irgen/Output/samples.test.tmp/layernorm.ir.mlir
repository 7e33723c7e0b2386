module attributes {blk.source = "/work/main/samples/layernorm.blk", blk.source_hash = "fnv1a64:31693f3992621618"} {
  func.func @layernorm__BLOCK_1024__w4(%arg0: !blk.ptr<f16> {blk.aligned = 16 : i32}, %arg1: !blk.ptr<f16> {blk.aligned = 16 : i32}, %arg2: !blk.ptr<f16>, %arg3: !blk.ptr<f16>, %arg4: !blk.ptr<f32>, %arg5: !blk.ptr<f32>, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: f32) attributes {blk.autotune_key = ["N"], blk.config = {BLOCK = 1024 : i64}, blk.const_params = ["BLOCK:i32"], blk.grid = "[{\22param\22: 7}]", blk.grid_source = ["M"], blk.kernel = "layernorm", blk.num_stages = 3 : i32, blk.num_warps = 4 : i32, blk.param_names = ["x", "y", "w", "b", "mean_out", "rstd_out", "row_stride", "M", "N", "eps"], blk.param_types = ["*f16", "*f16", "*f16", "*f16", "*f32", "*f32", "i32", "i32", "i32", "f32"]} {
    %0 = blk.program_id 0
    %1 = arith.muli %0, %arg6 : i32
    %2 = blk.addptr %arg0, %1 : !blk.ptr<f16>, i32
    %3 = arith.muli %0, %arg6 : i32
    %4 = blk.addptr %arg1, %3 : !blk.ptr<f16>, i32
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %5 = scf.for %arg10 = %c0_i32 to %arg8 step %c1024_i32 iter_args(%arg11 = %cst) -> (tensor<1024xf32>)  : i32 {
      %17 = blk.splat %arg10 : i32 -> tensor<1024xi32>
      %18 = blk.make_range 0, 1024 : tensor<1024xi32>
      %19 = arith.addi %17, %18 : tensor<1024xi32>
      %20 = blk.splat %2 : !blk.ptr<f16> -> tensor<1024x!blk.ptr<f16>>
      %21 = blk.addptr %20, %19 : tensor<1024x!blk.ptr<f16>>, tensor<1024xi32>
      %22 = blk.splat %arg8 : i32 -> tensor<1024xi32>
      %23 = arith.cmpi slt, %19, %22 : tensor<1024xi32>
      %cst_5 = arith.constant dense<0.000000e+00> : tensor<1024xf16>
      %24 = blk.load %21, %23, %cst_5 : tensor<1024x!blk.ptr<f16>>
      %25 = arith.extf %24 : tensor<1024xf16> to tensor<1024xf32>
      %26 = arith.addf %arg11, %25 : tensor<1024xf32>
      scf.yield %26 : tensor<1024xf32>
    }
    %6 = blk.reduce %5 {axis = 0 : i32} : (tensor<1024xf32>) -> f32 {
    ^bb0(%arg10: f32, %arg11: f32):
      %17 = arith.addf %arg10, %arg11 : f32
      blk.reduce.return %17 : f32
    }
    %7 = arith.sitofp %arg8 : i32 to f32
    %8 = arith.divf %6, %7 : f32
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %c0_i32_1 = arith.constant 0 : i32
    %c1024_i32_2 = arith.constant 1024 : i32
    %9 = scf.for %arg10 = %c0_i32_1 to %arg8 step %c1024_i32_2 iter_args(%arg11 = %cst_0) -> (tensor<1024xf32>)  : i32 {
      %17 = blk.splat %arg10 : i32 -> tensor<1024xi32>
      %18 = blk.make_range 0, 1024 : tensor<1024xi32>
      %19 = arith.addi %17, %18 : tensor<1024xi32>
      %20 = blk.splat %2 : !blk.ptr<f16> -> tensor<1024x!blk.ptr<f16>>
      %21 = blk.addptr %20, %19 : tensor<1024x!blk.ptr<f16>>, tensor<1024xi32>
      %22 = blk.splat %arg8 : i32 -> tensor<1024xi32>
      %23 = arith.cmpi slt, %19, %22 : tensor<1024xi32>
      %cst_5 = arith.constant dense<0.000000e+00> : tensor<1024xf16>
      %24 = blk.load %21, %23, %cst_5 : tensor<1024x!blk.ptr<f16>>
      %25 = arith.extf %24 : tensor<1024xf16> to tensor<1024xf32>
      %26 = blk.splat %arg8 : i32 -> tensor<1024xi32>
      %27 = arith.cmpi slt, %19, %26 : tensor<1024xi32>
      %28 = blk.splat %8 : f32 -> tensor<1024xf32>
      %29 = arith.subf %25, %28 : tensor<1024xf32>
      %cst_6 = arith.constant dense<0.000000e+00> : tensor<1024xf32>
      %30 = arith.select %27, %29, %cst_6 : tensor<1024xi1>, tensor<1024xf32>
      %31 = arith.mulf %30, %30 : tensor<1024xf32>
      %32 = arith.addf %arg11, %31 : tensor<1024xf32>
      scf.yield %32 : tensor<1024xf32>
    }
    %10 = blk.reduce %9 {axis = 0 : i32} : (tensor<1024xf32>) -> f32 {
    ^bb0(%arg10: f32, %arg11: f32):
      %17 = arith.addf %arg10, %arg11 : f32
      blk.reduce.return %17 : f32
    }
    %11 = arith.sitofp %arg8 : i32 to f32
    %12 = arith.divf %10, %11 : f32
    %13 = arith.addf %12, %arg9 : f32
    %14 = math.rsqrt %13 : f32
    %15 = blk.addptr %arg4, %0 : !blk.ptr<f32>, i32
    blk.store %15, %8 : !blk.ptr<f32>
    %16 = blk.addptr %arg5, %0 : !blk.ptr<f32>, i32
    blk.store %16, %14 : !blk.ptr<f32>
    %c0_i32_3 = arith.constant 0 : i32
    %c1024_i32_4 = arith.constant 1024 : i32
    scf.for %arg10 = %c0_i32_3 to %arg8 step %c1024_i32_4  : i32 {
      %17 = blk.splat %arg10 : i32 -> tensor<1024xi32>
      %18 = blk.make_range 0, 1024 : tensor<1024xi32>
      %19 = arith.addi %17, %18 : tensor<1024xi32>
      %20 = blk.splat %arg8 : i32 -> tensor<1024xi32>
      %21 = arith.cmpi slt, %19, %20 : tensor<1024xi32>
      %22 = blk.splat %2 : !blk.ptr<f16> -> tensor<1024x!blk.ptr<f16>>
      %23 = blk.addptr %22, %19 : tensor<1024x!blk.ptr<f16>>, tensor<1024xi32>
      %cst_5 = arith.constant dense<0.000000e+00> : tensor<1024xf16>
      %24 = blk.load %23, %21, %cst_5 : tensor<1024x!blk.ptr<f16>>
      %25 = arith.extf %24 : tensor<1024xf16> to tensor<1024xf32>
      %26 = blk.splat %arg2 : !blk.ptr<f16> -> tensor<1024x!blk.ptr<f16>>
      %27 = blk.addptr %26, %19 : tensor<1024x!blk.ptr<f16>>, tensor<1024xi32>
      %cst_6 = arith.constant dense<0.000000e+00> : tensor<1024xf16>
      %28 = blk.load %27, %21, %cst_6 : tensor<1024x!blk.ptr<f16>>
      %29 = arith.extf %28 : tensor<1024xf16> to tensor<1024xf32>
      %30 = blk.splat %arg3 : !blk.ptr<f16> -> tensor<1024x!blk.ptr<f16>>
      %31 = blk.addptr %30, %19 : tensor<1024x!blk.ptr<f16>>, tensor<1024xi32>
      %cst_7 = arith.constant dense<0.000000e+00> : tensor<1024xf16>
      %32 = blk.load %31, %21, %cst_7 : tensor<1024x!blk.ptr<f16>>
      %33 = arith.extf %32 : tensor<1024xf16> to tensor<1024xf32>
      %34 = blk.splat %8 : f32 -> tensor<1024xf32>
      %35 = arith.subf %25, %34 : tensor<1024xf32>
      %36 = blk.splat %14 : f32 -> tensor<1024xf32>
      %37 = arith.mulf %35, %36 : tensor<1024xf32>
      %38 = arith.mulf %37, %29 : tensor<1024xf32>
      %39 = arith.addf %38, %33 : tensor<1024xf32>
      %40 = blk.splat %4 : !blk.ptr<f16> -> tensor<1024x!blk.ptr<f16>>
      %41 = blk.addptr %40, %19 : tensor<1024x!blk.ptr<f16>>, tensor<1024xi32>
      %42 = arith.truncf %39 : tensor<1024xf32> to tensor<1024xf16>
      blk.store %41, %42, %21 : tensor<1024x!blk.ptr<f16>>
    }
    return
  }
  func.func @layernorm__BLOCK_2048__w8(%arg0: !blk.ptr<f16> {blk.aligned = 16 : i32}, %arg1: !blk.ptr<f16> {blk.aligned = 16 : i32}, %arg2: !blk.ptr<f16>, %arg3: !blk.ptr<f16>, %arg4: !blk.ptr<f32>, %arg5: !blk.ptr<f32>, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: f32) attributes {blk.autotune_key = ["N"], blk.config = {BLOCK = 2048 : i64}, blk.const_params = ["BLOCK:i32"], blk.grid = "[{\22param\22: 7}]", blk.grid_source = ["M"], blk.kernel = "layernorm", blk.num_stages = 3 : i32, blk.num_warps = 8 : i32, blk.param_names = ["x", "y", "w", "b", "mean_out", "rstd_out", "row_stride", "M", "N", "eps"], blk.param_types = ["*f16", "*f16", "*f16", "*f16", "*f32", "*f32", "i32", "i32", "i32", "f32"]} {
    %0 = blk.program_id 0
    %1 = arith.muli %0, %arg6 : i32
    %2 = blk.addptr %arg0, %1 : !blk.ptr<f16>, i32
    %3 = arith.muli %0, %arg6 : i32
    %4 = blk.addptr %arg1, %3 : !blk.ptr<f16>, i32
    %cst = arith.constant dense<0.000000e+00> : tensor<2048xf32>
    %c0_i32 = arith.constant 0 : i32
    %c2048_i32 = arith.constant 2048 : i32
    %5 = scf.for %arg10 = %c0_i32 to %arg8 step %c2048_i32 iter_args(%arg11 = %cst) -> (tensor<2048xf32>)  : i32 {
      %17 = blk.splat %arg10 : i32 -> tensor<2048xi32>
      %18 = blk.make_range 0, 2048 : tensor<2048xi32>
      %19 = arith.addi %17, %18 : tensor<2048xi32>
      %20 = blk.splat %2 : !blk.ptr<f16> -> tensor<2048x!blk.ptr<f16>>
      %21 = blk.addptr %20, %19 : tensor<2048x!blk.ptr<f16>>, tensor<2048xi32>
      %22 = blk.splat %arg8 : i32 -> tensor<2048xi32>
      %23 = arith.cmpi slt, %19, %22 : tensor<2048xi32>
      %cst_5 = arith.constant dense<0.000000e+00> : tensor<2048xf16>
      %24 = blk.load %21, %23, %cst_5 : tensor<2048x!blk.ptr<f16>>
      %25 = arith.extf %24 : tensor<2048xf16> to tensor<2048xf32>
      %26 = arith.addf %arg11, %25 : tensor<2048xf32>
      scf.yield %26 : tensor<2048xf32>
    }
    %6 = blk.reduce %5 {axis = 0 : i32} : (tensor<2048xf32>) -> f32 {
    ^bb0(%arg10: f32, %arg11: f32):
      %17 = arith.addf %arg10, %arg11 : f32
      blk.reduce.return %17 : f32
    }
    %7 = arith.sitofp %arg8 : i32 to f32
    %8 = arith.divf %6, %7 : f32
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<2048xf32>
    %c0_i32_1 = arith.constant 0 : i32
    %c2048_i32_2 = arith.constant 2048 : i32
    %9 = scf.for %arg10 = %c0_i32_1 to %arg8 step %c2048_i32_2 iter_args(%arg11 = %cst_0) -> (tensor<2048xf32>)  : i32 {
      %17 = blk.splat %arg10 : i32 -> tensor<2048xi32>
      %18 = blk.make_range 0, 2048 : tensor<2048xi32>
      %19 = arith.addi %17, %18 : tensor<2048xi32>
      %20 = blk.splat %2 : !blk.ptr<f16> -> tensor<2048x!blk.ptr<f16>>
      %21 = blk.addptr %20, %19 : tensor<2048x!blk.ptr<f16>>, tensor<2048xi32>
      %22 = blk.splat %arg8 : i32 -> tensor<2048xi32>
      %23 = arith.cmpi slt, %19, %22 : tensor<2048xi32>
      %cst_5 = arith.constant dense<0.000000e+00> : tensor<2048xf16>
      %24 = blk.load %21, %23, %cst_5 : tensor<2048x!blk.ptr<f16>>
      %25 = arith.extf %24 : tensor<2048xf16> to tensor<2048xf32>
      %26 = blk.splat %arg8 : i32 -> tensor<2048xi32>
      %27 = arith.cmpi slt, %19, %26 : tensor<2048xi32>
      %28 = blk.splat %8 : f32 -> tensor<2048xf32>
      %29 = arith.subf %25, %28 : tensor<2048xf32>
      %cst_6 = arith.constant dense<0.000000e+00> : tensor<2048xf32>
      %30 = arith.select %27, %29, %cst_6 : tensor<2048xi1>, tensor<2048xf32>
      %31 = arith.mulf %30, %30 : tensor<2048xf32>
      %32 = arith.addf %arg11, %31 : tensor<2048xf32>
      scf.yield %32 : tensor<2048xf32>
    }
    %10 = blk.reduce %9 {axis = 0 : i32} : (tensor<2048xf32>) -> f32 {
    ^bb0(%arg10: f32, %arg11: f32):
      %17 = arith.addf %arg10, %arg11 : f32
      blk.reduce.return %17 : f32
    }
    %11 = arith.sitofp %arg8 : i32 to f32
    %12 = arith.divf %10, %11 : f32
    %13 = arith.addf %12, %arg9 : f32
    %14 = math.rsqrt %13 : f32
    %15 = blk.addptr %arg4, %0 : !blk.ptr<f32>, i32
    blk.store %15, %8 : !blk.ptr<f32>
    %16 = blk.addptr %arg5, %0 : !blk.ptr<f32>, i32
    blk.store %16, %14 : !blk.ptr<f32>
    %c0_i32_3 = arith.constant 0 : i32
    %c2048_i32_4 = arith.constant 2048 : i32
    scf.for %arg10 = %c0_i32_3 to %arg8 step %c2048_i32_4  : i32 {
      %17 = blk.splat %arg10 : i32 -> tensor<2048xi32>
      %18 = blk.make_range 0, 2048 : tensor<2048xi32>
      %19 = arith.addi %17, %18 : tensor<2048xi32>
      %20 = blk.splat %arg8 : i32 -> tensor<2048xi32>
      %21 = arith.cmpi slt, %19, %20 : tensor<2048xi32>
      %22 = blk.splat %2 : !blk.ptr<f16> -> tensor<2048x!blk.ptr<f16>>
      %23 = blk.addptr %22, %19 : tensor<2048x!blk.ptr<f16>>, tensor<2048xi32>
      %cst_5 = arith.constant dense<0.000000e+00> : tensor<2048xf16>
      %24 = blk.load %23, %21, %cst_5 : tensor<2048x!blk.ptr<f16>>
      %25 = arith.extf %24 : tensor<2048xf16> to tensor<2048xf32>
      %26 = blk.splat %arg2 : !blk.ptr<f16> -> tensor<2048x!blk.ptr<f16>>
      %27 = blk.addptr %26, %19 : tensor<2048x!blk.ptr<f16>>, tensor<2048xi32>
      %cst_6 = arith.constant dense<0.000000e+00> : tensor<2048xf16>
      %28 = blk.load %27, %21, %cst_6 : tensor<2048x!blk.ptr<f16>>
      %29 = arith.extf %28 : tensor<2048xf16> to tensor<2048xf32>
      %30 = blk.splat %arg3 : !blk.ptr<f16> -> tensor<2048x!blk.ptr<f16>>
      %31 = blk.addptr %30, %19 : tensor<2048x!blk.ptr<f16>>, tensor<2048xi32>
      %cst_7 = arith.constant dense<0.000000e+00> : tensor<2048xf16>
      %32 = blk.load %31, %21, %cst_7 : tensor<2048x!blk.ptr<f16>>
      %33 = arith.extf %32 : tensor<2048xf16> to tensor<2048xf32>
      %34 = blk.splat %8 : f32 -> tensor<2048xf32>
      %35 = arith.subf %25, %34 : tensor<2048xf32>
      %36 = blk.splat %14 : f32 -> tensor<2048xf32>
      %37 = arith.mulf %35, %36 : tensor<2048xf32>
      %38 = arith.mulf %37, %29 : tensor<2048xf32>
      %39 = arith.addf %38, %33 : tensor<2048xf32>
      %40 = blk.splat %4 : !blk.ptr<f16> -> tensor<2048x!blk.ptr<f16>>
      %41 = blk.addptr %40, %19 : tensor<2048x!blk.ptr<f16>>, tensor<2048xi32>
      %42 = arith.truncf %39 : tensor<2048xf32> to tensor<2048xf16>
      blk.store %41, %42, %21 : tensor<2048x!blk.ptr<f16>>
    }
    return
  }
}

