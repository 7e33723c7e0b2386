// blkgpu-propagate-mma-layouts with stores-from-registers (blkc
// --stores-from-registers) on hand-written blkgpu IR: a store of an
// accumulator whose pointer and mask are index arithmetic takes the mma
// layout; without the option the conversion stays before it (the default).
// RUN: blk-opt %s --blkgpu-propagate-mma-layouts="stores-from-registers=true" | FileCheck %s
// RUN: blk-opt %s --blkgpu-propagate-mma-layouts="stores-from-registers=true" --blkgpu-remove-layout-conversions | FileCheck %s --check-prefix=REMAT
// RUN: blk-opt %s --blkgpu-propagate-mma-layouts | FileCheck %s --check-prefix=OFF

#b = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#b2 = #blkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #blkgpu.slice<{dim = 1, parent = #b}>
#cols = #blkgpu.slice<{dim = 0, parent = #b}>
#mma = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 64}>
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>

// CHECK-DAG: #[[MMA:mma[0-9]*]] = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 64}>

// Attention's output: the accumulator cast to f16 and stored under a row mask,
// through pointers made from make_range and splat (with the conversions
// that blkgpu-coalesce leaves between the layouts): the store itself takes
// the mma layout, its pointer and mask are converted (index arithmetic,
// made again there by blkgpu-remove-layout-conversions), and the
// accumulator goes from its registers straight to memory. Where the
// pointers are handed in (@handed_in) the conversion of the value stays
// before the store.
// CHECK-LABEL: func.func @store_from_registers
// CHECK: %[[ACC:.*]] = blkgpu.wgmma
// CHECK: %[[H:.*]] = arith.truncf %[[ACC]] : tensor<64x64xf32, #[[MMA]]> to tensor<64x64xf16, #[[MMA]]>
// CHECK-NOT: convert_layout %[[H]]
// CHECK: %[[P:.*]] = blkgpu.convert_layout %{{.*}} : tensor<64x64x!blk.ptr<f16>, #{{.*}}> -> tensor<64x64x!blk.ptr<f16>, #[[MMA]]>
// CHECK: %[[K:.*]] = blkgpu.convert_layout %{{.*}} : tensor<64x64xi1, #{{.*}}> -> tensor<64x64xi1, #[[MMA]]>
// CHECK: blk.store %[[P]], %[[H]], %[[K]] : tensor<64x64x!blk.ptr<f16>, #[[MMA]]>
// REMAT-LABEL: func.func @store_from_registers
// REMAT-NOT: convert_layout
// REMAT: blk.store {{.*}} : tensor<64x64x!blk.ptr<f16>, #mma>
// REMAT-NOT: convert_layout
// REMAT: return
// OFF-LABEL: func.func @store_from_registers
// OFF: %[[HB:.*]] = blkgpu.convert_layout %{{.*}} : tensor<64x64xf16, #mma> -> tensor<64x64xf16, #{{.*}}>
// OFF: blk.store %{{.*}}, %[[HB]], %{{.*}} : tensor<64x64x!blk.ptr<f16>, #{{.*}}>
func.func @store_from_registers(%qb: !blkgpu.memdesc<64x64xf16, #nv>,
                                %kb: !blkgpu.memdesc<64x64xf16, #nv>, %o: !blk.ptr<f16>,
                                %n: i32)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %acc = blkgpu.wgmma %qb, %kb, %zero : !blkgpu.memdesc<64x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  %ab = blkgpu.convert_layout %acc : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #b>
  %h = arith.truncf %ab : tensor<64x64xf32, #b> to tensor<64x64xf16, #b>
  %r = blk.make_range 0, 64 : tensor<64xi32, #rows>
  %re = blk.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #rows> -> tensor<64x1xi32, #b>
  %c64 = arith.constant dense<64> : tensor<64x1xi32, #b>
  %rm = arith.muli %re, %c64 : tensor<64x1xi32, #b>
  %rb = blk.broadcast %rm : tensor<64x1xi32, #b> -> tensor<64x64xi32, #b>
  %c = blk.make_range 0, 64 : tensor<64xi32, #cols>
  %ce = blk.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #b>
  %cb = blk.broadcast %ce : tensor<1x64xi32, #b> -> tensor<64x64xi32, #b>
  %off = arith.addi %rb, %cb : tensor<64x64xi32, #b>
  %os = blk.splat %o : !blk.ptr<f16> -> tensor<64x64x!blk.ptr<f16>, #b>
  %op = blk.addptr %os, %off : tensor<64x64x!blk.ptr<f16>, #b>, tensor<64x64xi32, #b>
  %pc = blkgpu.convert_layout %op : tensor<64x64x!blk.ptr<f16>, #b> -> tensor<64x64x!blk.ptr<f16>, #b2>
  %ns = blk.splat %n : i32 -> tensor<64xi32, #rows>
  %ok = arith.cmpi slt, %r, %ns : tensor<64xi32, #rows>
  %oke = blk.expand_dims %ok {axis = 1 : i32} : tensor<64xi1, #rows> -> tensor<64x1xi1, #b>
  %okb = blk.broadcast %oke : tensor<64x1xi1, #b> -> tensor<64x64xi1, #b>
  %hc = blkgpu.convert_layout %h : tensor<64x64xf16, #b> -> tensor<64x64xf16, #b2>
  %okc = blkgpu.convert_layout %okb : tensor<64x64xi1, #b> -> tensor<64x64xi1, #b2>
  blk.store %pc, %hc, %okc : tensor<64x64x!blk.ptr<f16>, #b2>
  return
}

// CHECK-LABEL: func.func @handed_in
// CHECK: %[[S:.*]] = blkgpu.wgmma
// CHECK: %[[SB:.*]] = blkgpu.convert_layout %[[S]] : tensor<64x64xf32, #[[MMA]]> -> tensor<64x64xf32, #{{.*}}>
// CHECK: blk.store %{{.*}}, %[[SB]] : tensor<64x64x!blk.ptr<f32>, #{{.*}}>
func.func @handed_in(%qb: !blkgpu.memdesc<64x64xf16, #nv>, %kb: !blkgpu.memdesc<64x64xf16, #nv>,
                     %p: tensor<64x64x!blk.ptr<f32>, #b>)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %s = blkgpu.wgmma %qb, %kb, %zero : !blkgpu.memdesc<64x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  %sb = blkgpu.convert_layout %s : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #b>
  blk.store %p, %sb : tensor<64x64x!blk.ptr<f32>, #b>
  return
}
