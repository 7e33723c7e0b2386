// blkgpu-pipeline-loops with TMA (sm_90a): the GEMM of Triton's tutorial
// (bench/gemm/kernels/gemm_f16.blk, BM = 128, BN = 64, BK = 64, 4 warps,
// 3 stages, its `__auto` variant: 16-byte-aligned pointers, strides
// multiples of 16) as blkgpu-accelerate-matmul leaves it. Both loads are
// boxes of row-major tensors: A [M, K] (rows `% M`, K masked), B [K, N]
// (K masked, columns `% N`), so the loop is versioned on the boxes staying
// inside the wrapped dims (and every extent >= 1): the TMA version arms one
// mbarrier per slot with both tiles' 24 KiB and copies each tile with
// tma_load two iterations ahead; its readers wait on the slot's mbarrier
// (phase (i / 3) % 2), and no cp.async is left in it; the other version is
// the cp.async ring. Without the hints (@unaligned) nothing changes but the
// cp.async ring.
// RUN: blk-opt %s --split-input-file --blkgpu-pipeline-loops | FileCheck %s
// A kernel marked blk.no_tma (a `tma = false` config) keeps cp.async rings
// where TMA would fill them: the same input with the mark, no TMA at all.
// RUN: sed 's/attributes {blk.num_stages/attributes {blk.no_tma, blk.num_stages/' %s | blk-opt --split-input-file --blkgpu-pipeline-loops | FileCheck %s --check-prefix=NOTMA
// NOTMA-LABEL: func.func @tutorial
// NOTMA-NOT: blkgpu.tma_load
// NOTMA: blkgpu.async_copy
// NOTMA-NOT: blkgpu.tma_load
// NOTMA-LABEL: func.func @attention_style
// NOTMA-NOT: blkgpu.tma_load
// NOTMA: blkgpu.async_copy
// NOTMA-NOT: blkgpu.tma_load

// CHECK-LABEL: func.func @tutorial
// CHECK-DAG: blkgpu.tensor_map %arg0[%arg3, %arg5] strides[%arg6] {box = array<i64: 128, 64>, swizzle = 128 : i32}
// CHECK-DAG: blkgpu.tensor_map %arg1[%arg5, %arg4] strides[%arg8] {box = array<i64: 64, 64>, swizzle = 128 : i32}
// CHECK: arith.cmpi sle
// CHECK: scf.if %{{.*}} -> (tensor<128x64xf32
// CHECK: %[[BARS:.*]] = blkgpu.local_alloc -> !blkgpu.memdesc<3x1xi64
// CHECK-NEXT: blkgpu.mbarrier_init %[[BARS]] {count = 1 : i32}
// CHECK-NOT: blkgpu.async_copy
// CHECK: blkgpu.mbarrier_expect %{{.*}}, %{{.*}} {bytes = 24576 : i32}
// CHECK: blkgpu.tma_load
// CHECK: blkgpu.tma_load
// CHECK: blkgpu.mbarrier_expect %{{.*}}, %{{.*}} {bytes = 24576 : i32}
// CHECK: blkgpu.tma_load
// CHECK: blkgpu.tma_load
// CHECK: scf.for
// CHECK-NOT: blkgpu.async_copy
// CHECK: blkgpu.mbarrier_wait
// CHECK: blkgpu.wgmma {{.*}} {pending = 1 : i32}
// CHECK: blkgpu.mbarrier_expect %{{.*}}, %{{.*}} {bytes = 24576 : i32}
// CHECK: blkgpu.tma_load
// CHECK: blkgpu.tma_load
// CHECK: scf.yield
// CHECK: } else {
// CHECK-NOT: blkgpu.tma_load
// CHECK: blkgpu.async_copy
// CHECK: scf.for
// CHECK: blkgpu.async_wait {pending = 1 : i32}
// CHECK: blkgpu.async_copy
// CHECK: blkgpu.async_wait {pending = 0 : i32}

// CHECK-LABEL: func.func @unaligned
// CHECK-NOT: blkgpu.tensor_map
// CHECK-NOT: scf.if
// CHECK: blkgpu.async_copy
// CHECK-NOT: blkgpu.tma_load

#blocked = #blkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked1 = #blkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #blkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked3 = #blkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 64}>
#shared = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#shared1 = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
#slice = #blkgpu.slice<{dim = 0, parent = #blocked}>
#slice1 = #blkgpu.slice<{dim = 1, parent = #blocked}>
#slice2 = #blkgpu.slice<{dim = 1, parent = #blocked3}>

