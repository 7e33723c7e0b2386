// blkgpu-accelerate-matmul on hand-written blkgpu IR: on sm_90a an f16 dot
// in a loop becomes wgmma on NVMMA buffers with the accumulator kept in the
// mma layout across the loop; dots wgmma cannot run go to mma.sync or stay
// on CUDA cores; sm_90 (no wgmma) runs them on mma.sync (more in
// accelerate-matmul-mma-sync.mlir).
// RUN: blk-opt %s --blkgpu-accelerate-matmul=arch=sm_90a | FileCheck %s
// RUN: blk-opt %s --blkgpu-accelerate-matmul=arch=sm_90 | FileCheck %s --check-prefix=SM90

#a = #blkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#b = #blkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#bt = #blkgpu.blocked<{sizePerThread = [8, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#c = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [1, 32], warpsPerCTA = [4, 1], order = [1, 0]}>

// A [128, 64] K-contiguous: 128-byte swizzle, one column block; B [64, 128]
// N-contiguous: 128-byte swizzle in 64-column blocks (MN-major).
// CHECK-DAG: #[[MMA:mma[0-9]*]] = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 128}>
// CHECK-DAG: #[[SH:shared[0-9]*]] = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
// CHECK-DAG: #[[SHK:shared[0-9]*]] = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], pad = 0, block = 64}>
// CHECK-DAG: #[[TA:shared[0-9]*]] = #blkgpu.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 32}>
// CHECK-DAG: #[[TB:shared[0-9]*]] = #blkgpu.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [0, 1], pad = 0, block = 32}>
// CHECK-DAG: #[[IA:shared[0-9]*]] = #blkgpu.shared<{vec = 16, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 128}>
// CHECK-DAG: #[[IB:shared[0-9]*]] = #blkgpu.shared<{vec = 16, perPhase = 1, maxPhase = 8, order = [0, 1], pad = 0, block = 128}>
// CHECK-LABEL: func.func @loop
// CHECK: %[[INIT:.*]] = blkgpu.convert_layout %{{.*}} : tensor<128x128xf32, #{{.*}}> -> tensor<128x128xf32, #[[MMA]]>
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<128x128xf32, #[[MMA]]>)
// CHECK: %[[AB:.*]] = blkgpu.local_alloc %{{.*}} : tensor<128x64xf16, #{{.*}}> -> !blkgpu.memdesc<128x64xf16, #[[SH]]>
// CHECK: %[[BB:.*]] = blkgpu.local_alloc %{{.*}} : tensor<64x128xf16, #{{.*}}> -> !blkgpu.memdesc<64x128xf16, #[[SH]]>
// CHECK-NEXT: %[[D:.*]] = blkgpu.wgmma %[[AB]], %[[BB]], %[[ACC]]
// CHECK-NEXT: scf.yield %[[D]] : tensor<128x128xf32, #[[MMA]]>
// CHECK: %[[OUT:.*]] = blkgpu.convert_layout %[[R]] : tensor<128x128xf32, #[[MMA]]> -> tensor<128x128xf32, #{{.*}}>
// CHECK: blk.store %{{.*}}, %[[OUT]]
// SM90-LABEL: func.func @loop
// SM90-NOT: wgmma
// SM90: scf.for
// SM90: blkgpu.mma_sync
// SM90-NOT: wgmma
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

// A B tile whose registers run along K (a transposed load) is stored K-major.
// CHECK-LABEL: func.func @k_major_b
// CHECK: blkgpu.local_alloc %{{.*}} -> !blkgpu.memdesc<64x128xf16, #[[SHK]]>
// CHECK: blkgpu.wgmma
// CHECK: blkgpu.convert_layout %{{.*}} : tensor<128x128xf32, #[[MMA]]> -> tensor<128x128xf32, #{{.*}}>
func.func @k_major_b(%x: tensor<128x64xf16, #a>, %y: tensor<64x128xf16, #bt>, %acc: tensor<128x128xf32, #c>,
                     %pc: tensor<128x128x!blk.ptr<f32>, #c>)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %d = blk.dot %x, %y, %acc : tensor<128x64xf16, #a> * tensor<64x128xf16, #bt> -> tensor<128x128xf32, #c>
  blk.store %pc, %d : tensor<128x128x!blk.ptr<f32>, #c>
  return
}

