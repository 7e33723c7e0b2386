// TMA copies and mbarriers: blkgpu.tensor_map, tma_load, mbarrier_init,
// mbarrier_expect and mbarrier_wait round-trip and verify.
// RUN: blk-opt %s | blk-opt | FileCheck %s
// RUN: blk-opt %S/Inputs/tma-invalid.mlir --split-input-file --verify-diagnostics

#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#bar = #blkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>

// CHECK-LABEL: func.func @ring
// CHECK: %[[MAP:.*]] = blkgpu.tensor_map %arg0[%arg1, %arg2] strides[%arg3] {box = array<i64: 64, 64>, swizzle = 128 : i32} : !blk.ptr<f16>, (i32, i32), (i32)
// CHECK: blkgpu.mbarrier_init %[[BARS:.*]] {count = 1 : i32} : !blkgpu.memdesc<3x1xi64, #{{shared[0-9]*}}>
// CHECK: blkgpu.mbarrier_expect %[[B:.*]], %{{.*}} {bytes = 32768 : i32} : !blkgpu.memdesc<1xi64, #{{shared[0-9]*}}>
// CHECK: blkgpu.tma_load %[[MAP]][%{{.*}}, %{{.*}}], %{{.*}}, %[[B]], %{{.*}} : !blkgpu.memdesc<64x256xf16, #{{shared[0-9]*}}>, !blkgpu.memdesc<1xi64, #{{shared[0-9]*}}>
// CHECK: blkgpu.tma_load %[[MAP]][%{{.*}}, %{{.*}}], %{{.*}}, %[[B]] : !blkgpu.memdesc<64x256xf16, #{{shared[0-9]*}}>
// CHECK: blkgpu.mbarrier_wait %[[B]], %{{.*}} : !blkgpu.memdesc<1xi64, #{{shared[0-9]*}}>
func.func @ring(%base: !blk.ptr<f16>, %rows: i32, %cols: i32, %stride: i32, %i: i32, %p: i1)
    attributes {blkgpu.num_warps = 8 : i32} {
  %map = blkgpu.tensor_map %base[%rows, %cols] strides[%stride] {box = array<i64: 64, 64>, swizzle = 128 : i32} : !blk.ptr<f16>, (i32, i32), (i32)
  %bars = blkgpu.local_alloc -> !blkgpu.memdesc<3x1xi64, #bar>
  blkgpu.mbarrier_init %bars {count = 1 : i32} : !blkgpu.memdesc<3x1xi64, #bar>
  %ring = blkgpu.local_alloc -> !blkgpu.memdesc<3x64x256xf16, #nv>
  %slot = blkgpu.memdesc_index %ring[%i] : !blkgpu.memdesc<3x64x256xf16, #nv> -> !blkgpu.memdesc<64x256xf16, #nv>
  %b = blkgpu.memdesc_index %bars[%i] : !blkgpu.memdesc<3x1xi64, #bar> -> !blkgpu.memdesc<1xi64, #bar>
  blkgpu.mbarrier_expect %b, %p {bytes = 32768 : i32} : !blkgpu.memdesc<1xi64, #bar>
  blkgpu.tma_load %map[%i, %i], %slot, %b, %p : !blkgpu.memdesc<64x256xf16, #nv>, !blkgpu.memdesc<1xi64, #bar>
  blkgpu.tma_load %map[%i, %i], %slot, %b : !blkgpu.memdesc<64x256xf16, #nv>, !blkgpu.memdesc<1xi64, #bar>
  blkgpu.mbarrier_wait %b, %i : !blkgpu.memdesc<1xi64, #bar>
  return
}