func.func @tutorial(%arg0: !blk.ptr<f16> {blk.aligned = 16 : i32}, %arg1: !blk.ptr<f16> {blk.aligned = 16 : i32}, %arg2: !blk.ptr<f16> {blk.aligned = 16 : i32}, %arg3: i32, %arg4: i32 {blk.multiple_of = 16 : i32}, %arg5: i32 {blk.multiple_of = 16 : i32}, %arg6: i32 {blk.multiple_of = 16 : i32}, %arg7: i32, %arg8: i32 {blk.multiple_of = 16 : i32}, %arg9: i32, %arg10: i32 {blk.multiple_of = 16 : i32}, %arg11: i32) attributes {blk.num_stages = 3 : i32, blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %cst = arith.constant dense<64> : tensor<128x64xi32, #blocked1>
  %c1_i32 = arith.constant 1 : i32
  %c128_i32 = arith.constant 128 : i32
  %c64_i32 = arith.constant 64 : i32
  %c8_i32 = arith.constant 8 : i32
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #blocked1>
  %c0_i32 = arith.constant 0 : i32
  %cst_1 = arith.constant dense<0.000000e+00> : tensor<128x64xf16, #blocked1>
  %cst_2 = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #blocked1>
  %c127_i32 = arith.constant 127 : i32
  %c63_i32 = arith.constant 63 : i32
  %0 = blk.program_id 0
  %1 = arith.addi %arg3, %c127_i32 : i32
  %2 = arith.divsi %1, %c128_i32 : i32
  %3 = arith.addi %arg4, %c63_i32 : i32
  %4 = arith.divsi %3, %c64_i32 : i32
  %5 = arith.muli %4, %c8_i32 : i32
  %6 = arith.divsi %0, %5 : i32
  %7 = arith.muli %6, %c8_i32 : i32
  %8 = arith.subi %2, %7 : i32
  %9 = arith.minsi %8, %c8_i32 : i32
  %10 = arith.remsi %0, %5 : i32
  %11 = arith.remsi %10, %9 : i32
  %12 = arith.addi %7, %11 : i32
  %13 = arith.divsi %10, %9 : i32
  %14 = arith.muli %12, %c128_i32 : i32
  %15 = blk.splat %14 : i32 -> tensor<128xi32, #blocked2>
  %16 = blk.make_range 0, 128 : tensor<128xi32, #blocked2>
  %17 = arith.addi %15, %16 : tensor<128xi32, #blocked2>
  %18 = blkgpu.convert_layout %17 : tensor<128xi32, #blocked2> -> tensor<128xi32, #slice2>
  %19 = blk.splat %arg3 : i32 -> tensor<128xi32, #blocked2>
  %20 = arith.remsi %17, %19 : tensor<128xi32, #blocked2>
  %21 = blkgpu.convert_layout %20 : tensor<128xi32, #blocked2> -> tensor<128xi32, #slice2>
  %22 = arith.muli %13, %c64_i32 : i32
  %23 = blk.splat %22 : i32 -> tensor<64xi32, #blocked2>
  %24 = blk.make_range 0, 64 : tensor<64xi32, #blocked2>
  %25 = blkgpu.convert_layout %24 : tensor<64xi32, #blocked2> -> tensor<64xi32, #slice2>
  %26 = blkgpu.convert_layout %24 : tensor<64xi32, #blocked2> -> tensor<64xi32, #slice>
  %27 = arith.addi %23, %24 : tensor<64xi32, #blocked2>
  %28 = blkgpu.convert_layout %27 : tensor<64xi32, #blocked2> -> tensor<64xi32, #slice>
  %29 = blk.splat %arg4 : i32 -> tensor<64xi32, #blocked2>
  %30 = arith.remsi %27, %29 : tensor<64xi32, #blocked2>
  %31 = blkgpu.convert_layout %30 : tensor<64xi32, #blocked2> -> tensor<64xi32, #slice>
  %32 = blk.splat %arg0 : !blk.ptr<f16> -> tensor<128x1x!blk.ptr<f16>, #blocked3>
  %33 = blk.expand_dims %21 {axis = 1 : i32} : tensor<128xi32, #slice2> -> tensor<128x1xi32, #blocked3>
  %34 = blk.splat %arg6 : i32 -> tensor<128x1xi32, #blocked3>
  %35 = arith.muli %33, %34 : tensor<128x1xi32, #blocked3>
  %36 = blk.addptr %32, %35 : tensor<128x1x!blk.ptr<f16>, #blocked3>, tensor<128x1xi32, #blocked3>
  %37 = blk.broadcast %36 : tensor<128x1x!blk.ptr<f16>, #blocked3> -> tensor<128x64x!blk.ptr<f16>, #blocked3>
  %38 = blk.expand_dims %26 {axis = 0 : i32} : tensor<64xi32, #slice> -> tensor<1x64xi32, #blocked>
  %39 = blk.broadcast %38 : tensor<1x64xi32, #blocked> -> tensor<128x64xi32, #blocked>
  %40 = blkgpu.convert_layout %39 : tensor<128x64xi32, #blocked> -> tensor<128x64xi32, #blocked3>
  %41 = blk.addptr %37, %40 : tensor<128x64x!blk.ptr<f16>, #blocked3>, tensor<128x64xi32, #blocked3>
  %42 = blkgpu.convert_layout %41 : tensor<128x64x!blk.ptr<f16>, #blocked3> -> tensor<128x64x!blk.ptr<f16>, #blocked1>
  %43 = blk.splat %arg1 : !blk.ptr<f16> -> tensor<64x1x!blk.ptr<f16>, #blocked3>
  %44 = blk.expand_dims %25 {axis = 1 : i32} : tensor<64xi32, #slice2> -> tensor<64x1xi32, #blocked3>
  %45 = blk.splat %arg8 : i32 -> tensor<64x1xi32, #blocked3>
  %46 = arith.muli %44, %45 : tensor<64x1xi32, #blocked3>
  %47 = blk.addptr %43, %46 : tensor<64x1x!blk.ptr<f16>, #blocked3>, tensor<64x1xi32, #blocked3>
  %48 = blk.broadcast %47 : tensor<64x1x!blk.ptr<f16>, #blocked3> -> tensor<64x64x!blk.ptr<f16>, #blocked3>
  %49 = blk.expand_dims %31 {axis = 0 : i32} : tensor<64xi32, #slice> -> tensor<1x64xi32, #blocked>
  %50 = blk.broadcast %49 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
  %51 = blkgpu.convert_layout %50 : tensor<64x64xi32, #blocked> -> tensor<64x64xi32, #blocked3>
  %52 = blk.addptr %48, %51 : tensor<64x64x!blk.ptr<f16>, #blocked3>, tensor<64x64xi32, #blocked3>
  %53 = blkgpu.convert_layout %52 : tensor<64x64x!blk.ptr<f16>, #blocked3> -> tensor<64x64x!blk.ptr<f16>, #blocked1>
  %54 = arith.addi %arg5, %c63_i32 : i32
  %55 = arith.divsi %54, %c64_i32 : i32
  %56 = arith.muli %arg8, %c64_i32 : i32
  %57 = blk.splat %56 : i32 -> tensor<64x64xi32, #blocked1>
  %58 = blkgpu.convert_layout %cst_0 : tensor<128x64xf32, #blocked1> -> tensor<128x64xf32, #mma>
  %59:3 = scf.for %arg12 = %c0_i32 to %55 step %c1_i32 iter_args(%arg13 = %58, %arg14 = %42, %arg15 = %53) -> (tensor<128x64xf32, #mma>, tensor<128x64x!blk.ptr<f16>, #blocked1>, tensor<64x64x!blk.ptr<f16>, #blocked1>)  : i32 {
    %82 = arith.muli %arg12, %c64_i32 : i32
    %83 = arith.subi %arg5, %82 : i32
    %84 = blk.splat %83 : i32 -> tensor<1x64xi32, #blocked>
    %85 = arith.cmpi slt, %38, %84 : tensor<1x64xi32, #blocked>
    %86 = blk.broadcast %85 : tensor<1x64xi1, #blocked> -> tensor<128x64xi1, #blocked>
    %87 = blkgpu.convert_layout %86 : tensor<128x64xi1, #blocked> -> tensor<128x64xi1, #blocked1>
    %88 = blk.load %arg14, %87, %cst_1 {blkgpu.align = array<i64: 2, 16>, blkgpu.contiguity = array<i64: 1, 64>, blkgpu.mask_constancy = array<i64: 128, 16>} : tensor<128x64x!blk.ptr<f16>, #blocked1>
    %89 = blk.splat %83 : i32 -> tensor<64x1xi32, #blocked3>
    %90 = arith.cmpi slt, %44, %89 : tensor<64x1xi32, #blocked3>
    %91 = blk.broadcast %90 : tensor<64x1xi1, #blocked3> -> tensor<64x64xi1, #blocked3>
    %92 = blkgpu.convert_layout %91 : tensor<64x64xi1, #blocked3> -> tensor<64x64xi1, #blocked1>
    %93 = blk.load %arg15, %92, %cst_2 {blkgpu.align = array<i64: 2, 16>, blkgpu.contiguity = array<i64: 1, 16>, blkgpu.mask_constancy = array<i64: 16, 64>} : tensor<64x64x!blk.ptr<f16>, #blocked1>
    %94 = blkgpu.local_alloc %88 : tensor<128x64xf16, #blocked1> -> !blkgpu.memdesc<128x64xf16, #shared>
    %95 = blkgpu.local_alloc %93 : tensor<64x64xf16, #blocked1> -> !blkgpu.memdesc<64x64xf16, #shared>
    %96 = blkgpu.wgmma %94, %95, %arg13 : !blkgpu.memdesc<128x64xf16, #shared>, !blkgpu.memdesc<64x64xf16, #shared>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
    %97 = blk.addptr %arg14, %cst : tensor<128x64x!blk.ptr<f16>, #blocked1>, tensor<128x64xi32, #blocked1>
    %98 = blk.addptr %arg15, %57 : tensor<64x64x!blk.ptr<f16>, #blocked1>, tensor<64x64xi32, #blocked1>
    scf.yield %96, %97, %98 : tensor<128x64xf32, #mma>, tensor<128x64x!blk.ptr<f16>, #blocked1>, tensor<64x64x!blk.ptr<f16>, #blocked1>
  }
  %60 = arith.truncf %59#0 : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
  %61 = blkgpu.convert_layout %60 : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #blocked1>
  %62 = blk.splat %arg2 : !blk.ptr<f16> -> tensor<128x1x!blk.ptr<f16>, #blocked3>
  %63 = blk.expand_dims %18 {axis = 1 : i32} : tensor<128xi32, #slice2> -> tensor<128x1xi32, #blocked3>
  %64 = blk.splat %arg10 : i32 -> tensor<128x1xi32, #blocked3>
  %65 = arith.muli %63, %64 : tensor<128x1xi32, #blocked3>
  %66 = blk.addptr %62, %65 : tensor<128x1x!blk.ptr<f16>, #blocked3>, tensor<128x1xi32, #blocked3>
  %67 = blk.broadcast %66 : tensor<128x1x!blk.ptr<f16>, #blocked3> -> tensor<128x64x!blk.ptr<f16>, #blocked3>
  %68 = blk.expand_dims %28 {axis = 0 : i32} : tensor<64xi32, #slice> -> tensor<1x64xi32, #blocked>
  %69 = blk.broadcast %68 : tensor<1x64xi32, #blocked> -> tensor<128x64xi32, #blocked>
  %70 = blkgpu.convert_layout %69 : tensor<128x64xi32, #blocked> -> tensor<128x64xi32, #blocked3>
  %71 = blk.addptr %67, %70 : tensor<128x64x!blk.ptr<f16>, #blocked3>, tensor<128x64xi32, #blocked3>
  %72 = blkgpu.convert_layout %71 : tensor<128x64x!blk.ptr<f16>, #blocked3> -> tensor<128x64x!blk.ptr<f16>, #blocked1>
  %73 = blk.splat %arg3 : i32 -> tensor<128x1xi32, #blocked3>
  %74 = arith.cmpi slt, %63, %73 : tensor<128x1xi32, #blocked3>
  %75 = blk.broadcast %74 : tensor<128x1xi1, #blocked3> -> tensor<128x64xi1, #blocked3>
  %76 = blk.splat %arg4 : i32 -> tensor<1x64xi32, #blocked>
  %77 = arith.cmpi slt, %68, %76 : tensor<1x64xi32, #blocked>
  %78 = blk.broadcast %77 : tensor<1x64xi1, #blocked> -> tensor<128x64xi1, #blocked>
  %79 = blkgpu.convert_layout %78 : tensor<128x64xi1, #blocked> -> tensor<128x64xi1, #blocked3>
  %80 = arith.andi %75, %79 : tensor<128x64xi1, #blocked3>
  %81 = blkgpu.convert_layout %80 : tensor<128x64xi1, #blocked3> -> tensor<128x64xi1, #blocked1>
  blk.store %72, %61, %81 {blkgpu.align = array<i64: 2, 16>, blkgpu.contiguity = array<i64: 1, 64>, blkgpu.mask_constancy = array<i64: 1, 16>} : tensor<128x64x!blk.ptr<f16>, #blocked1>
  return
}