#s = #blkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
// f32 operands computed exactly (no precision, which means "ieee", or
// "ieee") stay on CUDA cores; M < 64, too few rows for a warpgroup, runs
// on mma.sync.
// CHECK-LABEL: func.func @stays_fma
// CHECK-NOT: wgmma
// CHECK: blk.dot
// CHECK: blk.dot
// CHECK-NOT: blk.dot
// CHECK: blkgpu.mma_sync
// CHECK-NOT: wgmma
func.func @stays_fma(%x: tensor<64x32xf32, #s>, %y: tensor<32x64xf32, #s>, %acc: tensor<64x64xf32, #s>,
                     %h: tensor<32x32xf16, #s>, %acc2: tensor<32x32xf32, #s>,
                     %p: tensor<64x64x!blk.ptr<f32>, #s>, %q: tensor<32x32x!blk.ptr<f32>, #s>)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %d = blk.dot %x, %y, %acc : tensor<64x32xf32, #s> * tensor<32x64xf32, #s> -> tensor<64x64xf32, #s>
  %d3 = blk.dot %x, %y, %d {precision = "ieee"} : tensor<64x32xf32, #s> * tensor<32x64xf32, #s> -> tensor<64x64xf32, #s>
  %e = blk.dot %h, %h, %acc2 : tensor<32x32xf16, #s> * tensor<32x32xf16, #s> -> tensor<32x32xf32, #s>
  blk.store %p, %d3 : tensor<64x64x!blk.ptr<f32>, #s>
  blk.store %q, %e : tensor<32x32x!blk.ptr<f32>, #s>
  return
}

// precision "tf32": f32 operands on wgmma, both K-major whatever their
// registers hold (wgmma transposes only 16-bit operands): 4-element
// groups, 128-byte swizzle in 32-element column blocks (TA and TB above).
// CHECK-LABEL: func.func @tf32
// CHECK: blkgpu.local_alloc %{{.*}} : tensor<64x32xf32, #{{.*}}> -> !blkgpu.memdesc<64x32xf32, #[[TA]]>
// CHECK: blkgpu.local_alloc %{{.*}} : tensor<32x64xf32, #{{.*}}> -> !blkgpu.memdesc<32x64xf32, #[[TB]]>
// CHECK: blkgpu.wgmma
// SM90-LABEL: func.func @tf32
// SM90-NOT: wgmma
// SM90: blkgpu.mma_sync
func.func @tf32(%x: tensor<64x32xf32, #s>, %y: tensor<32x64xf32, #s>, %acc: tensor<64x64xf32, #s>,
                %p: tensor<64x64x!blk.ptr<f32>, #s>)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %d = blk.dot %x, %y, %acc {precision = "tf32"} : tensor<64x32xf32, #s> * tensor<32x64xf32, #s> -> tensor<64x64xf32, #s>
  blk.store %p, %d : tensor<64x64x!blk.ptr<f32>, #s>
  return
}

// i8 operands accumulate in i32 on wgmma, K-major like tf32 (IA and IB
// above: 16-element groups, 128-byte swizzle, 128-element column blocks).
// CHECK-LABEL: func.func @i8
// CHECK: blkgpu.local_alloc %{{.*}} : tensor<64x128xi8, #{{.*}}> -> !blkgpu.memdesc<64x128xi8, #[[IA]]>
// CHECK: blkgpu.local_alloc %{{.*}} : tensor<128x64xi8, #{{.*}}> -> !blkgpu.memdesc<128x64xi8, #[[IB]]>
// CHECK: blkgpu.wgmma {{.*}} -> tensor<64x64xi32, #[[MMA64:mma[0-9]*]]>
func.func @i8(%x: tensor<64x128xi8, #s>, %y: tensor<128x64xi8, #s>, %acc: tensor<64x64xi32, #s>,
              %p: tensor<64x64x!blk.ptr<i32>, #s>)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %d = blk.dot %x, %y, %acc : tensor<64x128xi8, #s> * tensor<128x64xi8, #s> -> tensor<64x64xi32, #s>
  blk.store %p, %d : tensor<64x64x!blk.ptr<i32>, #s>
  return
}

