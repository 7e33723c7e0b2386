module attributes {blk.source = "/work/main/samples/matmul.blk", blk.source_hash = "fnv1a64:0f6d591a911f0449"} {
  func.func @matmul__BM_64_BN_64_BK_32__w4(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<f32>, %arg2: !blk.ptr<f32>, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32, %arg10: i32, %arg11: i32) attributes {blk.autotune_key = ["M", "N", "K"], blk.config = {BK = 32 : i64, BM = 64 : i64, BN = 64 : i64}, blk.const_params = ["BM:i32", "BN:i32", "BK:i32"], blk.grid = "[{\22op\22: \22mul\22, \22args\22: [{\22op\22: \22cdiv\22, \22args\22: [{\22param\22: 3}, {\22int\22: 64}]}, {\22op\22: \22cdiv\22, \22args\22: [{\22param\22: 4}, {\22int\22: 64}]}]}]", blk.grid_source = ["cdiv(M, BM) * cdiv(N, BN)"], blk.kernel = "matmul", blk.num_stages = 3 : i32, blk.num_warps = 4 : i32, blk.param_names = ["a", "b", "c", "M", "N", "K", "sam", "sak", "sbk", "sbn", "scm", "scn"], blk.param_types = ["*f32", "*f32", "*f32", "i32", "i32", "i32", "i32", "i32", "i32", "i32", "i32", "i32"]} {
    %c64_i32 = arith.constant 64 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %c0_i32 = arith.constant 0 : i32
    %c32_i32 = arith.constant 32 : i32
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<64x32xf32>
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<32x64xf32>
    %c63_i32 = arith.constant 63 : i32
    %c31_i32 = arith.constant 31 : i32
    %0 = blk.program_id 0
    %1 = arith.addi %arg4, %c63_i32 : i32
    %2 = arith.divsi %1, %c64_i32 : i32
    %3 = arith.divsi %0, %2 : i32
    %4 = arith.remsi %0, %2 : i32
    %5 = arith.muli %3, %c64_i32 : i32
    %6 = blk.splat %5 : i32 -> tensor<64xi32>
    %7 = blk.make_range 0, 64 : tensor<64xi32>
    %8 = arith.addi %6, %7 : tensor<64xi32>
    %9 = arith.muli %4, %c64_i32 : i32
    %10 = blk.splat %9 : i32 -> tensor<64xi32>
    %11 = arith.addi %10, %7 : tensor<64xi32>
    %12 = blk.make_range 0, 32 : tensor<32xi32>
    %13 = arith.addi %arg5, %c31_i32 : i32
    %14 = arith.divsi %13, %c32_i32 : i32
    %15 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>>
    %16 = blk.expand_dims %8 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %17 = blk.splat %arg6 : i32 -> tensor<64x1xi32>
    %18 = arith.muli %16, %17 : tensor<64x1xi32>
    %19 = blk.addptr %15, %18 : tensor<64x1x!blk.ptr<f32>>, tensor<64x1xi32>
    %20 = blk.broadcast %19 : tensor<64x1x!blk.ptr<f32>> -> tensor<64x32x!blk.ptr<f32>>
    %21 = blk.splat %arg7 : i32 -> tensor<1x32xi32>
    %22 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<32x1x!blk.ptr<f32>>
    %23 = blk.splat %arg8 : i32 -> tensor<32x1xi32>
    %24 = blk.expand_dims %11 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %25 = blk.splat %arg9 : i32 -> tensor<1x64xi32>
    %26 = arith.muli %24, %25 : tensor<1x64xi32>
    %27 = blk.broadcast %26 : tensor<1x64xi32> -> tensor<32x64xi32>
    %28 = blk.splat %arg3 : i32 -> tensor<64x1xi32>
    %29 = arith.cmpi slt, %16, %28 : tensor<64x1xi32>
    %30 = blk.broadcast %29 : tensor<64x1xi1> -> tensor<64x32xi1>
    %31 = blk.splat %arg5 : i32 -> tensor<1x32xi32>
    %32 = blk.splat %arg5 : i32 -> tensor<32x1xi32>
    %33 = blk.splat %arg4 : i32 -> tensor<1x64xi32>
    %34 = arith.cmpi slt, %24, %33 : tensor<1x64xi32>
    %35 = blk.broadcast %34 : tensor<1x64xi1> -> tensor<32x64xi1>
    %36 = scf.for %arg12 = %c0_i32 to %14 step %c1_i32 iter_args(%arg13 = %cst) -> (tensor<64x64xf32>)  : i32 {
      %49 = arith.muli %arg12, %c32_i32 : i32
      %50 = blk.splat %49 : i32 -> tensor<32xi32>
      %51 = arith.addi %50, %12 : tensor<32xi32>
      %52 = blk.expand_dims %51 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
      %53 = arith.muli %52, %21 : tensor<1x32xi32>
      %54 = blk.broadcast %53 : tensor<1x32xi32> -> tensor<64x32xi32>
      %55 = blk.addptr %20, %54 : tensor<64x32x!blk.ptr<f32>>, tensor<64x32xi32>
      %56 = blk.expand_dims %51 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
      %57 = arith.muli %56, %23 : tensor<32x1xi32>
      %58 = blk.addptr %22, %57 : tensor<32x1x!blk.ptr<f32>>, tensor<32x1xi32>
      %59 = blk.broadcast %58 : tensor<32x1x!blk.ptr<f32>> -> tensor<32x64x!blk.ptr<f32>>
      %60 = blk.addptr %59, %27 : tensor<32x64x!blk.ptr<f32>>, tensor<32x64xi32>
      %61 = arith.cmpi slt, %52, %31 : tensor<1x32xi32>
      %62 = blk.broadcast %61 : tensor<1x32xi1> -> tensor<64x32xi1>
      %63 = arith.andi %30, %62 : tensor<64x32xi1>
      %64 = blk.load %55, %63, %cst_0 : tensor<64x32x!blk.ptr<f32>>
      %65 = arith.cmpi slt, %56, %32 : tensor<32x1xi32>
      %66 = blk.broadcast %65 : tensor<32x1xi1> -> tensor<32x64xi1>
      %67 = arith.andi %66, %35 : tensor<32x64xi1>
      %68 = blk.load %60, %67, %cst_1 : tensor<32x64x!blk.ptr<f32>>
      %69 = blk.dot %64, %68, %arg13 : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
      scf.yield %69 : tensor<64x64xf32>
    }
    %37 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>>
    %38 = blk.splat %arg10 : i32 -> tensor<64x1xi32>
    %39 = arith.muli %16, %38 : tensor<64x1xi32>
    %40 = blk.addptr %37, %39 : tensor<64x1x!blk.ptr<f32>>, tensor<64x1xi32>
    %41 = blk.broadcast %40 : tensor<64x1x!blk.ptr<f32>> -> tensor<64x64x!blk.ptr<f32>>
    %42 = blk.splat %arg11 : i32 -> tensor<1x64xi32>
    %43 = arith.muli %24, %42 : tensor<1x64xi32>
    %44 = blk.broadcast %43 : tensor<1x64xi32> -> tensor<64x64xi32>
    %45 = blk.addptr %41, %44 : tensor<64x64x!blk.ptr<f32>>, tensor<64x64xi32>
    %46 = blk.broadcast %29 : tensor<64x1xi1> -> tensor<64x64xi1>
    %47 = blk.broadcast %34 : tensor<1x64xi1> -> tensor<64x64xi1>
    %48 = arith.andi %46, %47 : tensor<64x64xi1>
    blk.store %45, %36, %48 : tensor<64x64x!blk.ptr<f32>>
    return
  }
  func.func @matmul__BM_128_BN_128_BK_32__w8(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<f32>, %arg2: !blk.ptr<f32>, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32, %arg10: i32, %arg11: i32) attributes {blk.autotune_key = ["M", "N", "K"], blk.config = {BK = 32 : i64, BM = 128 : i64, BN = 128 : i64}, blk.const_params = ["BM:i32", "BN:i32", "BK:i32"], blk.grid = "[{\22op\22: \22mul\22, \22args\22: [{\22op\22: \22cdiv\22, \22args\22: [{\22param\22: 3}, {\22int\22: 128}]}, {\22op\22: \22cdiv\22, \22args\22: [{\22param\22: 4}, {\22int\22: 128}]}]}]", blk.grid_source = ["cdiv(M, BM) * cdiv(N, BN)"], blk.kernel = "matmul", blk.num_stages = 3 : i32, blk.num_warps = 8 : i32, blk.param_names = ["a", "b", "c", "M", "N", "K", "sam", "sak", "sbk", "sbn", "scm", "scn"], blk.param_types = ["*f32", "*f32", "*f32", "i32", "i32", "i32", "i32", "i32", "i32", "i32", "i32", "i32"]} {
    %c128_i32 = arith.constant 128 : i32
    %c1_i32 = arith.constant 1 : i32
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %c0_i32 = arith.constant 0 : i32
    %c32_i32 = arith.constant 32 : i32
    %cst_0 = arith.constant dense<0.000000e+00> : tensor<128x32xf32>
    %cst_1 = arith.constant dense<0.000000e+00> : tensor<32x128xf32>
    %c127_i32 = arith.constant 127 : i32
    %c31_i32 = arith.constant 31 : i32
    %0 = blk.program_id 0
    %1 = arith.addi %arg4, %c127_i32 : i32
    %2 = arith.divsi %1, %c128_i32 : i32
    %3 = arith.divsi %0, %2 : i32
    %4 = arith.remsi %0, %2 : i32
    %5 = arith.muli %3, %c128_i32 : i32
    %6 = blk.splat %5 : i32 -> tensor<128xi32>
    %7 = blk.make_range 0, 128 : tensor<128xi32>
    %8 = arith.addi %6, %7 : tensor<128xi32>
    %9 = arith.muli %4, %c128_i32 : i32
    %10 = blk.splat %9 : i32 -> tensor<128xi32>
    %11 = arith.addi %10, %7 : tensor<128xi32>
    %12 = blk.make_range 0, 32 : tensor<32xi32>
    %13 = arith.addi %arg5, %c31_i32 : i32
    %14 = arith.divsi %13, %c32_i32 : i32
    %15 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<128x1x!blk.ptr<f32>>
    %16 = blk.expand_dims %8 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %17 = blk.splat %arg6 : i32 -> tensor<128x1xi32>
    %18 = arith.muli %16, %17 : tensor<128x1xi32>
    %19 = blk.addptr %15, %18 : tensor<128x1x!blk.ptr<f32>>, tensor<128x1xi32>
    %20 = blk.broadcast %19 : tensor<128x1x!blk.ptr<f32>> -> tensor<128x32x!blk.ptr<f32>>
    %21 = blk.splat %arg7 : i32 -> tensor<1x32xi32>
    %22 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<32x1x!blk.ptr<f32>>
    %23 = blk.splat %arg8 : i32 -> tensor<32x1xi32>
    %24 = blk.expand_dims %11 {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %25 = blk.splat %arg9 : i32 -> tensor<1x128xi32>
    %26 = arith.muli %24, %25 : tensor<1x128xi32>
    %27 = blk.broadcast %26 : tensor<1x128xi32> -> tensor<32x128xi32>
    %28 = blk.splat %arg3 : i32 -> tensor<128x1xi32>
    %29 = arith.cmpi slt, %16, %28 : tensor<128x1xi32>
    %30 = blk.broadcast %29 : tensor<128x1xi1> -> tensor<128x32xi1>
    %31 = blk.splat %arg5 : i32 -> tensor<1x32xi32>
    %32 = blk.splat %arg5 : i32 -> tensor<32x1xi32>
    %33 = blk.splat %arg4 : i32 -> tensor<1x128xi32>
    %34 = arith.cmpi slt, %24, %33 : tensor<1x128xi32>
    %35 = blk.broadcast %34 : tensor<1x128xi1> -> tensor<32x128xi1>
    %36 = scf.for %arg12 = %c0_i32 to %14 step %c1_i32 iter_args(%arg13 = %cst) -> (tensor<128x128xf32>)  : i32 {
      %49 = arith.muli %arg12, %c32_i32 : i32
      %50 = blk.splat %49 : i32 -> tensor<32xi32>
      %51 = arith.addi %50, %12 : tensor<32xi32>
      %52 = blk.expand_dims %51 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
      %53 = arith.muli %52, %21 : tensor<1x32xi32>
      %54 = blk.broadcast %53 : tensor<1x32xi32> -> tensor<128x32xi32>
      %55 = blk.addptr %20, %54 : tensor<128x32x!blk.ptr<f32>>, tensor<128x32xi32>
      %56 = blk.expand_dims %51 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
      %57 = arith.muli %56, %23 : tensor<32x1xi32>
      %58 = blk.addptr %22, %57 : tensor<32x1x!blk.ptr<f32>>, tensor<32x1xi32>
      %59 = blk.broadcast %58 : tensor<32x1x!blk.ptr<f32>> -> tensor<32x128x!blk.ptr<f32>>
      %60 = blk.addptr %59, %27 : tensor<32x128x!blk.ptr<f32>>, tensor<32x128xi32>
      %61 = arith.cmpi slt, %52, %31 : tensor<1x32xi32>
      %62 = blk.broadcast %61 : tensor<1x32xi1> -> tensor<128x32xi1>
      %63 = arith.andi %30, %62 : tensor<128x32xi1>
      %64 = blk.load %55, %63, %cst_0 : tensor<128x32x!blk.ptr<f32>>
      %65 = arith.cmpi slt, %56, %32 : tensor<32x1xi32>
      %66 = blk.broadcast %65 : tensor<32x1xi1> -> tensor<32x128xi1>
      %67 = arith.andi %66, %35 : tensor<32x128xi1>
      %68 = blk.load %60, %67, %cst_1 : tensor<32x128x!blk.ptr<f32>>
      %69 = blk.dot %64, %68, %arg13 : tensor<128x32xf32> * tensor<32x128xf32> -> tensor<128x128xf32>
      scf.yield %69 : tensor<128x128xf32>
    }
    %37 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<128x1x!blk.ptr<f32>>
    %38 = blk.splat %arg10 : i32 -> tensor<128x1xi32>
    %39 = arith.muli %16, %38 : tensor<128x1xi32>
    %40 = blk.addptr %37, %39 : tensor<128x1x!blk.ptr<f32>>, tensor<128x1xi32>
    %41 = blk.broadcast %40 : tensor<128x1x!blk.ptr<f32>> -> tensor<128x128x!blk.ptr<f32>>
    %42 = blk.splat %arg11 : i32 -> tensor<1x128xi32>
    %43 = arith.muli %24, %42 : tensor<1x128xi32>
    %44 = blk.broadcast %43 : tensor<1x128xi32> -> tensor<128x128xi32>
    %45 = blk.addptr %41, %44 : tensor<128x128x!blk.ptr<f32>>, tensor<128x128xi32>
    %46 = blk.broadcast %29 : tensor<128x1xi1> -> tensor<128x128xi1>
    %47 = blk.broadcast %34 : tensor<1x128xi1> -> tensor<128x128xi1>
    %48 = arith.andi %46, %47 : tensor<128x128xi1>
    blk.store %45, %36, %48 : tensor<128x128x!blk.ptr<f32>>
    return
  }
}