// -----

#blocked = #blkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked1 = #blkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #blkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked3 = #blkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 64}>
#shared = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#shared1 = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
#slice = #blkgpu.slice<{dim = 0, parent = #blocked}>
#slice1 = #blkgpu.slice<{dim = 1, parent = #blocked}>
#slice2 = #blkgpu.slice<{dim = 1, parent = #blocked3}>

func.func @unaligned(%arg0: !blk.ptr<f16>, %arg1: !blk.ptr<f16>, %arg2: !blk.ptr<f16>, %arg3: i32, %arg4: i32, %arg5: i32, %arg6: i32, %arg7: i32, %arg8: i32, %arg9: i32, %arg10: i32, %arg11: i32) attributes {blk.num_stages = 3 : i32, blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %cst = arith.constant dense<64> : tensor<128x64xi32, #blocked1>
  %c1_i32 = arith.constant 1 : i32
  %c128_i32 = arith.constant 128 : i32
  %c64_i32 = arith.constant 64 : i32
  %c8_i32 = arith.constant 8 : i32
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<128x64xf32, #blocked1>
  %c0_i32 = arith.constant 0 : i32
  %cst_1 = arith.constant dense<0.000000e+00> : tensor<128x64xf16, #blocked1>
  %cst_2 = arith.constant dense<0.000000e+00> : tensor<64x64xf16, #blocked1>
  %c127_i32 = arith.constant 127 : i32
  %c63_i32 = arith.constant 63 : i32
  %0 = blk.program_id 0
  %1 = arith.addi %arg3, %c127_i32 : i32
  %2 = arith.divsi %1, %c128_i32 : i32
  %3 = arith.addi %arg4, %c63_i32 : i32
  %4 = arith.divsi %3, %c64_i32 : i32
  %5 = arith.muli %4, %c8_i32 : i32
  %6 = arith.divsi %0, %5 : i32
  %7 = arith.muli %6, %c8_i32 : i32
  %8 = arith.subi %2, %7 : i32
  %9 = arith.minsi %8, %c8_i32 : i32
  %10 = arith.remsi %0, %5 : i32
  %11 = arith.remsi %10, %9 : i32
  %12 = arith.addi %7, %11 : i32
  %13 = arith.divsi %10, %9 : i32
  %14 = arith.muli %12, %c128_i32 : i32
  %15 = blk.splat %14 : i32 -> tensor<128xi32, #blocked2>
  %16 = blk.make_range 0, 128 : tensor<128xi32, #blocked2>
  %17 = arith.addi %15, %16 : tensor<128xi32, #blocked2>
  %18 = blkgpu.convert_layout %17 : tensor<128xi32, #blocked2> -> tensor<128xi32, #slice2>
  %19 = blk.splat %arg3 : i32 -> tensor<128xi32, #blocked2>
  %20 = arith.remsi %17, %19 : tensor<128xi32, #blocked2>
  %21 = blkgpu.convert_layout %20 : tensor<128xi32, #blocked2> -> tensor<128xi32, #slice2>
  %22 = arith.muli %13, %c64_i32 : i32
  %23 = blk.splat %22 : i32 -> tensor<64xi32, #blocked2>
  %24 = blk.make_range 0, 64 : tensor<64xi32, #blocked2>
  %25 = blkgpu.convert_layout %24 : tensor<64xi32, #blocked2> -> tensor<64xi32, #slice2>
  %26 = blkgpu.convert_layout %24 : tensor<64xi32, #blocked2> -> tensor<64xi32, #slice>
  %27 = arith.addi %23, %24 : tensor<64xi32, #blocked2>
  %28 = blkgpu.convert_layout %27 : tensor<64xi32, #blocked2> -> tensor<64xi32, #slice>
  %29 = blk.splat %arg4 : i32 -> tensor<64xi32, #blocked2>
  %30 = arith.remsi %27, %29 : tensor<64xi32, #blocked2>
  %31 = blkgpu.convert_layout %30 : tensor<64xi32, #blocked2> -> tensor<64xi32, #slice>
  %32 = blk.splat %arg0 : !blk.ptr<f16> -> tensor<128x1x!blk.ptr<f16>, #blocked3>
  %33 = blk.expand_dims %21 {axis = 1 : i32} : tensor<128xi32, #slice2> -> tensor<128x1xi32, #blocked3>
  %34 = blk.splat %arg6 : i32 -> tensor<128x1xi32, #blocked3>
  %35 = arith.muli %33, %34 : tensor<128x1xi32, #blocked3>
  %36 = blk.addptr %32, %35 : tensor<128x1x!blk.ptr<f16>, #blocked3>, tensor<128x1xi32, #blocked3>
  %37 = blk.broadcast %36 : tensor<128x1x!blk.ptr<f16>, #blocked3> -> tensor<128x64x!blk.ptr<f16>, #blocked3>
  %38 = blk.expand_dims %26 {axis = 0 : i32} : tensor<64xi32, #slice> -> tensor<1x64xi32, #blocked>
  %39 = blk.broadcast %38 : tensor<1x64xi32, #blocked> -> tensor<128x64xi32, #blocked>
  %40 = blkgpu.convert_layout %39 : tensor<128x64xi32, #blocked> -> tensor<128x64xi32, #blocked3>
  %41 = blk.addptr %37, %40 : tensor<128x64x!blk.ptr<f16>, #blocked3>, tensor<128x64xi32, #blocked3>
  %42 = blkgpu.convert_layout %41 : tensor<128x64x!blk.ptr<f16>, #blocked3> -> tensor<128x64x!blk.ptr<f16>, #blocked1>
  %43 = blk.splat %arg1 : !blk.ptr<f16> -> tensor<64x1x!blk.ptr<f16>, #blocked3>
  %44 = blk.expand_dims %25 {axis = 1 : i32} : tensor<64xi32, #slice2> -> tensor<64x1xi32, #blocked3>
  %45 = blk.splat %arg8 : i32 -> tensor<64x1xi32, #blocked3>
  %46 = arith.muli %44, %45 : tensor<64x1xi32, #blocked3>
  %47 = blk.addptr %43, %46 : tensor<64x1x!blk.ptr<f16>, #blocked3>, tensor<64x1xi32, #blocked3>
  %48 = blk.broadcast %47 : tensor<64x1x!blk.ptr<f16>, #blocked3> -> tensor<64x64x!blk.ptr<f16>, #blocked3>
  %49 = blk.expand_dims %31 {axis = 0 : i32} : tensor<64xi32, #slice> -> tensor<1x64xi32, #blocked>
  %50 = blk.broadcast %49 : tensor<1x64xi32, #blocked> -> tensor<64x64xi32, #blocked>
  %51 = blkgpu.convert_layout %50 : tensor<64x64xi32, #blocked> -> tensor<64x64xi32, #blocked3>
  %52 = blk.addptr %48, %51 : tensor<64x64x!blk.ptr<f16>, #blocked3>, tensor<64x64xi32, #blocked3>
  %53 = blkgpu.convert_layout %52 : tensor<64x64x!blk.ptr<f16>, #blocked3> -> tensor<64x64x!blk.ptr<f16>, #blocked1>
  %54 = arith.addi %arg5, %c63_i32 : i32
  %55 = arith.divsi %54, %c64_i32 : i32
  %56 = arith.muli %arg8, %c64_i32 : i32
  %57 = blk.splat %56 : i32 -> tensor<64x64xi32, #blocked1>
  %58 = blkgpu.convert_layout %cst_0 : tensor<128x64xf32, #blocked1> -> tensor<128x64xf32, #mma>
  %59:3 = scf.for %arg12 = %c0_i32 to %55 step %c1_i32 iter_args(%arg13 = %58, %arg14 = %42, %arg15 = %53) -> (tensor<128x64xf32, #mma>, tensor<128x64x!blk.ptr<f16>, #blocked1>, tensor<64x64x!blk.ptr<f16>, #blocked1>)  : i32 {
    %82 = arith.muli %arg12, %c64_i32 : i32
    %83 = arith.subi %arg5, %82 : i32
    %84 = blk.splat %83 : i32 -> tensor<1x64xi32, #blocked>
    %85 = arith.cmpi slt, %38, %84 : tensor<1x64xi32, #blocked>
    %86 = blk.broadcast %85 : tensor<1x64xi1, #blocked> -> tensor<128x64xi1, #blocked>
    %87 = blkgpu.convert_layout %86 : tensor<128x64xi1, #blocked> -> tensor<128x64xi1, #blocked1>
    %88 = blk.load %arg14, %87, %cst_1 {blkgpu.align = array<i64: 2, 16>, blkgpu.contiguity = array<i64: 1, 64>, blkgpu.mask_constancy = array<i64: 128, 16>} : tensor<128x64x!blk.ptr<f16>, #blocked1>
    %89 = blk.splat %83 : i32 -> tensor<64x1xi32, #blocked3>
    %90 = arith.cmpi slt, %44, %89 : tensor<64x1xi32, #blocked3>
    %91 = blk.broadcast %90 : tensor<64x1xi1, #blocked3> -> tensor<64x64xi1, #blocked3>
    %92 = blkgpu.convert_layout %91 : tensor<64x64xi1, #blocked3> -> tensor<64x64xi1, #blocked1>
    %93 = blk.load %arg15, %92, %cst_2 {blkgpu.align = array<i64: 2, 16>, blkgpu.contiguity = array<i64: 1, 16>, blkgpu.mask_constancy = array<i64: 16, 64>} : tensor<64x64x!blk.ptr<f16>, #blocked1>
    %94 = blkgpu.local_alloc %88 : tensor<128x64xf16, #blocked1> -> !blkgpu.memdesc<128x64xf16, #shared>
    %95 = blkgpu.local_alloc %93 : tensor<64x64xf16, #blocked1> -> !blkgpu.memdesc<64x64xf16, #shared>
    %96 = blkgpu.wgmma %94, %95, %arg13 : !blkgpu.memdesc<128x64xf16, #shared>, !blkgpu.memdesc<64x64xf16, #shared>, tensor<128x64xf32, #mma> -> tensor<128x64xf32, #mma>
    %97 = blk.addptr %arg14, %cst : tensor<128x64x!blk.ptr<f16>, #blocked1>, tensor<128x64xi32, #blocked1>
    %98 = blk.addptr %arg15, %57 : tensor<64x64x!blk.ptr<f16>, #blocked1>, tensor<64x64xi32, #blocked1>
    scf.yield %96, %97, %98 : tensor<128x64xf32, #mma>, tensor<128x64x!blk.ptr<f16>, #blocked1>, tensor<64x64x!blk.ptr<f16>, #blocked1>
  }
  %60 = arith.truncf %59#0 : tensor<128x64xf32, #mma> to tensor<128x64xf16, #mma>
  %61 = blkgpu.convert_layout %60 : tensor<128x64xf16, #mma> -> tensor<128x64xf16, #blocked1>
  %62 = blk.splat %arg2 : !blk.ptr<f16> -> tensor<128x1x!blk.ptr<f16>, #blocked3>
  %63 = blk.expand_dims %18 {axis = 1 : i32} : tensor<128xi32, #slice2> -> tensor<128x1xi32, #blocked3>
  %64 = blk.splat %arg10 : i32 -> tensor<128x1xi32, #blocked3>
  %65 = arith.muli %63, %64 : tensor<128x1xi32, #blocked3>
  %66 = blk.addptr %62, %65 : tensor<128x1x!blk.ptr<f16>, #blocked3>, tensor<128x1xi32, #blocked3>
  %67 = blk.broadcast %66 : tensor<128x1x!blk.ptr<f16>, #blocked3> -> tensor<128x64x!blk.ptr<f16>, #blocked3>
  %68 = blk.expand_dims %28 {axis = 0 : i32} : tensor<64xi32, #slice> -> tensor<1x64xi32, #blocked>
  %69 = blk.broadcast %68 : tensor<1x64xi32, #blocked> -> tensor<128x64xi32, #blocked>
  %70 = blkgpu.convert_layout %69 : tensor<128x64xi32, #blocked> -> tensor<128x64xi32, #blocked3>
  %71 = blk.addptr %67, %70 : tensor<128x64x!blk.ptr<f16>, #blocked3>, tensor<128x64xi32, #blocked3>
  %72 = blkgpu.convert_layout %71 : tensor<128x64x!blk.ptr<f16>, #blocked3> -> tensor<128x64x!blk.ptr<f16>, #blocked1>
  %73 = blk.splat %arg3 : i32 -> tensor<128x1xi32, #blocked3>
  %74 = arith.cmpi slt, %63, %73 : tensor<128x1xi32, #blocked3>
  %75 = blk.broadcast %74 : tensor<128x1xi1, #blocked3> -> tensor<128x64xi1, #blocked3>
  %76 = blk.splat %arg4 : i32 -> tensor<1x64xi32, #blocked>
  %77 = arith.cmpi slt, %68, %76 : tensor<1x64xi32, #blocked>
  %78 = blk.broadcast %77 : tensor<1x64xi1, #blocked> -> tensor<128x64xi1, #blocked>
  %79 = blkgpu.convert_layout %78 : tensor<128x64xi1, #blocked> -> tensor<128x64xi1, #blocked3>
  %80 = arith.andi %75, %79 : tensor<128x64xi1, #blocked3>
  %81 = blkgpu.convert_layout %80 : tensor<128x64xi1, #blocked3> -> tensor<128x64xi1, #blocked1>
  blk.store %72, %61, %81 {blkgpu.align = array<i64: 2, 16>, blkgpu.contiguity = array<i64: 1, 64>, blkgpu.mask_constancy = array<i64: 1, 16>} : tensor<128x64x!blk.ptr<f16>, #blocked1>
  return
}