// fp8 operands (e4m3 x e5m2 mixed here) accumulate in f32 on wgmma, K-major
// like i8, in the same buffers' layouts (IA and IB: one byte per element).
// CHECK-LABEL: func.func @fp8
// CHECK: blkgpu.local_alloc %{{.*}} : tensor<64x128xf8E4M3FN, #{{.*}}> -> !blkgpu.memdesc<64x128xf8E4M3FN, #[[IA]]>
// CHECK: blkgpu.local_alloc %{{.*}} : tensor<128x64xf8E5M2, #{{.*}}> -> !blkgpu.memdesc<128x64xf8E5M2, #[[IB]]>
// CHECK: blkgpu.wgmma {{.*}} -> tensor<64x64xf32, #[[MMA64]]>
func.func @fp8(%x: tensor<64x128xf8E4M3FN, #s>, %y: tensor<128x64xf8E5M2, #s>, %acc: tensor<64x64xf32, #s>,
               %p: tensor<64x64x!blk.ptr<f32>, #s>)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %d = blk.dot %x, %y, %acc : tensor<64x128xf8E4M3FN, #s> * tensor<128x64xf8E5M2, #s> -> tensor<64x64xf32, #s>
  blk.store %p, %d : tensor<64x64x!blk.ptr<f32>, #s>
  return
}

// precision "tf32x3": each operand split into a tf32 part (the bits tf32
// keeps) and the rest, three wgmmas chained on one accumulator, the small
// products first: a_lo b_hi, a_hi b_lo, a_hi b_hi.
// CHECK-LABEL: func.func @tf32x3
// CHECK: %[[KEEP:.*]] = arith.constant dense<-8192> : tensor<64x32xi32
// CHECK: %[[AHI:.*]] = arith.bitcast %{{.*}} : tensor<64x32xi32, #{{.*}}> to tensor<64x32xf32
// CHECK: %[[ALO:.*]] = arith.subf %{{.*}}, %[[AHI]]
// CHECK: %[[BHI:.*]] = arith.bitcast %{{.*}} : tensor<32x64xi32, #{{.*}}> to tensor<32x64xf32
// CHECK: %[[BLO:.*]] = arith.subf %{{.*}}, %[[BHI]]
// CHECK-DAG: %[[AHIB:.*]] = blkgpu.local_alloc %[[AHI]]
// CHECK-DAG: %[[BHIB:.*]] = blkgpu.local_alloc %[[BHI]]
// CHECK: %[[ALOB:.*]] = blkgpu.local_alloc %[[ALO]]
// CHECK: %[[BLOB:.*]] = blkgpu.local_alloc %[[BLO]]
// CHECK: %[[D1:.*]] = blkgpu.wgmma %[[ALOB]], %[[BHIB]], %{{.*}}
// CHECK: %[[D2:.*]] = blkgpu.wgmma %[[AHIB]], %[[BLOB]], %[[D1]]
// CHECK: blkgpu.wgmma %[[AHIB]], %[[BHIB]], %[[D2]]
func.func @tf32x3(%x: tensor<64x32xf32, #s>, %y: tensor<32x64xf32, #s>, %acc: tensor<64x64xf32, #s>,
                  %p: tensor<64x64x!blk.ptr<f32>, #s>)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %d = blk.dot %x, %y, %acc {precision = "tf32x3"} : tensor<64x32xf32, #s> * tensor<32x64xf32, #s> -> tensor<64x64xf32, #s>
  blk.store %p, %d : tensor<64x64x!blk.ptr<f32>, #s>
  return
}

