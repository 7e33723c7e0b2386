module attributes {blk.source = "/work/main/samples/matmul.blk", blk.source_hash = "fnv1a64:0f6d591a911f0449"} {
  func.func @matmul__BM_64_BN_64_BK_32__w4(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<f32>, %arg2: !blk.ptr<f32>, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32, %arg10: i32, %arg11: i32) attributes {blk.autotune_key = ["M", "N", "K"], blk.config = {BK = 32 : i64, BM = 64 : i64, BN = 64 : i64}, blk.const_params = ["BM:i32", "BN:i32", "BK:i32"], blk.grid = "[{\22op\22: \22mul\22, \22args\22: [{\22op\22: \22cdiv\22, \22args\22: [{\22param\22: 3}, {\22int\22: 64}]}, {\22op\22: \22cdiv\22, \22args\22: [{\22param\22: 4}, {\22int\22: 64}]}]}]", blk.grid_source = ["cdiv(M, BM) * cdiv(N, BN)"], blk.kernel = "matmul", blk.num_stages = 3 : i32, blk.num_warps = 4 : i32, blk.param_names = ["a", "b", "c", "M", "N", "K", "sam", "sak", "sbk", "sbn", "scm", "scn"], blk.param_types = ["*f32", "*f32", "*f32", "i32", "i32", "i32", "i32", "i32", "i32", "i32", "i32", "i32"]} {
    %0 = blk.program_id 0
    %c64_i32 = arith.constant 64 : i32
    %c1_i32 = arith.constant 1 : i32
    %1 = arith.addi %arg4, %c64_i32 : i32
    %2 = arith.subi %1, %c1_i32 : i32
    %3 = arith.divsi %2, %c64_i32 : i32
    %4 = arith.divsi %0, %3 : i32
    %5 = arith.remsi %0, %3 : i32
    %c64_i32_0 = arith.constant 64 : i32
    %6 = arith.muli %4, %c64_i32_0 : i32
    %7 = blk.splat %6 : i32 -> tensor<64xi32>
    %8 = blk.make_range 0, 64 : tensor<64xi32>
    %9 = arith.addi %7, %8 : tensor<64xi32>
    %c64_i32_1 = arith.constant 64 : i32
    %10 = arith.muli %5, %c64_i32_1 : i32
    %11 = blk.splat %10 : i32 -> tensor<64xi32>
    %12 = blk.make_range 0, 64 : tensor<64xi32>
    %13 = arith.addi %11, %12 : tensor<64xi32>
    %14 = blk.make_range 0, 32 : tensor<32xi32>
    %cst = arith.constant dense<0.000000e+00> : tensor<64x64xf32>
    %c0_i32 = arith.constant 0 : i32
    %c32_i32 = arith.constant 32 : i32
    %c1_i32_2 = arith.constant 1 : i32
    %15 = arith.addi %arg5, %c32_i32 : i32
    %16 = arith.subi %15, %c1_i32_2 : i32
    %17 = arith.divsi %16, %c32_i32 : i32
    %c1_i32_3 = arith.constant 1 : i32
    %18 = scf.for %arg12 = %c0_i32 to %17 step %c1_i32_3 iter_args(%arg13 = %cst) -> (tensor<64x64xf32>)  : i32 {
      %c32_i32_4 = arith.constant 32 : i32
      %39 = arith.muli %arg12, %c32_i32_4 : i32
      %40 = blk.splat %39 : i32 -> tensor<32xi32>
      %41 = arith.addi %40, %14 : tensor<32xi32>
      %42 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>>
      %43 = blk.expand_dims %9 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
      %44 = blk.splat %arg6 : i32 -> tensor<64x1xi32>
      %45 = arith.muli %43, %44 : tensor<64x1xi32>
      %46 = blk.addptr %42, %45 : tensor<64x1x!blk.ptr<f32>>, tensor<64x1xi32>
      %47 = blk.broadcast %46 : tensor<64x1x!blk.ptr<f32>> -> tensor<64x32x!blk.ptr<f32>>
      %48 = blk.expand_dims %41 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
      %49 = blk.splat %arg7 : i32 -> tensor<1x32xi32>
      %50 = arith.muli %48, %49 : tensor<1x32xi32>
      %51 = blk.broadcast %50 : tensor<1x32xi32> -> tensor<64x32xi32>
      %52 = blk.addptr %47, %51 : tensor<64x32x!blk.ptr<f32>>, tensor<64x32xi32>
      %53 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<32x1x!blk.ptr<f32>>
      %54 = blk.expand_dims %41 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
      %55 = blk.splat %arg8 : i32 -> tensor<32x1xi32>
      %56 = arith.muli %54, %55 : tensor<32x1xi32>
      %57 = blk.addptr %53, %56 : tensor<32x1x!blk.ptr<f32>>, tensor<32x1xi32>
      %58 = blk.broadcast %57 : tensor<32x1x!blk.ptr<f32>> -> tensor<32x64x!blk.ptr<f32>>
      %59 = blk.expand_dims %13 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
      %60 = blk.splat %arg9 : i32 -> tensor<1x64xi32>
      %61 = arith.muli %59, %60 : tensor<1x64xi32>
      %62 = blk.broadcast %61 : tensor<1x64xi32> -> tensor<32x64xi32>
      %63 = blk.addptr %58, %62 : tensor<32x64x!blk.ptr<f32>>, tensor<32x64xi32>
      %64 = blk.expand_dims %9 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
      %65 = blk.splat %arg3 : i32 -> tensor<64x1xi32>
      %66 = arith.cmpi slt, %64, %65 : tensor<64x1xi32>
      %67 = blk.broadcast %66 : tensor<64x1xi1> -> tensor<64x32xi1>
      %68 = blk.expand_dims %41 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
      %69 = blk.splat %arg5 : i32 -> tensor<1x32xi32>
      %70 = arith.cmpi slt, %68, %69 : tensor<1x32xi32>
      %71 = blk.broadcast %70 : tensor<1x32xi1> -> tensor<64x32xi1>
      %72 = arith.andi %67, %71 : tensor<64x32xi1>
      %cst_5 = arith.constant dense<0.000000e+00> : tensor<64x32xf32>
      %73 = blk.load %52, %72, %cst_5 : tensor<64x32x!blk.ptr<f32>>
      %74 = blk.expand_dims %41 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
      %75 = blk.splat %arg5 : i32 -> tensor<32x1xi32>
      %76 = arith.cmpi slt, %74, %75 : tensor<32x1xi32>
      %77 = blk.broadcast %76 : tensor<32x1xi1> -> tensor<32x64xi1>
      %78 = blk.expand_dims %13 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
      %79 = blk.splat %arg4 : i32 -> tensor<1x64xi32>
      %80 = arith.cmpi slt, %78, %79 : tensor<1x64xi32>
      %81 = blk.broadcast %80 : tensor<1x64xi1> -> tensor<32x64xi1>
      %82 = arith.andi %77, %81 : tensor<32x64xi1>
      %cst_6 = arith.constant dense<0.000000e+00> : tensor<32x64xf32>
      %83 = blk.load %63, %82, %cst_6 : tensor<32x64x!blk.ptr<f32>>
      %84 = blk.dot %73, %83, %arg13 : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
      scf.yield %84 : tensor<64x64xf32>
    }
    %19 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>>
    %20 = blk.expand_dims %9 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %21 = blk.splat %arg10 : i32 -> tensor<64x1xi32>
    %22 = arith.muli %20, %21 : tensor<64x1xi32>
    %23 = blk.addptr %19, %22 : tensor<64x1x!blk.ptr<f32>>, tensor<64x1xi32>
    %24 = blk.broadcast %23 : tensor<64x1x!blk.ptr<f32>> -> tensor<64x64x!blk.ptr<f32>>
    %25 = blk.expand_dims %13 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %26 = blk.splat %arg11 : i32 -> tensor<1x64xi32>
    %27 = arith.muli %25, %26 : tensor<1x64xi32>
    %28 = blk.broadcast %27 : tensor<1x64xi32> -> tensor<64x64xi32>
    %29 = blk.addptr %24, %28 : tensor<64x64x!blk.ptr<f32>>, tensor<64x64xi32>
    %30 = blk.expand_dims %9 {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
    %31 = blk.splat %arg3 : i32 -> tensor<64x1xi32>
    %32 = arith.cmpi slt, %30, %31 : tensor<64x1xi32>
    %33 = blk.broadcast %32 : tensor<64x1xi1> -> tensor<64x64xi1>
    %34 = blk.expand_dims %13 {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
    %35 = blk.splat %arg4 : i32 -> tensor<1x64xi32>
    %36 = arith.cmpi slt, %34, %35 : tensor<1x64xi32>
    %37 = blk.broadcast %36 : tensor<1x64xi1> -> tensor<64x64xi1>
    %38 = arith.andi %33, %37 : tensor<64x64xi1>
    blk.store %29, %18, %38 : tensor<64x64x!blk.ptr<f32>>
    return
  }
  func.func @matmul__BM_128_BN_128_BK_32__w8(%arg0: !blk.ptr<f32>, %arg1: !blk.ptr<f32>, %arg2: !blk.ptr<f32>, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32, %arg10: i32, %arg11: i32) attributes {blk.autotune_key = ["M", "N", "K"], blk.config = {BK = 32 : i64, BM = 128 : i64, BN = 128 : i64}, blk.const_params = ["BM:i32", "BN:i32", "BK:i32"], blk.grid = "[{\22op\22: \22mul\22, \22args\22: [{\22op\22: \22cdiv\22, \22args\22: [{\22param\22: 3}, {\22int\22: 128}]}, {\22op\22: \22cdiv\22, \22args\22: [{\22param\22: 4}, {\22int\22: 128}]}]}]", blk.grid_source = ["cdiv(M, BM) * cdiv(N, BN)"], blk.kernel = "matmul", blk.num_stages = 3 : i32, blk.num_warps = 8 : i32, blk.param_names = ["a", "b", "c", "M", "N", "K", "sam", "sak", "sbk", "sbn", "scm", "scn"], blk.param_types = ["*f32", "*f32", "*f32", "i32", "i32", "i32", "i32", "i32", "i32", "i32", "i32", "i32"]} {
    %0 = blk.program_id 0
    %c128_i32 = arith.constant 128 : i32
    %c1_i32 = arith.constant 1 : i32
    %1 = arith.addi %arg4, %c128_i32 : i32
    %2 = arith.subi %1, %c1_i32 : i32
    %3 = arith.divsi %2, %c128_i32 : i32
    %4 = arith.divsi %0, %3 : i32
    %5 = arith.remsi %0, %3 : i32
    %c128_i32_0 = arith.constant 128 : i32
    %6 = arith.muli %4, %c128_i32_0 : i32
    %7 = blk.splat %6 : i32 -> tensor<128xi32>
    %8 = blk.make_range 0, 128 : tensor<128xi32>
    %9 = arith.addi %7, %8 : tensor<128xi32>
    %c128_i32_1 = arith.constant 128 : i32
    %10 = arith.muli %5, %c128_i32_1 : i32
    %11 = blk.splat %10 : i32 -> tensor<128xi32>
    %12 = blk.make_range 0, 128 : tensor<128xi32>
    %13 = arith.addi %11, %12 : tensor<128xi32>
    %14 = blk.make_range 0, 32 : tensor<32xi32>
    %cst = arith.constant dense<0.000000e+00> : tensor<128x128xf32>
    %c0_i32 = arith.constant 0 : i32
    %c32_i32 = arith.constant 32 : i32
    %c1_i32_2 = arith.constant 1 : i32
    %15 = arith.addi %arg5, %c32_i32 : i32
    %16 = arith.subi %15, %c1_i32_2 : i32
    %17 = arith.divsi %16, %c32_i32 : i32
    %c1_i32_3 = arith.constant 1 : i32
    %18 = scf.for %arg12 = %c0_i32 to %17 step %c1_i32_3 iter_args(%arg13 = %cst) -> (tensor<128x128xf32>)  : i32 {
      %c32_i32_4 = arith.constant 32 : i32
      %39 = arith.muli %arg12, %c32_i32_4 : i32
      %40 = blk.splat %39 : i32 -> tensor<32xi32>
      %41 = arith.addi %40, %14 : tensor<32xi32>
      %42 = blk.splat %arg0 : !blk.ptr<f32> -> tensor<128x1x!blk.ptr<f32>>
      %43 = blk.expand_dims %9 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
      %44 = blk.splat %arg6 : i32 -> tensor<128x1xi32>
      %45 = arith.muli %43, %44 : tensor<128x1xi32>
      %46 = blk.addptr %42, %45 : tensor<128x1x!blk.ptr<f32>>, tensor<128x1xi32>
      %47 = blk.broadcast %46 : tensor<128x1x!blk.ptr<f32>> -> tensor<128x32x!blk.ptr<f32>>
      %48 = blk.expand_dims %41 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
      %49 = blk.splat %arg7 : i32 -> tensor<1x32xi32>
      %50 = arith.muli %48, %49 : tensor<1x32xi32>
      %51 = blk.broadcast %50 : tensor<1x32xi32> -> tensor<128x32xi32>
      %52 = blk.addptr %47, %51 : tensor<128x32x!blk.ptr<f32>>, tensor<128x32xi32>
      %53 = blk.splat %arg1 : !blk.ptr<f32> -> tensor<32x1x!blk.ptr<f32>>
      %54 = blk.expand_dims %41 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
      %55 = blk.splat %arg8 : i32 -> tensor<32x1xi32>
      %56 = arith.muli %54, %55 : tensor<32x1xi32>
      %57 = blk.addptr %53, %56 : tensor<32x1x!blk.ptr<f32>>, tensor<32x1xi32>
      %58 = blk.broadcast %57 : tensor<32x1x!blk.ptr<f32>> -> tensor<32x128x!blk.ptr<f32>>
      %59 = blk.expand_dims %13 {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
      %60 = blk.splat %arg9 : i32 -> tensor<1x128xi32>
      %61 = arith.muli %59, %60 : tensor<1x128xi32>
      %62 = blk.broadcast %61 : tensor<1x128xi32> -> tensor<32x128xi32>
      %63 = blk.addptr %58, %62 : tensor<32x128x!blk.ptr<f32>>, tensor<32x128xi32>
      %64 = blk.expand_dims %9 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
      %65 = blk.splat %arg3 : i32 -> tensor<128x1xi32>
      %66 = arith.cmpi slt, %64, %65 : tensor<128x1xi32>
      %67 = blk.broadcast %66 : tensor<128x1xi1> -> tensor<128x32xi1>
      %68 = blk.expand_dims %41 {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
      %69 = blk.splat %arg5 : i32 -> tensor<1x32xi32>
      %70 = arith.cmpi slt, %68, %69 : tensor<1x32xi32>
      %71 = blk.broadcast %70 : tensor<1x32xi1> -> tensor<128x32xi1>
      %72 = arith.andi %67, %71 : tensor<128x32xi1>
      %cst_5 = arith.constant dense<0.000000e+00> : tensor<128x32xf32>
      %73 = blk.load %52, %72, %cst_5 : tensor<128x32x!blk.ptr<f32>>
      %74 = blk.expand_dims %41 {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
      %75 = blk.splat %arg5 : i32 -> tensor<32x1xi32>
      %76 = arith.cmpi slt, %74, %75 : tensor<32x1xi32>
      %77 = blk.broadcast %76 : tensor<32x1xi1> -> tensor<32x128xi1>
      %78 = blk.expand_dims %13 {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
      %79 = blk.splat %arg4 : i32 -> tensor<1x128xi32>
      %80 = arith.cmpi slt, %78, %79 : tensor<1x128xi32>
      %81 = blk.broadcast %80 : tensor<1x128xi1> -> tensor<32x128xi1>
      %82 = arith.andi %77, %81 : tensor<32x128xi1>
      %cst_6 = arith.constant dense<0.000000e+00> : tensor<32x128xf32>
      %83 = blk.load %63, %82, %cst_6 : tensor<32x128x!blk.ptr<f32>>
      %84 = blk.dot %73, %83, %arg13 : tensor<128x32xf32> * tensor<32x128xf32> -> tensor<128x128xf32>
      scf.yield %84 : tensor<128x128xf32>
    }
    %19 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<128x1x!blk.ptr<f32>>
    %20 = blk.expand_dims %9 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %21 = blk.splat %arg10 : i32 -> tensor<128x1xi32>
    %22 = arith.muli %20, %21 : tensor<128x1xi32>
    %23 = blk.addptr %19, %22 : tensor<128x1x!blk.ptr<f32>>, tensor<128x1xi32>
    %24 = blk.broadcast %23 : tensor<128x1x!blk.ptr<f32>> -> tensor<128x128x!blk.ptr<f32>>
    %25 = blk.expand_dims %13 {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %26 = blk.splat %arg11 : i32 -> tensor<1x128xi32>
    %27 = arith.muli %25, %26 : tensor<1x128xi32>
    %28 = blk.broadcast %27 : tensor<1x128xi32> -> tensor<128x128xi32>
    %29 = blk.addptr %24, %28 : tensor<128x128x!blk.ptr<f32>>, tensor<128x128xi32>
    %30 = blk.expand_dims %9 {axis = 1 : i32} : tensor<128xi32> -> tensor<128x1xi32>
    %31 = blk.splat %arg3 : i32 -> tensor<128x1xi32>
    %32 = arith.cmpi slt, %30, %31 : tensor<128x1xi32>
    %33 = blk.broadcast %32 : tensor<128x1xi1> -> tensor<128x128xi1>
    %34 = blk.expand_dims %13 {axis = 0 : i32} : tensor<128xi32> -> tensor<1x128xi32>
    %35 = blk.splat %arg4 : i32 -> tensor<1x128xi32>
    %36 = arith.cmpi slt, %34, %35 : tensor<1x128xi32>
    %37 = blk.broadcast %36 : tensor<1x128xi1> -> tensor<128x128xi1>
    %38 = arith.andi %33, %37 : tensor<128x128xi1>
    blk.store %29, %18, %38 : tensor<128x128x!blk.ptr<f32>>
    return
  }
}

