// blkgpu-accelerate-matmul on hand-written blkgpu IR for targets with
// mma.sync but no wgmma (sm_80, sm_86, sm_89, sm_90): a dot of whole 16 x 16
// warp tiles becomes blkgpu.mma_sync on NVMMA buffers with a version-2 mma
// accumulator kept across its loop; the warps split the longer side of the
// warp tile until all are placed; tf32 and i8 operands are K-major; exact
// f32, fp8 and tiles smaller than the warps' stay on CUDA cores.
// RUN: blk-opt %s --blkgpu-accelerate-matmul=arch=sm_80 | FileCheck %s
// RUN: blk-opt %s --blkgpu-accelerate-matmul=arch=sm_89 | FileCheck %s

#a = #blkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #blkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#bt = #blkgpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#c = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>
#s = #blkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#a8 = #blkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [8, 1], order = [1, 0]}>
#bt8 = #blkgpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 8], order = [0, 1]}>
#c8 = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [8, 1], order = [1, 0]}>

// CHECK-DAG: #[[MMA22:mma[0-9]*]] = #blkgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrN = 8}>
// CHECK-DAG: #[[MMA14:mma[0-9]*]] = #blkgpu.mma<{version = 2, warpsPerCTA = [1, 4], instrN = 8}>
// CHECK-DAG: #[[MMA41:mma[0-9]*]] = #blkgpu.mma<{version = 2, warpsPerCTA = [4, 1], instrN = 8}>
// CHECK-DAG: #[[MMA42:mma[0-9]*]] = #blkgpu.mma<{version = 2, warpsPerCTA = [4, 2], instrN = 8}>
// CHECK-DAG: #[[SH:shared[0-9]*]] = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
// CHECK-DAG: #[[SHK:shared[0-9]*]] = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], pad = 0, block = 64}>
// CHECK-DAG: #[[TA:shared[0-9]*]] = #blkgpu.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 32}>
// CHECK-DAG: #[[TB:shared[0-9]*]] = #blkgpu.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1], pad = 0, block = 32}>
// CHECK-DAG: #[[IA:shared[0-9]*]] = #blkgpu.shared<{vec = 16, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 128}>
// CHECK-DAG: #[[IB:shared[0-9]*]] = #blkgpu.shared<{vec = 16, perPhase = 1, maxPhase = 8, order = [0, 1], pad = 0, block = 128}>

// 128 x 128 on 4 warps: 2 x 2 warps of 64 x 64; A [128, 64] and B [64, 128]
// keep their registers' contiguous dim (B is N-major: ldmatrix .trans).
// CHECK-LABEL: func.func @loop
// CHECK: %[[INIT:.*]] = blkgpu.convert_layout %{{.*}} -> tensor<128x128xf32, #[[MMA22]]>
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<128x128xf32, #[[MMA22]]>)
// CHECK: %[[AB:.*]] = blkgpu.local_alloc %{{.*}} -> !blkgpu.memdesc<128x64xf16, #[[SH]]>
// CHECK: %[[BB:.*]] = blkgpu.local_alloc %{{.*}} -> !blkgpu.memdesc<64x128xf16, #[[SH]]>
// CHECK-NEXT: %[[D:.*]] = blkgpu.mma_sync %[[AB]], %[[BB]], %[[ACC]]
// CHECK-NEXT: scf.yield %[[D]] : tensor<128x128xf32, #[[MMA22]]>
// CHECK: blkgpu.convert_layout %[[R]] : tensor<128x128xf32, #[[MMA22]]> -> tensor<128x128xf32, #{{.*}}>
// CHECK-NOT: wgmma
func.func @loop(%pa: tensor<128x64x!blk.ptr<f16>, #a>, %pb: tensor<64x128x!blk.ptr<f16>, #b>,
                %pc: tensor<128x128x!blk.ptr<f32>, #c>, %n: i32)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<128x128xf32, #c>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32, #c>) : i32 {
    %x = blk.load %pa : tensor<128x64x!blk.ptr<f16>, #a>
    %y = blk.load %pb : tensor<64x128x!blk.ptr<f16>, #b>
    %d = blk.dot %x, %y, %acc : tensor<128x64xf16, #a> * tensor<64x128xf16, #b> -> tensor<128x128xf32, #c>
    scf.yield %d : tensor<128x128xf32, #c>
  }
  blk.store %pc, %r : tensor<128x128x!blk.ptr<f32>, #c>
  return
}