// An operand defined before the loops (attention's Q tile, read in both
// phases) is stored once, before the first loop; the second loop's wgmma
// reads the same buffer, so the tile's registers die at that store.
// CHECK-LABEL: func.func @invariant_two_loops
// CHECK: %[[Q:.*]] = blkgpu.local_alloc %{{.*}} : tensor<128x64xf16, #{{.*}}> -> !blkgpu.memdesc<128x64xf16
// CHECK-NOT: blkgpu.local_alloc %{{.*}} : tensor<128x64xf16
// CHECK: scf.for
// CHECK: blkgpu.wgmma %[[Q]],
// CHECK-NOT: blkgpu.local_alloc %{{.*}} : tensor<128x64xf16
// CHECK: scf.for
// CHECK: blkgpu.wgmma %[[Q]],
func.func @invariant_two_loops(%x: tensor<128x64xf16, #a>, %pb: tensor<64x128x!blk.ptr<f16>, #b>,
                               %pc: tensor<128x128x!blk.ptr<f32>, #c>, %n: i32)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<128x128xf32, #c>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<128x128xf32, #c>) : i32 {
    %y = blk.load %pb : tensor<64x128x!blk.ptr<f16>, #b>
    %d = blk.dot %x, %y, %acc : tensor<128x64xf16, #a> * tensor<64x128xf16, #b> -> tensor<128x128xf32, #c>
    scf.yield %d : tensor<128x128xf32, #c>
  }
  %s = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %r) -> (tensor<128x128xf32, #c>) : i32 {
    %y = blk.load %pb : tensor<64x128x!blk.ptr<f16>, #b>
    %d = blk.dot %x, %y, %acc : tensor<128x64xf16, #a> * tensor<64x128xf16, #b> -> tensor<128x128xf32, #c>
    scf.yield %d : tensor<128x128xf32, #c>
  }
  blk.store %pc, %s : tensor<128x128x!blk.ptr<f32>, #c>
  return
}

// A tile read directly by one dot and through trans by another (the
// backward's Q: S = K·Qᵀ, dK = dSᵀ·Q) is stored once: the trans operand is a
// memdesc_trans view of the same buffer, so the load has one user.
// CHECK-LABEL: func.func @shared_transpose
// CHECK-NOT: blk.trans
// CHECK: %[[X:.*]] = blkgpu.local_alloc %arg1 : tensor<64x64xf16, #{{.*}}> -> !blkgpu.memdesc<64x64xf16, #[[SH]]>
// CHECK-NEXT: %[[XT:.*]] = blkgpu.memdesc_trans %[[X]] : !blkgpu.memdesc<64x64xf16, #[[SH]]> -> !blkgpu.memdesc<64x64xf16, #[[SHK]]>
// CHECK-NEXT: blkgpu.wgmma %{{.*}}, %[[XT]]
// CHECK-NOT: blkgpu.local_alloc %arg1
// CHECK: blkgpu.wgmma %{{.*}}, %[[X]]
// CHECK-NOT: blk.trans
func.func @shared_transpose(%k: tensor<64x64xf16, #a>, %x: tensor<64x64xf16, #b>,
                            %pc: tensor<64x64x!blk.ptr<f32>, #b>)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #b>
  %xt = blk.trans %x {order = array<i32: 1, 0>} : tensor<64x64xf16, #b> -> tensor<64x64xf16, #bt>
  %s = blk.dot %k, %xt, %zero : tensor<64x64xf16, #a> * tensor<64x64xf16, #bt> -> tensor<64x64xf32, #b>
  %p = arith.truncf %s : tensor<64x64xf32, #b> to tensor<64x64xf16, #b>
  %d = blk.dot %p, %x, %s : tensor<64x64xf16, #b> * tensor<64x64xf16, #b> -> tensor<64x64xf32, #b>
  blk.store %pc, %d : tensor<64x64x!blk.ptr<f32>, #b>
  return
}
