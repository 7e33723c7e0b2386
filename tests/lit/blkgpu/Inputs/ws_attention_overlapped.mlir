// Input of tests/lit/blkgpu/warp-specialize.mlir (OVERLAP): attention's
// forward in the hand-overlapped form (tests/lit/codegen/Inputs/
// ws_attention_overlapped.blk: BM = 128, BN = 128, D = 64, 8 warps, 2
// stages, `warp_specialize = true`) after blkgpu-wgmma-register-a: each
// iteration issues this block's Q·Kᵀ, then the block before's P·V (V at
// max(start_n - 128, 0)), whose result the rescale reads in the same
// iteration, after this block's softmax.

#blocked = #blkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked1 = #blkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
#blocked2 = #blkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked3 = #blkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 4], order = [1, 0]}>
#blocked4 = #blkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 2], order = [1, 0]}>
#blocked5 = #blkgpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 8], order = [0, 1]}>
#mma = #blkgpu.mma<{version = 3, warpsPerCTA = [8, 1], instrN = 64}>
#mma1 = #blkgpu.mma<{version = 3, warpsPerCTA = [8, 1], instrN = 128}>
#shared = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#shared1 = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], pad = 0, block = 64}>
#slice = #blkgpu.slice<{dim = 1, parent = #blocked}>
#slice1 = #blkgpu.slice<{dim = 0, parent = #blocked4}>
#slice2 = #blkgpu.slice<{dim = 1, parent = #mma1}>
#slice3 = #blkgpu.slice<{dim = 1, parent = #mma}>