// A wide tile splits N: 64 x 256 on 4 warps is 1 x 4 warps of 64 x 64; on
// 8 warps 128 x 128 is 4 x 2 (M first when the sides are equal). A B tile
// whose registers run along K (a transposed load) is stored K-major.
// CHECK-LABEL: func.func @shapes
// CHECK: blkgpu.mma_sync {{.*}} -> tensor<64x256xf32, #[[MMA14]]>
// CHECK-LABEL: func.func @eight_warps
// CHECK: blkgpu.local_alloc %{{.*}} -> !blkgpu.memdesc<64x128xf16, #[[SHK]]>
// CHECK: blkgpu.mma_sync {{.*}} -> tensor<128x128xf32, #[[MMA42]]>
func.func @shapes(%x: tensor<64x64xf16, #s>, %y: tensor<64x256xf16, #s>, %acc: tensor<64x256xf32, #s>,
                  %p: tensor<64x256x!blk.ptr<f32>, #s>)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %d = blk.dot %x, %y, %acc : tensor<64x64xf16, #s> * tensor<64x256xf16, #s> -> tensor<64x256xf32, #s>
  blk.store %p, %d : tensor<64x256x!blk.ptr<f32>, #s>
  return
}
func.func @eight_warps(%x: tensor<128x64xf16, #a8>, %y: tensor<64x128xf16, #bt8>, %acc: tensor<128x128xf32, #c8>,
                       %p: tensor<128x128x!blk.ptr<f32>, #c8>)
    attributes {blk.num_warps = 8 : i32, blkgpu.num_warps = 8 : i32} {
  %d = blk.dot %x, %y, %acc : tensor<128x64xf16, #a8> * tensor<64x128xf16, #bt8> -> tensor<128x128xf32, #c8>
  blk.store %p, %d : tensor<128x128x!blk.ptr<f32>, #c8>
  return
}

// tf32 (the default precision of f32 operands) and i8 read K-major buffers
// whatever their registers hold: ldmatrix transposes only 16-bit elements.
// CHECK-LABEL: func.func @tf32_i8
// CHECK: blkgpu.local_alloc %{{.*}} -> !blkgpu.memdesc<64x32xf32, #[[TA]]>
// CHECK: blkgpu.local_alloc %{{.*}} -> !blkgpu.memdesc<32x64xf32, #[[TB]]>
// CHECK: blkgpu.mma_sync
// CHECK: blkgpu.local_alloc %{{.*}} -> !blkgpu.memdesc<64x128xi8, #[[IA]]>
// CHECK: blkgpu.local_alloc %{{.*}} -> !blkgpu.memdesc<128x64xi8, #[[IB]]>
// CHECK: blkgpu.mma_sync {{.*}} -> tensor<64x64xi32, #{{.*}}>
func.func @tf32_i8(%x: tensor<64x32xf32, #s>, %y: tensor<32x64xf32, #s>, %acc: tensor<64x64xf32, #s>,
                   %xi: tensor<64x128xi8, #s>, %yi: tensor<128x64xi8, #s>, %acci: tensor<64x64xi32, #s>,
                   %p: tensor<64x64x!blk.ptr<f32>, #s>, %q: tensor<64x64x!blk.ptr<i32>, #s>)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %d = blk.dot %x, %y, %acc {precision = "tf32"} : tensor<64x32xf32, #s> * tensor<32x64xf32, #s> -> tensor<64x64xf32, #s>
  %e = blk.dot %xi, %yi, %acci : tensor<64x128xi8, #s> * tensor<128x64xi8, #s> -> tensor<64x64xi32, #s>
  blk.store %p, %d : tensor<64x64x!blk.ptr<f32>, #s>
  blk.store %q, %e : tensor<64x64x!blk.ptr<i32>, #s>
  return
}

// Exact f32 ("ieee"), and tiles too small for 4 warps of 16 x 16 (32 x 16:
// two warp tiles) stay on CUDA cores.
// CHECK-LABEL: func.func @stays_fma
// CHECK-NOT: mma_sync
// CHECK: blk.dot
// CHECK: blk.dot
// CHECK-NOT: mma_sync
func.func @stays_fma(%x: tensor<64x32xf32, #s>, %y: tensor<32x64xf32, #s>, %acc: tensor<64x64xf32, #s>,
                     %h: tensor<32x32xf16, #s>, %g: tensor<32x16xf16, #s>, %acc2: tensor<32x16xf32, #s>,
                     %p: tensor<64x64x!blk.ptr<f32>, #s>, %q: tensor<32x16x!blk.ptr<f32>, #s>)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %d = blk.dot %x, %y, %acc {precision = "ieee"} : tensor<64x32xf32, #s> * tensor<32x64xf32, #s> -> tensor<64x64xf32, #s>
  %e = blk.dot %h, %g, %acc2 : tensor<32x32xf16, #s> * tensor<32x16xf16, #s> -> tensor<32x16xf32, #s>
  blk.store %p, %d : tensor<64x64x!blk.ptr<f32>, #s>
  blk.store %q, %e : tensor<32x16x!blk.ptr<f32>, #s>
  return
}

// A chain of dots (attention: S = Q·Kᵀ, P = f16(S) carried to the next
// iteration, O += P·V there) puts every warp along M: [4, 1] on 4 warps
// where a lone 64 x 64 dot gets [2, 2], so each warp holds whole rows of S
// and P is the next dot's A fragment in registers.
// Q, defined before the loop and 16 rows x 64 per warp (16 registers per
// thread), is converted once into that layout and read from registers.
// CHECK-LABEL: func.func @chain
// CHECK: %[[Q:.*]] = blkgpu.convert_layout %arg0 : tensor<64x64xf16, #{{.*}}> -> tensor<64x64xf16, #[[MMA41]]>
// CHECK: scf.for
// CHECK: blkgpu.mma_sync %[[Q]], %{{.*}} -> tensor<64x64xf32, #[[MMA41]]>
// CHECK: blkgpu.mma_sync {{.*}} -> tensor<64x64xf32, #[[MMA41]]>
// CHECK: scf.yield
// CHECK: blkgpu.mma_sync {{.*}} -> tensor<64x64xf32, #[[MMA41]]>
func.func @chain(%q: tensor<64x64xf16, #s>, %pk: tensor<64x64x!blk.ptr<f16>, #s>,
                 %pv: tensor<64x64x!blk.ptr<f16>, #s>, %po: tensor<64x64x!blk.ptr<f32>, #s>, %n: i32)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #s>
  %zp = arith.constant dense<0.0> : tensor<64x64xf16, #s>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%o = %zero, %p = %zp) -> (tensor<64x64xf32, #s>, tensor<64x64xf16, #s>) : i32 {
    %k = blk.load %pk : tensor<64x64x!blk.ptr<f16>, #s>
    %v = blk.load %pv : tensor<64x64x!blk.ptr<f16>, #s>
    %st = blk.dot %q, %k, %zero : tensor<64x64xf16, #s> * tensor<64x64xf16, #s> -> tensor<64x64xf32, #s>
    %o2 = blk.dot %p, %v, %o : tensor<64x64xf16, #s> * tensor<64x64xf16, #s> -> tensor<64x64xf32, #s>
    %pn = arith.truncf %st : tensor<64x64xf32, #s> to tensor<64x64xf16, #s>
    scf.yield %o2, %pn : tensor<64x64xf32, #s>, tensor<64x64xf16, #s>
  }
  %v = blk.load %pv : tensor<64x64x!blk.ptr<f16>, #s>
  %last = blk.dot %r#1, %v, %r#0 : tensor<64x64xf16, #s> * tensor<64x64xf16, #s> -> tensor<64x64xf32, #s>
  blk.store %po, %last : tensor<64x64x!blk.ptr<f32>, #s>
  return
}

