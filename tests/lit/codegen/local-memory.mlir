// Shared-memory buffers end to end, from hand-written blkgpu IR (the layout
// passes leave it as it is): a tile stored into a swizzled buffer in the
// row-major layout and read back column-major (the plan puts the buffer at
// offset 0 and one barrier between the write and the read); and a ring of
// two slots written through memdesc_index.
// RUN: blk-codegen-test %s --emit=gpu-ir | FileCheck %s --check-prefix=GPU
// RUN: blk-codegen-test %s --emit=ptx > %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: blk-codegen-test %s --emit=info | FileCheck %s --check-prefix=INFO

// GPU: blkgpu.local_alloc {{.*}}blkgpu.buffer_offset = 0 : i64
// GPU-NEXT: blkgpu.barrier
// GPU-NEXT: blkgpu.local_load
// PTX-LABEL: .entry stage__w4
// PTX: .shared .align 1024 .b8 stage__w4__smem[8192];
// PTX-NOT: bar.sync
// PTX: st.shared
// PTX-NOT: ld.shared
// PTX: bar.sync 0;
// PTX-NOT: st.shared
// PTX: ld.shared
// PTX-NOT: bar.sync
// PTX: ret;
// INFO: stage__w4 threads=128 shared=8192 dynamic=0
// INFO: ring threads=32 shared=64 dynamic=0

#rows = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #blkgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#sr = #blkgpu.slice<{dim = 1, parent = #rows}>
#sc = #blkgpu.slice<{dim = 0, parent = #rows}>
#sh = #blkgpu.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
func.func @stage__w4(%x: !blk.ptr<f32> {blk.aligned = 16 : i32}, %out: !blk.ptr<f32> {blk.aligned = 16 : i32})
    attributes {blk.kernel = "stage", blk.param_names = ["x", "out"], blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %r = blk.make_range 0, 32 : tensor<32xi32, #sr>
  %c = blk.make_range 0, 64 : tensor<64xi32, #sc>
  %r2 = blk.expand_dims %r {axis = 1 : i32} : tensor<32xi32, #sr> -> tensor<32x1xi32, #rows>
  %c64 = arith.constant dense<64> : tensor<32x1xi32, #rows>
  %rm = arith.muli %r2, %c64 : tensor<32x1xi32, #rows>
  %rb = blk.broadcast %rm : tensor<32x1xi32, #rows> -> tensor<32x64xi32, #rows>
  %c2 = blk.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #sc> -> tensor<1x64xi32, #rows>
  %cb = blk.broadcast %c2 : tensor<1x64xi32, #rows> -> tensor<32x64xi32, #rows>
  %off = arith.addi %rb, %cb : tensor<32x64xi32, #rows>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<32x64x!blk.ptr<f32>, #rows>
  %xp = blk.addptr %xs, %off : tensor<32x64x!blk.ptr<f32>, #rows>, tensor<32x64xi32, #rows>
  %v = blk.load %xp : tensor<32x64x!blk.ptr<f32>, #rows>
  %buf = blkgpu.local_alloc %v : tensor<32x64xf32, #rows> -> !blkgpu.memdesc<32x64xf32, #sh>
  %w = blkgpu.local_load %buf : !blkgpu.memdesc<32x64xf32, #sh> -> tensor<32x64xf32, #cols>
  %offc = blkgpu.convert_layout %off : tensor<32x64xi32, #rows> -> tensor<32x64xi32, #cols>
  %os = blk.splat %out : !blk.ptr<f32> -> tensor<32x64x!blk.ptr<f32>, #cols>
  %op = blk.addptr %os, %offc : tensor<32x64x!blk.ptr<f32>, #cols>, tensor<32x64xi32, #cols>
  blk.store %op, %w : tensor<32x64x!blk.ptr<f32>, #cols>
  return
}

// The ring: slot 1 written and read back, slot 0 read (zeros on the
// interpreter; whatever shared memory held on the GPU, so out[8:] is not
// checked there). A barrier between the store and the loads.
// GPU-LABEL: func.func @ring
// GPU: blkgpu.local_store
// GPU-NEXT: blkgpu.barrier
#l = #blkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#sh1 = #blkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>
func.func @ring(%x: !blk.ptr<f32>, %out: !blk.ptr<f32>)
    attributes {blk.kernel = "ring", blk.param_names = ["x", "out"], blk.num_warps = 1 : i32, blkgpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = blk.make_range 0, 8 : tensor<8xi32, #l>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<8x!blk.ptr<f32>, #l>
  %xp = blk.addptr %xs, %r : tensor<8x!blk.ptr<f32>, #l>, tensor<8xi32, #l>
  %v = blk.load %xp : tensor<8x!blk.ptr<f32>, #l>
  %ring = blkgpu.local_alloc -> !blkgpu.memdesc<2x8xf32, #sh1>
  %s1 = blkgpu.memdesc_index %ring[%c1] : !blkgpu.memdesc<2x8xf32, #sh1> -> !blkgpu.memdesc<8xf32, #sh1>
  blkgpu.local_store %v, %s1 : tensor<8xf32, #l> -> !blkgpu.memdesc<8xf32, #sh1>
  %a = blkgpu.local_load %s1 : !blkgpu.memdesc<8xf32, #sh1> -> tensor<8xf32, #l>
  %s0 = blkgpu.memdesc_index %ring[%c0] : !blkgpu.memdesc<2x8xf32, #sh1> -> !blkgpu.memdesc<8xf32, #sh1>
  %b = blkgpu.local_load %s0 : !blkgpu.memdesc<8xf32, #sh1> -> tensor<8xf32, #l>
  %os = blk.splat %out : !blk.ptr<f32> -> tensor<8x!blk.ptr<f32>, #l>
  %op = blk.addptr %os, %r : tensor<8x!blk.ptr<f32>, #l>, tensor<8xi32, #l>
  blk.store %op, %a : tensor<8x!blk.ptr<f32>, #l>
  %c8 = arith.constant dense<8> : tensor<8xi32, #l>
  %r8 = arith.addi %r, %c8 : tensor<8xi32, #l>
  %op8 = blk.addptr %os, %r8 : tensor<8x!blk.ptr<f32>, #l>, tensor<8xi32, #l>
  blk.store %op8, %b : tensor<8x!blk.ptr<f32>, #l>
  return
}
