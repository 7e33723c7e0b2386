// One TMA copy per program (tests/lit/codegen/tma.test; the GPU test
// tests/gpu/TmaGpuTest.cpp runs its fatbin): program p copies the
// [64 x 128] f16 tile of `a` (rows x cols, row stride `lda` elements) at
// row 64 p, column `col0`, into a 128-byte-swizzled slot (two 64-column
// boxes), waits on the slot's mbarrier, and stores the tile to the dense
// [grid * 64 x 128] `c`. Elements outside `a` arrive as zeros.
#a = #blkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#sa = #blkgpu.slice<{dim = 1, parent = #a}>
#sb = #blkgpu.slice<{dim = 0, parent = #a}>
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#bar = #blkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>
func.func @tma_copy(%pa: !blk.ptr<f16> {blk.aligned = 16 : i32}, %pc: !blk.ptr<f16> {blk.aligned = 16 : i32},
                    %rows: i32, %cols: i32, %lda: i32 {blk.multiple_of = 8 : i32}, %col0: i32)
    attributes {blk.kernel = "tma_copy", blk.param_names = ["a", "c", "rows", "cols", "lda", "col0"],
                blk.param_types = ["*f16", "*f16", "i32", "i32", "i32", "i32"],
                blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %map = blkgpu.tensor_map %pa[%rows, %cols] strides[%lda] {box = array<i64: 64, 64>, swizzle = 128 : i32} : !blk.ptr<f16>, (i32, i32), (i32)
  %c0 = arith.constant 0 : i32
  %c64 = arith.constant 64 : i32
  %pid = blk.program_id 0
  %row0 = arith.muli %pid, %c64 : i32
  %bars = blkgpu.local_alloc -> !blkgpu.memdesc<1x1xi64, #bar>
  blkgpu.mbarrier_init %bars {count = 1 : i32} : !blkgpu.memdesc<1x1xi64, #bar>
  %bar = blkgpu.memdesc_index %bars[%c0] : !blkgpu.memdesc<1x1xi64, #bar> -> !blkgpu.memdesc<1xi64, #bar>
  %ring = blkgpu.local_alloc -> !blkgpu.memdesc<1x64x128xf16, #nv>
  %slot = blkgpu.memdesc_index %ring[%c0] : !blkgpu.memdesc<1x64x128xf16, #nv> -> !blkgpu.memdesc<64x128xf16, #nv>
  blkgpu.mbarrier_expect %bar {bytes = 16384 : i32} : !blkgpu.memdesc<1xi64, #bar>
  blkgpu.tma_load %map[%row0, %col0], %slot, %bar : !blkgpu.memdesc<64x128xf16, #nv>, !blkgpu.memdesc<1xi64, #bar>
  blkgpu.mbarrier_wait %bar, %c0 : !blkgpu.memdesc<1xi64, #bar>
  %x = blkgpu.local_load %slot : !blkgpu.memdesc<64x128xf16, #nv> -> tensor<64x128xf16, #a>
  %r = blk.make_range 0, 64 : tensor<64xi32, #sa>
  %k = blk.make_range 0, 128 : tensor<128xi32, #sb>
  %rs = blk.splat %row0 : i32 -> tensor<64xi32, #sa>
  %rr = arith.addi %r, %rs : tensor<64xi32, #sa>
  %r2 = blk.expand_dims %rr {axis = 1 : i32} : tensor<64xi32, #sa> -> tensor<64x1xi32, #a>
  %c128 = arith.constant dense<128> : tensor<64x1xi32, #a>
  %rm = arith.muli %r2, %c128 : tensor<64x1xi32, #a>
  %rb = blk.broadcast %rm : tensor<64x1xi32, #a> -> tensor<64x128xi32, #a>
  %k2 = blk.expand_dims %k {axis = 0 : i32} : tensor<128xi32, #sb> -> tensor<1x128xi32, #a>
  %kb = blk.broadcast %k2 : tensor<1x128xi32, #a> -> tensor<64x128xi32, #a>
  %off = arith.addi %rb, %kb : tensor<64x128xi32, #a>
  %cs = blk.splat %pc : !blk.ptr<f16> -> tensor<64x128x!blk.ptr<f16>, #a>
  %cp = blk.addptr %cs, %off : tensor<64x128x!blk.ptr<f16>, #a>, tensor<64x128xi32, #a>
  blk.store %cp, %x : tensor<64x128x!blk.ptr<f16>, #a>
  return
}
