// Input of tests/lit/blkgpu/warp-specialize.mlir (SHIFTED): ws_attention.mlir
// with V's rows at max(start_n - 64, 0) instead of start_n (the attention
// sample's hand-overlapped form reads V of the block before there): a TMA
// box whose coordinate is a scalar function of the induction variable,
// which the producer recomputes inside its own loop.

#blocked = #blkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked1 = #blkgpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 8], order = [0, 1]}>
#blocked2 = #blkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [8, 1], order = [1, 0]}>
#blocked3 = #blkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [8], order = [0]}>
#blocked4 = #blkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [4, 2], order = [1, 0]}>
#mma = #blkgpu.mma<{version = 3, warpsPerCTA = [8, 1], instrN = 64}>
#shared = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#shared1 = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], pad = 0, block = 64}>
#shared2 = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
#slice = #blkgpu.slice<{dim = 1, parent = #blocked}>
#slice1 = #blkgpu.slice<{dim = 0, parent = #blocked}>
#slice2 = #blkgpu.slice<{dim = 1, parent = #mma}>
#slice3 = #blkgpu.slice<{dim = 0, parent = #blocked1}>
#slice4 = #blkgpu.slice<{dim = 1, parent = #blocked1}>
#slice5 = #blkgpu.slice<{dim = 1, parent = #blocked2}>
#slice6 = #blkgpu.slice<{dim = 0, parent = #blocked4}>

