module attributes {blk.source = "/work/main/samples/layernorm.blk", blk.source_hash = "fnv1a64:31693f3992621618"} {
  func.func @layernorm__BLOCK_1024__w4(%arg0: !blk.ptr<f16> {blk.aligned = 16 : i32}, %arg1: !blk.ptr<f16> {blk.aligned = 16 : i32}, %arg2: !blk.ptr<f16>, %arg3: !blk.ptr<f16>, %arg4: !blk.ptr<f32>, %arg5: !blk.ptr<f32>, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: f32) attributes {blk.autotune_key = ["N"], blk.config = {BLOCK = 1024 : i64}, blk.const_params = ["BLOCK:i32"], blk.grid = "[{\22param\22: 7}]", blk.grid_source = ["M"], blk.kernel = "layernorm", blk.num_stages = 3 : i32, blk.num_warps = 4 : i32, blk.param_names = ["x", "y", "w", "b", "mean_out", "rstd_out", "row_stride", "M", "N", "eps"], blk.param_types = ["*f16", "*f16", "*f16", "*f16", "*f32", "*f32", "i32", "i32", "i32", "f32"]} {
    %cst = arith.constant dense<0.000000e+00> : tensor<1024xf32>
    %c0_i32 = arith.constant 0 : i32
    %c1024_i32 = arith.constant 1024 : i32
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<1024xf16>
    %0 = blk.program_id 0
    %1 = arith.muli %0, %arg6 : i32
    %2 = blk.addptr %arg0, %1 : !blk.ptr<f16>, i32
    %3 = blk.addptr %arg1, %1 : !blk.ptr<f16>, i32
    %4 = blk.make_range 0, 1024 : tensor<1024xi32>
    %5 = blk.splat %2 : !blk.ptr<f16> -> tensor<1024x!blk.ptr<f16>>
    %6 = blk.splat %arg8 : i32 -> tensor<1024xi32>
    %7 = scf.for %arg10 = %c0_i32 to %arg8 step %c1024_i32 iter_args(%arg11 = %cst) -> (tensor<1024xf32>)  : i32 {
      %23 = blk.splat %arg10 : i32 -> tensor<1024xi32>
      %24 = arith.addi %23, %4 : tensor<1024xi32>
      %25 = blk.addptr %5, %24 : tensor<1024x!blk.ptr<f16>>, tensor<1024xi32>
      %26 = arith.cmpi slt, %24, %6 : tensor<1024xi32>
      %27 = blk.load %25, %26, %cst_0 : tensor<1024x!blk.ptr<f16>>
      %28 = arith.extf %27 : tensor<1024xf16> to tensor<1024xf32>
      %29 = arith.addf %arg11, %28 : tensor<1024xf32>
      scf.yield %29 : tensor<1024xf32>
    }
    %8 = blk.reduce %7 {axis = 0 : i32} : (tensor<1024xf32>) -> f32 {
    ^bb0(%arg10: f32, %arg11: f32):
      %23 = arith.addf %arg10, %arg11 : f32
      blk.reduce.return %23 : f32
    }
    %9 = arith.sitofp %arg8 : i32 to f32
    %10 = arith.divf %8, %9 : f32
    %11 = blk.splat %10 : f32 -> tensor<1024xf32>
    %12 = scf.for %arg10 = %c0_i32 to %arg8 step %c1024_i32 iter_args(%arg11 = %cst) -> (tensor<1024xf32>)  : i32 {
      %23 = blk.splat %arg10 : i32 -> tensor<1024xi32>
      %24 = arith.addi %23, %4 : tensor<1024xi32>
      %25 = blk.addptr %5, %24 : tensor<1024x!blk.ptr<f16>>, tensor<1024xi32>
      %26 = arith.cmpi slt, %24, %6 : tensor<1024xi32>
      %27 = blk.load %25, %26, %cst_0 : tensor<1024x!blk.ptr<f16>>
      %28 = arith.extf %27 : tensor<1024xf16> to tensor<1024xf32>
      %29 = arith.subf %28, %11 : tensor<1024xf32>
      %30 = arith.select %26, %29, %cst : tensor<1024xi1>, tensor<1024xf32>
      %31 = arith.mulf %30, %30 : tensor<1024xf32>
      %32 = arith.addf %arg11, %31 : tensor<1024xf32>
      scf.yield %32 : tensor<1024xf32>
    }
    %13 = blk.reduce %12 {axis = 0 : i32} : (tensor<1024xf32>) -> f32 {
    ^bb0(%arg10: f32, %arg11: f32):
      %23 = arith.addf %arg10, %arg11 : f32
      blk.reduce.return %23 : f32
    }
    %14 = arith.divf %13, %9 : f32
    %15 = arith.addf %14, %arg9 : f32
    %16 = math.rsqrt %15 : f32
    %17 = blk.addptr %arg4, %0 : !blk.ptr<f32>, i32
    blk.store %17, %10 : !blk.ptr<f32>
    %18 = blk.addptr %arg5, %0 : !blk.ptr<f32>, i32
    blk.store %18, %16 : !blk.ptr<f32>
    %19 = blk.splat %arg2 : !blk.ptr<f16> -> tensor<1024x!blk.ptr<f16>>
    %20 = blk.splat %arg3 : !blk.ptr<f16> -> tensor<1024x!blk.ptr<f16>>
    %21 = blk.splat %16 : f32 -> tensor<1024xf32>
    %22 = blk.splat %3 : !blk.ptr<f16> -> tensor<1024x!blk.ptr<f16>>
    scf.for %arg10 = %c0_i32 to %arg8 step %c1024_i32  : i32 {
      %23 = blk.splat %arg10 : i32 -> tensor<1024xi32>
      %24 = arith.addi %23, %4 : tensor<1024xi32>
      %25 = arith.cmpi slt, %24, %6 : tensor<1024xi32>
      %26 = blk.addptr %5, %24 : tensor<1024x!blk.ptr<f16>>, tensor<1024xi32>
      %27 = blk.load %26, %25, %cst_0 : tensor<1024x!blk.ptr<f16>>
      %28 = arith.extf %27 : tensor<1024xf16> to tensor<1024xf32>
      %29 = blk.addptr %19, %24 : tensor<1024x!blk.ptr<f16>>, tensor<1024xi32>
      %30 = blk.load %29, %25, %cst_0 : tensor<1024x!blk.ptr<f16>>
      %31 = arith.extf %30 : tensor<1024xf16> to tensor<1024xf32>
      %32 = blk.addptr %20, %24 : tensor<1024x!blk.ptr<f16>>, tensor<1024xi32>
      %33 = blk.load %32, %25, %cst_0 : tensor<1024x!blk.ptr<f16>>
      %34 = arith.extf %33 : tensor<1024xf16> to tensor<1024xf32>
      %35 = arith.subf %28, %11 : tensor<1024xf32>
      %36 = arith.mulf %35, %21 : tensor<1024xf32>
      %37 = arith.mulf %36, %31 : tensor<1024xf32>
      %38 = arith.addf %37, %34 : tensor<1024xf32>
      %39 = blk.addptr %22, %24 : tensor<1024x!blk.ptr<f16>>, tensor<1024xi32>
      %40 = arith.truncf %38 : tensor<1024xf32> to tensor<1024xf16>
      blk.store %39, %40, %25 : tensor<1024x!blk.ptr<f16>>
    }
    return
  }
  func.func @layernorm__BLOCK_2048__w8(%arg0: !blk.ptr<f16> {blk.aligned = 16 : i32}, %arg1: !blk.ptr<f16> {blk.aligned = 16 : i32}, %arg2: !blk.ptr<f16>, %arg3: !blk.ptr<f16>, %arg4: !blk.ptr<f32>, %arg5: !blk.ptr<f32>, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: f32) attributes {blk.autotune_key = ["N"], blk.config = {BLOCK = 2048 : i64}, blk.const_params = ["BLOCK:i32"], blk.grid = "[{\22param\22: 7}]", blk.grid_source = ["M"], blk.kernel = "layernorm", blk.num_stages = 3 : i32, blk.num_warps = 8 : i32, blk.param_names = ["x", "y", "w", "b", "mean_out", "rstd_out", "row_stride", "M", "N", "eps"], blk.param_types = ["*f16", "*f16", "*f16", "*f16", "*f32", "*f32", "i32", "i32", "i32", "f32"]} {
    %cst = arith.constant dense<0.000000e+00> : tensor<2048xf32>
    %c0_i32 = arith.constant 0 : i32
    %c2048_i32 = arith.constant 2048 : i32
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<2048xf16>
    %0 = blk.program_id 0
    %1 = arith.muli %0, %arg6 : i32
    %2 = blk.addptr %arg0, %1 : !blk.ptr<f16>, i32
    %3 = blk.addptr %arg1, %1 : !blk.ptr<f16>, i32
    %4 = blk.make_range 0, 2048 : tensor<2048xi32>
    %5 = blk.splat %2 : !blk.ptr<f16> -> tensor<2048x!blk.ptr<f16>>
    %6 = blk.splat %arg8 : i32 -> tensor<2048xi32>
    %7 = scf.for %arg10 = %c0_i32 to %arg8 step %c2048_i32 iter_args(%arg11 = %cst) -> (tensor<2048xf32>)  : i32 {
      %23 = blk.splat %arg10 : i32 -> tensor<2048xi32>
      %24 = arith.addi %23, %4 : tensor<2048xi32>
      %25 = blk.addptr %5, %24 : tensor<2048x!blk.ptr<f16>>, tensor<2048xi32>
      %26 = arith.cmpi slt, %24, %6 : tensor<2048xi32>
      %27 = blk.load %25, %26, %cst_0 : tensor<2048x!blk.ptr<f16>>
      %28 = arith.extf %27 : tensor<2048xf16> to tensor<2048xf32>
      %29 = arith.addf %arg11, %28 : tensor<2048xf32>
      scf.yield %29 : tensor<2048xf32>
    }
    %8 = blk.reduce %7 {axis = 0 : i32} : (tensor<2048xf32>) -> f32 {
    ^bb0(%arg10: f32, %arg11: f32):
      %23 = arith.addf %arg10, %arg11 : f32
      blk.reduce.return %23 : f32
    }
    %9 = arith.sitofp %arg8 : i32 to f32
    %10 = arith.divf %8, %9 : f32
    %11 = blk.splat %10 : f32 -> tensor<2048xf32>
    %12 = scf.for %arg10 = %c0_i32 to %arg8 step %c2048_i32 iter_args(%arg11 = %cst) -> (tensor<2048xf32>)  : i32 {
      %23 = blk.splat %arg10 : i32 -> tensor<2048xi32>
      %24 = arith.addi %23, %4 : tensor<2048xi32>
      %25 = blk.addptr %5, %24 : tensor<2048x!blk.ptr<f16>>, tensor<2048xi32>
      %26 = arith.cmpi slt, %24, %6 : tensor<2048xi32>
      %27 = blk.load %25, %26, %cst_0 : tensor<2048x!blk.ptr<f16>>
      %28 = arith.extf %27 : tensor<2048xf16> to tensor<2048xf32>
      %29 = arith.subf %28, %11 : tensor<2048xf32>
      %30 = arith.select %26, %29, %cst : tensor<2048xi1>, tensor<2048xf32>
      %31 = arith.mulf %30, %30 : tensor<2048xf32>
      %32 = arith.addf %arg11, %31 : tensor<2048xf32>
      scf.yield %32 : tensor<2048xf32>
    }
    %13 = blk.reduce %12 {axis = 0 : i32} : (tensor<2048xf32>) -> f32 {
    ^bb0(%arg10: f32, %arg11: f32):
      %23 = arith.addf %arg10, %arg11 : f32
      blk.reduce.return %23 : f32
    }
    %14 = arith.divf %13, %9 : f32
    %15 = arith.addf %14, %arg9 : f32
    %16 = math.rsqrt %15 : f32
    %17 = blk.addptr %arg4, %0 : !blk.ptr<f32>, i32
    blk.store %17, %10 : !blk.ptr<f32>
    %18 = blk.addptr %arg5, %0 : !blk.ptr<f32>, i32
    blk.store %18, %16 : !blk.ptr<f32>
    %19 = blk.splat %arg2 : !blk.ptr<f16> -> tensor<2048x!blk.ptr<f16>>
    %20 = blk.splat %arg3 : !blk.ptr<f16> -> tensor<2048x!blk.ptr<f16>>
    %21 = blk.splat %16 : f32 -> tensor<2048xf32>
    %22 = blk.splat %3 : !blk.ptr<f16> -> tensor<2048x!blk.ptr<f16>>
    scf.for %arg10 = %c0_i32 to %arg8 step %c2048_i32  : i32 {
      %23 = blk.splat %arg10 : i32 -> tensor<2048xi32>
      %24 = arith.addi %23, %4 : tensor<2048xi32>
      %25 = arith.cmpi slt, %24, %6 : tensor<2048xi32>
      %26 = blk.addptr %5, %24 : tensor<2048x!blk.ptr<f16>>, tensor<2048xi32>
      %27 = blk.load %26, %25, %cst_0 : tensor<2048x!blk.ptr<f16>>
      %28 = arith.extf %27 : tensor<2048xf16> to tensor<2048xf32>
      %29 = blk.addptr %19, %24 : tensor<2048x!blk.ptr<f16>>, tensor<2048xi32>
      %30 = blk.load %29, %25, %cst_0 : tensor<2048x!blk.ptr<f16>>
      %31 = arith.extf %30 : tensor<2048xf16> to tensor<2048xf32>
      %32 = blk.addptr %20, %24 : tensor<2048x!blk.ptr<f16>>, tensor<2048xi32>
      %33 = blk.load %32, %25, %cst_0 : tensor<2048x!blk.ptr<f16>>
      %34 = arith.extf %33 : tensor<2048xf16> to tensor<2048xf32>
      %35 = arith.subf %28, %11 : tensor<2048xf32>
      %36 = arith.mulf %35, %21 : tensor<2048xf32>
      %37 = arith.mulf %36, %31 : tensor<2048xf32>
      %38 = arith.addf %37, %34 : tensor<2048xf32>
      %39 = blk.addptr %22, %24 : tensor<2048x!blk.ptr<f16>>, tensor<2048xi32>
      %40 = arith.truncf %38 : tensor<2048xf32> to tensor<2048xf16>
      blk.store %39, %40, %25 : tensor<2048x!blk.ptr<f16>>
    }
    return
  }
}