// A wider invariant A (16 rows x 128 per warp: 32 registers per thread)
// stays in shared memory: more made ptxas spill (bench/NOTES.md, session 14).
// CHECK-LABEL: func.func @chain_wide_q
// CHECK-NOT: blkgpu.convert_layout %arg0
// CHECK: %[[QB:.*]] = blkgpu.local_alloc %arg0
// CHECK: scf.for
// CHECK: blkgpu.mma_sync %[[QB]]
func.func @chain_wide_q(%q: tensor<64x128xf16, #s>, %pk: tensor<128x64x!blk.ptr<f16>, #s>,
                        %pv: tensor<64x64x!blk.ptr<f16>, #s>, %po: tensor<64x64x!blk.ptr<f32>, #s>, %n: i32)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #s>
  %zp = arith.constant dense<0.0> : tensor<64x64xf16, #s>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%o = %zero, %p = %zp) -> (tensor<64x64xf32, #s>, tensor<64x64xf16, #s>) : i32 {
    %k = blk.load %pk : tensor<128x64x!blk.ptr<f16>, #s>
    %v = blk.load %pv : tensor<64x64x!blk.ptr<f16>, #s>
    %st = blk.dot %q, %k, %zero : tensor<64x128xf16, #s> * tensor<128x64xf16, #s> -> tensor<64x64xf32, #s>
    %o2 = blk.dot %p, %v, %o : tensor<64x64xf16, #s> * tensor<64x64xf16, #s> -> tensor<64x64xf32, #s>
    %pn = arith.truncf %st : tensor<64x64xf32, #s> to tensor<64x64xf16, #s>
    scf.yield %o2, %pn : tensor<64x64xf32, #s>, tensor<64x64xf16, #s>
  }
  blk.store %po, %r#0 : tensor<64x64x!blk.ptr<f32>, #s>
  return
}