func.func @ws_attention_overlapped(%arg0: !blk.ptr<f16> {blk.aligned = 16 : i32}, %arg1: !blk.ptr<f16> {blk.aligned = 16 : i32}, %arg2: !blk.ptr<f16> {blk.aligned = 16 : i32}, %arg3: !blk.ptr<f16> {blk.aligned = 16 : i32}, %arg4: f32, %arg5: i32, %arg6: i32 {blk.multiple_of = 128 : i32}) attributes {blk.autotune_key = [], blk.config = {BM = 128 : i64, BN = 128 : i64, HEAD_DIM = 64 : i64}, blk.const_params = ["BM:i32", "BN:i32", "HEAD_DIM:i32"], blk.grid = "[{\22op\22: \22div\22, \22args\22: [{\22param\22: 6}, {\22int\22: 128}]}, {\22param\22: 5}]", blk.grid_source = ["N / BM", "ZH"], blk.kernel = "attn", blk.num_stages = 2 : i32, blk.num_warps = 8 : i32, blk.param_names = ["q", "k", "v", "o", "sm_scale", "ZH", "N"], blk.param_types = ["*f16", "*f16", "*f16", "*f16", "f32", "i32", "i32"], blk.warp_specialize, blkgpu.num_warps = 8 : i32} {
  %c64_i32 = arith.constant 64 : i32
  %c128_i32 = arith.constant 128 : i32
  %cst = arith.constant dense<64> : tensor<128x1xi32, #blocked>
  %cst_0 = arith.constant 1.44269502 : f32
  %cst_1 = arith.constant dense<0xFF800000> : tensor<128xf32, #blocked1>
  %cst_2 = arith.constant dense<0.000000e+00> : tensor<128xf32, #blocked1>
  %cst_3 = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #blocked2>
  %cst_4 = arith.constant dense<0.000000e+00> : tensor<128x128xf16, #blocked3>
  %c0_i32 = arith.constant 0 : i32
  %cst_5 = arith.constant dense<0.000000e+00> : tensor<128x128xf32, #blocked3>
  %0 = blk.program_id 1
  %1 = arith.muli %0, %arg6 : i32
  %2 = arith.muli %1, %c64_i32 : i32
  %3 = blk.program_id 0
  %4 = arith.muli %3, %c128_i32 : i32
  %5 = blk.splat %4 : i32 -> tensor<128xi32, #blocked1>
  %6 = blk.make_range 0, 128 : tensor<128xi32, #blocked1>
  %7 = blkgpu.convert_layout %6 : tensor<128xi32, #blocked1> -> tensor<128xi32, #slice>
  %8 = arith.addi %5, %6 : tensor<128xi32, #blocked1>
  %9 = blkgpu.convert_layout %8 : tensor<128xi32, #blocked1> -> tensor<128xi32, #slice>
  %10 = blk.make_range 0, 64 : tensor<64xi32, #blocked1>
  %11 = blkgpu.convert_layout %10 : tensor<64xi32, #blocked1> -> tensor<64xi32, #slice1>
  %12 = blk.expand_dims %7 {axis = 1 : i32} : tensor<128xi32, #slice> -> tensor<128x1xi32, #blocked>
  %13 = arith.muli %12, %cst : tensor<128x1xi32, #blocked>
  %14 = blk.broadcast %13 : tensor<128x1xi32, #blocked> -> tensor<128x64xi32, #blocked>
  %15 = blk.expand_dims %11 {axis = 0 : i32} : tensor<64xi32, #slice1> -> tensor<1x64xi32, #blocked4>
  %16 = blk.broadcast %15 : tensor<1x64xi32, #blocked4> -> tensor<128x64xi32, #blocked4>
  %17 = blkgpu.convert_layout %16 : tensor<128x64xi32, #blocked4> -> tensor<128x64xi32, #blocked>
  %18 = arith.addi %14, %17 : tensor<128x64xi32, #blocked>
  %19 = blk.addptr %arg0, %2 : !blk.ptr<f16>, i32
  %20 = blk.splat %19 : !blk.ptr<f16> -> tensor<128x1x!blk.ptr<f16>, #blocked>
  %21 = blk.expand_dims %9 {axis = 1 : i32} : tensor<128xi32, #slice> -> tensor<128x1xi32, #blocked>
  %22 = arith.muli %21, %cst : tensor<128x1xi32, #blocked>
  %23 = blk.addptr %20, %22 : tensor<128x1x!blk.ptr<f16>, #blocked>, tensor<128x1xi32, #blocked>
  %24 = blk.broadcast %23 : tensor<128x1x!blk.ptr<f16>, #blocked> -> tensor<128x64x!blk.ptr<f16>, #blocked>
  %25 = blk.addptr %24, %17 : tensor<128x64x!blk.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
  %26 = blkgpu.convert_layout %25 : tensor<128x64x!blk.ptr<f16>, #blocked> -> tensor<128x64x!blk.ptr<f16>, #blocked2>
  %27 = blk.load %26 {blkgpu.align = array<i64: 2, 16>, blkgpu.contiguity = array<i64: 1, 64>, blkgpu.mask_constancy = array<i64: 128, 64>} : tensor<128x64x!blk.ptr<f16>, #blocked2>
  %28 = arith.mulf %arg4, %cst_0 : f32
  %29 = blk.addptr %arg1, %2 : !blk.ptr<f16>, i32
  %30 = blk.addptr %arg2, %2 : !blk.ptr<f16>, i32
  %31 = blk.splat %28 : f32 -> tensor<128xf32, #blocked1>
  %32 = blk.splat %28 : f32 -> tensor<128x128xf32, #blocked3>
  %33 = blkgpu.local_alloc %27 : tensor<128x64xf16, #blocked2> -> !blkgpu.memdesc<128x64xf16, #shared>
  %34 = blkgpu.convert_layout %cst_3 : tensor<128x64xf32, #blocked2> -> tensor<128x64xf32, #mma>
  %35 = blkgpu.convert_layout %cst_4 : tensor<128x128xf16, #blocked3> -> tensor<128x128xf16, #mma1>
  %36 = blkgpu.convert_layout %cst_1 : tensor<128xf32, #blocked1> -> tensor<128xf32, #slice2>
  %37 = blkgpu.convert_layout %cst_2 : tensor<128xf32, #blocked1> -> tensor<128xf32, #slice2>
  %38:4 = scf.for %arg7 = %c0_i32 to %arg6 step %c128_i32 iter_args(%arg8 = %34, %arg9 = %37, %arg10 = %35, %arg11 = %36) -> (tensor<128x64xf32, #mma>, tensor<128xf32, #slice2>, tensor<128x128xf16, #mma1>, tensor<128xf32, #slice2>)  : i32 {
    %64 = arith.muli %arg7, %c64_i32 : i32
    %65 = blk.addptr %29, %64 : !blk.ptr<f16>, i32
    %66 = blk.splat %65 : !blk.ptr<f16> -> tensor<128x64x!blk.ptr<f16>, #blocked2>
    %67 = blkgpu.convert_layout %66 : tensor<128x64x!blk.ptr<f16>, #blocked2> -> tensor<128x64x!blk.ptr<f16>, #blocked>
    %68 = blk.addptr %67, %18 : tensor<128x64x!blk.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
    %69 = blkgpu.convert_layout %68 : tensor<128x64x!blk.ptr<f16>, #blocked> -> tensor<128x64x!blk.ptr<f16>, #blocked2>
    %70 = blk.load %69 {blkgpu.align = array<i64: 2, 16>, blkgpu.contiguity = array<i64: 1, 64>, blkgpu.mask_constancy = array<i64: 128, 64>} : tensor<128x64x!blk.ptr<f16>, #blocked2>
    %71 = blk.trans %70 {order = array<i32: 1, 0>} : tensor<128x64xf16, #blocked2> -> tensor<64x128xf16, #blocked5>
    %72 = blkgpu.convert_layout %cst_5 : tensor<128x128xf32, #blocked3> -> tensor<128x128xf32, #mma1>
    %73 = blkgpu.local_alloc %71 : tensor<64x128xf16, #blocked5> -> !blkgpu.memdesc<64x128xf16, #shared1>
    %74 = blkgpu.wgmma %33, %73, %72 : !blkgpu.memdesc<128x64xf16, #shared>, !blkgpu.memdesc<64x128xf16, #shared1>, tensor<128x128xf32, #mma1> -> tensor<128x128xf32, #mma1>
    %75 = arith.subi %arg7, %c128_i32 : i32
    %76 = arith.maxsi %75, %c0_i32 : i32
    %77 = arith.muli %76, %c64_i32 : i32
    %78 = blk.addptr %30, %77 : !blk.ptr<f16>, i32
    %79 = blk.splat %78 : !blk.ptr<f16> -> tensor<128x64x!blk.ptr<f16>, #blocked2>
    %80 = blkgpu.convert_layout %79 : tensor<128x64x!blk.ptr<f16>, #blocked2> -> tensor<128x64x!blk.ptr<f16>, #blocked>
    %81 = blk.addptr %80, %18 : tensor<128x64x!blk.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
    %82 = blkgpu.convert_layout %81 : tensor<128x64x!blk.ptr<f16>, #blocked> -> tensor<128x64x!blk.ptr<f16>, #blocked2>
    %83 = blk.load %82 {blkgpu.align = array<i64: 2, 16>, blkgpu.contiguity = array<i64: 1, 64>, blkgpu.mask_constancy = array<i64: 128, 64>} : tensor<128x64x!blk.ptr<f16>, #blocked2>
    %84 = blkgpu.local_alloc %83 : tensor<128x64xf16, #blocked2> -> !blkgpu.memdesc<128x64xf16, #shared>
    %85 = blkgpu.wgmma %arg10, %84, %arg8 : tensor<128x128xf16, #mma1>, !blkgpu.memdesc<128x64xf16, #shared>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
    %86 = blk.reduce %74 {axis = 1 : i32} : (tensor<128x128xf32, #mma1>) -> tensor<128xf32, #slice2> {
    ^bb0(%arg12: f32, %arg13: f32):
      %115 = arith.maximumf %arg12, %arg13 : f32
      blk.reduce.return %115 : f32
    }
    %87 = blkgpu.convert_layout %31 : tensor<128xf32, #blocked1> -> tensor<128xf32, #slice2>
    %88 = arith.mulf %86, %87 : tensor<128xf32, #slice2>
    %89 = arith.maximumf %arg11, %88 : tensor<128xf32, #slice2>
    %90 = blk.expand_dims %89 {axis = 1 : i32} : tensor<128xf32, #slice2> -> tensor<128x1xf32, #mma1>
    %91 = arith.negf %90 : tensor<128x1xf32, #mma1>
    %92 = blk.broadcast %91 : tensor<128x1xf32, #mma1> -> tensor<128x128xf32, #mma1>
    %93 = blkgpu.convert_layout %32 : tensor<128x128xf32, #blocked3> -> tensor<128x128xf32, #mma1>
    %94 = blkgpu.convert_layout %31 : tensor<128xf32, #blocked1> -> tensor<128xf32, #slice2>
    %95 = arith.mulf %86, %94 : tensor<128xf32, #slice2>
    %96 = arith.maximumf %arg11, %95 : tensor<128xf32, #slice2>
    %97 = blk.expand_dims %96 {axis = 1 : i32} : tensor<128xf32, #slice2> -> tensor<128x1xf32, #mma1>
    %98 = arith.negf %97 : tensor<128x1xf32, #mma1>
    %99 = blk.broadcast %98 : tensor<128x1xf32, #mma1> -> tensor<128x128xf32, #mma1>
    %100 = math.fma %74, %93, %99 : tensor<128x128xf32, #mma1>
    %101 = math.exp2 %100 : tensor<128x128xf32, #mma1>
    %102 = arith.subf %arg11, %89 : tensor<128xf32, #slice2>
    %103 = math.exp2 %102 : tensor<128xf32, #slice2>
    %104 = blkgpu.convert_layout %103 : tensor<128xf32, #slice2> -> tensor<128xf32, #slice3>
    %105 = arith.mulf %arg9, %103 : tensor<128xf32, #slice2>
    %106 = blk.reduce %101 {axis = 1 : i32} : (tensor<128x128xf32, #mma1>) -> tensor<128xf32, #slice2> {
    ^bb0(%arg12: f32, %arg13: f32):
      %115 = arith.addf %arg12, %arg13 : f32
      blk.reduce.return %115 : f32
    }
    %107 = arith.mulf %arg9, %103 : tensor<128xf32, #slice2>
    %108 = arith.addf %107, %106 : tensor<128xf32, #slice2>
    %109 = blk.expand_dims %103 {axis = 1 : i32} : tensor<128xf32, #slice2> -> tensor<128x1xf32, #mma1>
    %110 = blk.broadcast %109 : tensor<128x1xf32, #mma1> -> tensor<128x64xf32, #mma1>
    %111 = blk.expand_dims %104 {axis = 1 : i32} : tensor<128xf32, #slice3> -> tensor<128x1xf32, #mma>
    %112 = blk.broadcast %111 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
    %113 = arith.mulf %85, %112 : tensor<128x64xf32, #mma>
    %114 = arith.truncf %101 : tensor<128x128xf32, #mma1> to tensor<128x128xf16, #mma1>
    scf.yield %113, %108, %114, %89 : tensor<128x64xf32, #mma>, tensor<128xf32, #slice2>, tensor<128x128xf16, #mma1>, tensor<128xf32, #slice2>
  }
  %39 = blkgpu.convert_layout %38#1 : tensor<128xf32, #slice2> -> tensor<128xf32, #slice3>
  %40 = arith.subi %arg6, %c128_i32 : i32
  %41 = arith.maxsi %40, %c0_i32 : i32
  %42 = arith.muli %41, %c64_i32 : i32
  %43 = blk.addptr %30, %42 : !blk.ptr<f16>, i32
  %44 = blk.splat %43 : !blk.ptr<f16> -> tensor<128x64x!blk.ptr<f16>, #blocked2>
  %45 = blkgpu.convert_layout %44 : tensor<128x64x!blk.ptr<f16>, #blocked2> -> tensor<128x64x!blk.ptr<f16>, #blocked>
  %46 = blk.addptr %45, %18 : tensor<128x64x!blk.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
  %47 = blkgpu.convert_layout %46 : tensor<128x64x!blk.ptr<f16>, #blocked> -> tensor<128x64x!blk.ptr<f16>, #blocked2>
  %48 = blk.load %47 {blkgpu.align = array<i64: 2, 16>, blkgpu.contiguity = array<i64: 1, 64>, blkgpu.mask_constancy = array<i64: 128, 64>} : tensor<128x64x!blk.ptr<f16>, #blocked2>
  %49 = blkgpu.local_alloc %48 : tensor<128x64xf16, #blocked2> -> !blkgpu.memdesc<128x64xf16, #shared>
  %50 = blkgpu.wgmma %38#2, %49, %38#0 : tensor<128x128xf16, #mma1>, !blkgpu.memdesc<128x64xf16, #shared>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
  %51 = blk.addptr %arg3, %2 : !blk.ptr<f16>, i32
  %52 = blk.splat %51 : !blk.ptr<f16> -> tensor<128x1x!blk.ptr<f16>, #blocked>
  %53 = blk.addptr %52, %22 : tensor<128x1x!blk.ptr<f16>, #blocked>, tensor<128x1xi32, #blocked>
  %54 = blk.broadcast %53 : tensor<128x1x!blk.ptr<f16>, #blocked> -> tensor<128x64x!blk.ptr<f16>, #blocked>
  %55 = blk.addptr %54, %17 : tensor<128x64x!blk.ptr<f16>, #blocked>, tensor<128x64xi32, #blocked>
  %56 = blkgpu.convert_layout %55 : tensor<128x64x!blk.ptr<f16>, #blocked> -> tensor<128x64x!blk.ptr<f16>, #blocked2>
  %57 = blk.expand_dims %38#1 {axis = 1 : i32} : tensor<128xf32, #slice2> -> tensor<128x1xf32, #mma1>
  %58 = blk.broadcast %57 : tensor<128x1xf32, #mma1> -> tensor<128x64xf32, #mma1>
  %59 = blk.expand_dims %39 {axis = 1 : i32} : tensor<128xf32, #slice3> -> tensor<128x1xf32, #mma>
  %60 = blk.broadcast %59 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
  %61 = arith.divf %50, %60 : tensor<128x64xf32, #mma>
  %62 = arith.truncf %61 : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
  %63 = blkgpu.convert_layout %62 : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #blocked2>
  blk.store %56, %63 {blkgpu.align = array<i64: 2, 16>, blkgpu.contiguity = array<i64: 1, 64>, blkgpu.mask_constancy = array<i64: 128, 64>} : tensor<128x64x!blk.ptr<f16>, #blocked2>
  return
}