// -----

// Attention's form (a scalar offset of the induction variable added to
// the pointer argument, a constant row stride D = 64, unmasked rows, the
// tile read through trans): one tensor map whose rows are unbounded
// (2^31 - 1: the load reads every row it addresses) and whose columns are
// exactly the box; nothing depends on the arguments, so the loop is not
// versioned. The box is written into the slot's transposed view. The
// wgmma (Q is no ring slot) is synchronous, so the copies come first.

// CHECK-LABEL: func.func @attention_style
// CHECK: blkgpu.tensor_map %arg1[%{{.*}}, %{{.*}}] strides[%{{.*}}] {box = array<i64: 64, 64>, swizzle = 128 : i32}
// CHECK-NOT: scf.if
// CHECK: blkgpu.memdesc_trans
// CHECK: blkgpu.tma_load
// CHECK: scf.for
// CHECK: blkgpu.mbarrier_wait
// CHECK: blkgpu.mbarrier_expect %{{.*}}, %{{.*}} {bytes = 8192 : i32}
// CHECK: blkgpu.memdesc_trans
// CHECK: blkgpu.tma_load
// CHECK: blkgpu.wgmma
// CHECK-NOT: blkgpu.async_copy

#blocked = #blkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [32, 1], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked1 = #blkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#blocked2 = #blkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#blocked3 = #blkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [2, 2], order = [1, 0]}>
#blocked4 = #blkgpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [8, 4], warpsPerCTA = [1, 4], order = [0, 1]}>
#blocked5 = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#mma = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 64}>
#shared = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#shared1 = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], pad = 0, block = 64}>
#slice = #blkgpu.slice<{dim = 1, parent = #blocked}>
#slice1 = #blkgpu.slice<{dim = 0, parent = #blocked3}>
func.func @attention_style(%arg0: !blk.ptr<f16> {blk.aligned = 16 : i32}, %arg1: !blk.ptr<f16> {blk.aligned = 16 : i32}, %arg2: !blk.ptr<f32> {blk.aligned = 16 : i32}, %arg3: i32) attributes {blk.num_stages = 2 : i32, blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %c64_i32 = arith.constant 64 : i32
  %cst = arith.constant dense<64> : tensor<64x1xi32, #blocked>
  %cst_0 = arith.constant dense<0.000000e+00> : tensor<64x64xf32, #blocked1>
  %c0_i32 = arith.constant 0 : i32
  %0 = blk.program_id 0
  %1 = arith.muli %0, %c64_i32 : i32
  %2 = blk.splat %1 : i32 -> tensor<64xi32, #blocked2>
  %3 = blk.make_range 0, 64 : tensor<64xi32, #blocked2>
  %4 = blkgpu.convert_layout %3 : tensor<64xi32, #blocked2> -> tensor<64xi32, #slice>
  %5 = blkgpu.convert_layout %3 : tensor<64xi32, #blocked2> -> tensor<64xi32, #slice1>
  %6 = arith.addi %2, %3 : tensor<64xi32, #blocked2>
  %7 = blkgpu.convert_layout %6 : tensor<64xi32, #blocked2> -> tensor<64xi32, #slice>
  %8 = blk.splat %arg0 : !blk.ptr<f16> -> tensor<64x1x!blk.ptr<f16>, #blocked>
  %9 = blk.expand_dims %7 {axis = 1 : i32} : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
  %10 = arith.muli %9, %cst : tensor<64x1xi32, #blocked>
  %11 = blk.addptr %8, %10 : tensor<64x1x!blk.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
  %12 = blk.broadcast %11 : tensor<64x1x!blk.ptr<f16>, #blocked> -> tensor<64x64x!blk.ptr<f16>, #blocked>
  %13 = blk.expand_dims %5 {axis = 0 : i32} : tensor<64xi32, #slice1> -> tensor<1x64xi32, #blocked3>
  %14 = blk.broadcast %13 : tensor<1x64xi32, #blocked3> -> tensor<64x64xi32, #blocked3>
  %15 = blkgpu.convert_layout %14 : tensor<64x64xi32, #blocked3> -> tensor<64x64xi32, #blocked>
  %16 = blk.addptr %12, %15 : tensor<64x64x!blk.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
  %17 = blkgpu.convert_layout %16 : tensor<64x64x!blk.ptr<f16>, #blocked> -> tensor<64x64x!blk.ptr<f16>, #blocked1>
  %18 = blk.load %17 {blkgpu.align = array<i64: 2, 16>, blkgpu.contiguity = array<i64: 1, 64>, blkgpu.mask_constancy = array<i64: 64, 64>} : tensor<64x64x!blk.ptr<f16>, #blocked1>
  %19 = blk.expand_dims %4 {axis = 1 : i32} : tensor<64xi32, #slice> -> tensor<64x1xi32, #blocked>
  %20 = arith.muli %19, %cst : tensor<64x1xi32, #blocked>
  %21 = blkgpu.local_alloc %18 : tensor<64x64xf16, #blocked1> -> !blkgpu.memdesc<64x64xf16, #shared>
  %22 = blkgpu.convert_layout %cst_0 : tensor<64x64xf32, #blocked1> -> tensor<64x64xf32, #mma>
  %23 = scf.for %arg4 = %c0_i32 to %arg3 step %c64_i32 iter_args(%arg5 = %22) -> (tensor<64x64xf32, #mma>)  : i32 {
    %30 = arith.muli %arg4, %c64_i32 : i32
    %31 = blk.addptr %arg1, %30 : !blk.ptr<f16>, i32
    %32 = blk.splat %31 : !blk.ptr<f16> -> tensor<64x1x!blk.ptr<f16>, #blocked>
    %33 = blk.addptr %32, %20 : tensor<64x1x!blk.ptr<f16>, #blocked>, tensor<64x1xi32, #blocked>
    %34 = blk.broadcast %33 : tensor<64x1x!blk.ptr<f16>, #blocked> -> tensor<64x64x!blk.ptr<f16>, #blocked>
    %35 = blk.addptr %34, %15 : tensor<64x64x!blk.ptr<f16>, #blocked>, tensor<64x64xi32, #blocked>
    %36 = blkgpu.convert_layout %35 : tensor<64x64x!blk.ptr<f16>, #blocked> -> tensor<64x64x!blk.ptr<f16>, #blocked1>
    %37 = blk.load %36 {blkgpu.align = array<i64: 2, 16>, blkgpu.contiguity = array<i64: 1, 64>, blkgpu.mask_constancy = array<i64: 64, 64>} : tensor<64x64x!blk.ptr<f16>, #blocked1>
    %38 = blk.trans %37 {order = array<i32: 1, 0>} : tensor<64x64xf16, #blocked1> -> tensor<64x64xf16, #blocked4>
    %39 = blkgpu.local_alloc %38 : tensor<64x64xf16, #blocked4> -> !blkgpu.memdesc<64x64xf16, #shared1>
    %40 = blkgpu.wgmma %21, %39, %arg5 : !blkgpu.memdesc<64x64xf16, #shared>, !blkgpu.memdesc<64x64xf16, #shared1>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
    scf.yield %40 : tensor<64x64xf32, #mma>
  }
  %24 = blkgpu.convert_layout %23 : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #blocked5>
  %25 = blk.splat %arg2 : !blk.ptr<f32> -> tensor<64x1x!blk.ptr<f32>, #blocked>
  %26 = blk.addptr %25, %10 : tensor<64x1x!blk.ptr<f32>, #blocked>, tensor<64x1xi32, #blocked>
  %27 = blk.broadcast %26 : tensor<64x1x!blk.ptr<f32>, #blocked> -> tensor<64x64x!blk.ptr<f32>, #blocked>
  %28 = blk.addptr %27, %15 : tensor<64x64x!blk.ptr<f32>, #blocked>, tensor<64x64xi32, #blocked>
  %29 = blkgpu.convert_layout %28 : tensor<64x64x!blk.ptr<f32>, #blocked> -> tensor<64x64x!blk.ptr<f32>, #blocked5>
  blk.store %29, %24 {blkgpu.align = array<i64: 4, 16>, blkgpu.contiguity = array<i64: 1, 64>, blkgpu.mask_constancy = array<i64: 64, 64>} : tensor<64x64x!blk.ptr<f32>, #blocked5>
  return
}