func.func @ws_attention_shifted(%arg0: !blk.ptr<f16> {blk.aligned = 16 : i32}, %arg1: !blk.ptr<f16> {blk.aligned = 16 : i32}, %arg2: !blk.ptr<f16> {blk.aligned = 16 : i32}, %arg3: !blk.ptr<f16> {blk.aligned = 16 : i32}, %arg4: i32) attributes {blk.autotune_key = [], blk.config = {BM = 128 : i64, BN = 64 : i64, D = 64 : i64}, blk.const_params = ["BM:i32", "BN:i32", "D:i32"], blk.grid = "[{\22op\22: \22div\22, \22args\22: [{\22param\22: 4}, {\22int\22: 128}]}]", blk.grid_source = ["N / BM"], blk.kernel = "attn", blk.num_stages = 2 : i32, blk.num_warps = 8 : i32, blk.param_names = ["q", "k", "v", "o", "N"], blk.param_types = ["*f16", "*f16", "*f16", "*f16", "i32"], blk.variant_assume = array<i64: 0, 0, 16, 1, 0, 16, 2, 0, 16, 3, 0, 16>, blk.variant_of = "attn__BM_128_BN_64_D_64__w8__ws", blk.warp_specialize, blkgpu.num_warps = 8 : i32} {
  %c128_i32 = arith.constant 128 : i32
  %cst = arith.constant dense<64> : tensor<128x1xi32, #blocked2>
  %cst_0 = arith.constant dense<0xFF800000> : tensor<128xf32, #blocked3>
  %cst_1 = arith.constant dense<0.000000e+00> : tensor<128xf32, #blocked3>
  %cst_2 = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #blocked>
  %c0_i32 = arith.constant 0 : i32
  %c64_i32 = arith.constant 64 : i32
  %cst_3 = arith.constant dense<64> : tensor<1x64xi32, #blocked4>
  %cst_4 = arith.constant dense<64> : tensor<64x1xi32, #blocked2>
  %0 = blk.program_id 0
  %1 = arith.muli %0, %c128_i32 : i32
  %2 = blk.splat %1 : i32 -> tensor<128xi32, #blocked3>
  %3 = blk.make_range 0, 128 : tensor<128xi32, #blocked3>
  %4 = arith.addi %2, %3 : tensor<128xi32, #blocked3>
  %5 = blkgpu.convert_layout %4 : tensor<128xi32, #blocked3> -> tensor<128xi32, #slice5>
  %6 = blk.make_range 0, 64 : tensor<64xi32, #blocked3>
  %7 = blkgpu.convert_layout %6 : tensor<64xi32, #blocked3> -> tensor<64xi32, #slice5>
  %8 = blkgpu.convert_layout %6 : tensor<64xi32, #blocked3> -> tensor<64xi32, #slice6>
  %9 = blk.splat %arg0 : !blk.ptr<f16> -> tensor<128x1x!blk.ptr<f16>, #blocked2>
  %10 = blk.expand_dims %5 {axis = 1 : i32} : tensor<128xi32, #slice5> -> tensor<128x1xi32, #blocked2>
  %11 = arith.muli %10, %cst : tensor<128x1xi32, #blocked2>
  %12 = blk.addptr %9, %11 : tensor<128x1x!blk.ptr<f16>, #blocked2>, tensor<128x1xi32, #blocked2>
  %13 = blk.broadcast %12 : tensor<128x1x!blk.ptr<f16>, #blocked2> -> tensor<128x64x!blk.ptr<f16>, #blocked2>
  %14 = blk.expand_dims %8 {axis = 0 : i32} : tensor<64xi32, #slice6> -> tensor<1x64xi32, #blocked4>
  %15 = blk.broadcast %14 : tensor<1x64xi32, #blocked4> -> tensor<128x64xi32, #blocked4>
  %16 = blkgpu.convert_layout %15 : tensor<128x64xi32, #blocked4> -> tensor<128x64xi32, #blocked2>
  %17 = blk.addptr %13, %16 : tensor<128x64x!blk.ptr<f16>, #blocked2>, tensor<128x64xi32, #blocked2>
  %18 = blkgpu.convert_layout %17 : tensor<128x64x!blk.ptr<f16>, #blocked2> -> tensor<128x64x!blk.ptr<f16>, #blocked>
  %19 = blk.load %18 {blkgpu.align = array<i64: 2, 16>, blkgpu.contiguity = array<i64: 1, 64>, blkgpu.mask_constancy = array<i64: 128, 64>} : tensor<128x64x!blk.ptr<f16>, #blocked>
  %20 = blk.splat %arg1 : !blk.ptr<f16> -> tensor<1x64x!blk.ptr<f16>, #blocked4>
  %21 = blk.expand_dims %7 {axis = 1 : i32} : tensor<64xi32, #slice5> -> tensor<64x1xi32, #blocked2>
  %22 = blk.broadcast %21 : tensor<64x1xi32, #blocked2> -> tensor<64x64xi32, #blocked2>
  %23 = blkgpu.convert_layout %22 : tensor<64x64xi32, #blocked2> -> tensor<64x64xi32, #blocked4>
  %24 = blk.splat %arg2 : !blk.ptr<f16> -> tensor<64x1x!blk.ptr<f16>, #blocked2>
  %25 = blk.broadcast %14 : tensor<1x64xi32, #blocked4> -> tensor<64x64xi32, #blocked4>
  %26 = blkgpu.convert_layout %25 : tensor<64x64xi32, #blocked4> -> tensor<64x64xi32, #blocked2>
  %27 = blkgpu.local_alloc %19 : tensor<128x64xf16, #blocked> -> !blkgpu.memdesc<128x64xf16, #shared>
  %28 = blkgpu.convert_layout %cst_2 : tensor<128x64xf32, #blocked> -> tensor<128x64xf32, #mma>
  %29 = blkgpu.convert_layout %cst_0 : tensor<128xf32, #blocked3> -> tensor<128xf32, #slice2>
  %30 = blkgpu.convert_layout %cst_1 : tensor<128xf32, #blocked3> -> tensor<128xf32, #slice2>
  %31:3 = scf.for %arg5 = %c0_i32 to %arg4 step %c64_i32 iter_args(%arg6 = %30, %arg7 = %28, %arg8 = %29) -> (tensor<128xf32, #slice2>, tensor<128x64xf32, #mma>, tensor<128xf32, #slice2>)  : i32 {
    %44 = blk.splat %arg5 : i32 -> tensor<64xi32, #blocked3>
    %45 = arith.addi %44, %6 : tensor<64xi32, #blocked3>
    %vrow0 = arith.subi %arg5, %c64_i32 : i32
    %vrow = arith.maxsi %vrow0, %c0_i32 : i32
    %vsplat = blk.splat %vrow : i32 -> tensor<64xi32, #blocked3>
    %vcols = arith.addi %vsplat, %6 : tensor<64xi32, #blocked3>
    %46 = blkgpu.convert_layout %vcols : tensor<64xi32, #blocked3> -> tensor<64xi32, #slice5>
    %47 = blkgpu.convert_layout %45 : tensor<64xi32, #blocked3> -> tensor<64xi32, #slice6>
    %48 = blk.expand_dims %47 {axis = 0 : i32} : tensor<64xi32, #slice6> -> tensor<1x64xi32, #blocked4>
    %49 = arith.muli %48, %cst_3 : tensor<1x64xi32, #blocked4>
    %50 = blk.addptr %20, %49 : tensor<1x64x!blk.ptr<f16>, #blocked4>, tensor<1x64xi32, #blocked4>
    %51 = blk.broadcast %50 : tensor<1x64x!blk.ptr<f16>, #blocked4> -> tensor<64x64x!blk.ptr<f16>, #blocked4>
    %52 = blk.addptr %51, %23 : tensor<64x64x!blk.ptr<f16>, #blocked4>, tensor<64x64xi32, #blocked4>
    %53 = blkgpu.convert_layout %52 : tensor<64x64x!blk.ptr<f16>, #blocked4> -> tensor<64x64x!blk.ptr<f16>, #blocked1>
    %54 = blk.load %53 {blkgpu.align = array<i64: 16, 2>, blkgpu.contiguity = array<i64: 64, 1>, blkgpu.mask_constancy = array<i64: 64, 64>} : tensor<64x64x!blk.ptr<f16>, #blocked1>
    %55 = blkgpu.convert_layout %cst_2 : tensor<128x64xf32, #blocked> -> tensor<128x64xf32, #mma>
    %56 = blkgpu.local_alloc %54 : tensor<64x64xf16, #blocked1> -> !blkgpu.memdesc<64x64xf16, #shared1>
    %57 = blkgpu.wgmma %27, %56, %55 : !blkgpu.memdesc<128x64xf16, #shared>, !blkgpu.memdesc<64x64xf16, #shared1>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
    %58 = blk.reduce %57 {axis = 1 : i32} : (tensor<128x64xf32, #mma>) -> tensor<128xf32, #slice2> {
    ^bb0(%arg9: f32, %arg10: f32):
      %88 = arith.maximumf %arg9, %arg10 : f32
      blk.reduce.return %88 : f32
    }
    %59 = arith.maximumf %arg8, %58 : tensor<128xf32, #slice2>
    %60 = blk.expand_dims %59 {axis = 1 : i32} : tensor<128xf32, #slice2> -> tensor<128x1xf32, #mma>
    %61 = blk.broadcast %60 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
    %62 = arith.maximumf %arg8, %58 : tensor<128xf32, #slice2>
    %63 = blk.expand_dims %62 {axis = 1 : i32} : tensor<128xf32, #slice2> -> tensor<128x1xf32, #mma>
    %64 = blk.broadcast %63 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
    %65 = arith.subf %57, %64 : tensor<128x64xf32, #mma>
    %66 = math.exp2 %65 : tensor<128x64xf32, #mma>
    %67 = arith.subf %arg8, %59 : tensor<128xf32, #slice2>
    %68 = math.exp2 %67 : tensor<128xf32, #slice2>
    %69 = arith.mulf %arg6, %68 : tensor<128xf32, #slice2>
    %70 = blk.reduce %66 {axis = 1 : i32} : (tensor<128x64xf32, #mma>) -> tensor<128xf32, #slice2> {
    ^bb0(%arg9: f32, %arg10: f32):
      %88 = arith.addf %arg9, %arg10 : f32
      blk.reduce.return %88 : f32
    }
    %71 = arith.mulf %arg6, %68 : tensor<128xf32, #slice2>
    %72 = arith.addf %71, %70 : tensor<128xf32, #slice2>
    %73 = blk.expand_dims %46 {axis = 1 : i32} : tensor<64xi32, #slice5> -> tensor<64x1xi32, #blocked2>
    %74 = arith.muli %73, %cst_4 : tensor<64x1xi32, #blocked2>
    %75 = blk.addptr %24, %74 : tensor<64x1x!blk.ptr<f16>, #blocked2>, tensor<64x1xi32, #blocked2>
    %76 = blk.broadcast %75 : tensor<64x1x!blk.ptr<f16>, #blocked2> -> tensor<64x64x!blk.ptr<f16>, #blocked2>
    %77 = blk.addptr %76, %26 : tensor<64x64x!blk.ptr<f16>, #blocked2>, tensor<64x64xi32, #blocked2>
    %78 = blkgpu.convert_layout %77 : tensor<64x64x!blk.ptr<f16>, #blocked2> -> tensor<64x64x!blk.ptr<f16>, #blocked>
    %79 = blk.load %78 {blkgpu.align = array<i64: 2, 16>, blkgpu.contiguity = array<i64: 1, 64>, blkgpu.mask_constancy = array<i64: 64, 64>} : tensor<64x64x!blk.ptr<f16>, #blocked>
    %80 = arith.truncf %66 : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
    %81 = blk.expand_dims %68 {axis = 1 : i32} : tensor<128xf32, #slice2> -> tensor<128x1xf32, #mma>
    %82 = blk.broadcast %81 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
    %83 = blk.expand_dims %68 {axis = 1 : i32} : tensor<128xf32, #slice2> -> tensor<128x1xf32, #mma>
    %84 = blk.broadcast %83 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
    %85 = arith.mulf %arg7, %84 : tensor<128x64xf32, #mma>
    %86 = blkgpu.local_alloc %79 : tensor<64x64xf16, #blocked> -> !blkgpu.memdesc<64x64xf16, #shared>
    %87 = blkgpu.wgmma %80, %86, %85 : tensor<128x64xf16, #mma>, !blkgpu.memdesc<64x64xf16, #shared>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
    scf.yield %72, %87, %59 : tensor<128xf32, #slice2>, tensor<128x64xf32, #mma>, tensor<128xf32, #slice2>
  }
  %32 = blk.splat %arg3 : !blk.ptr<f16> -> tensor<128x1x!blk.ptr<f16>, #blocked2>
  %33 = blk.addptr %32, %11 : tensor<128x1x!blk.ptr<f16>, #blocked2>, tensor<128x1xi32, #blocked2>
  %34 = blk.broadcast %33 : tensor<128x1x!blk.ptr<f16>, #blocked2> -> tensor<128x64x!blk.ptr<f16>, #blocked2>
  %35 = blk.addptr %34, %16 : tensor<128x64x!blk.ptr<f16>, #blocked2>, tensor<128x64xi32, #blocked2>
  %36 = blkgpu.convert_layout %35 : tensor<128x64x!blk.ptr<f16>, #blocked2> -> tensor<128x64x!blk.ptr<f16>, #blocked>
  %37 = blk.expand_dims %31#0 {axis = 1 : i32} : tensor<128xf32, #slice2> -> tensor<128x1xf32, #mma>
  %38 = blk.broadcast %37 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
  %39 = blk.expand_dims %31#0 {axis = 1 : i32} : tensor<128xf32, #slice2> -> tensor<128x1xf32, #mma>
  %40 = blk.broadcast %39 : tensor<128x1xf32, #mma> -> tensor<128x64xf32, #mma>
  %41 = arith.divf %31#1, %40 : tensor<128x64xf32, #mma>
  %42 = arith.truncf %41 : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
  %43 = blkgpu.convert_layout %42 : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #blocked>
  blk.store %36, %43 {blkgpu.align = array<i64: 2, 16>, blkgpu.contiguity = array<i64: 1, 64>, blkgpu.mask_constancy = array<i64: 128, 64>} : tensor<128x64x!blk.ptr<f16>, #blocked>
  return
}
