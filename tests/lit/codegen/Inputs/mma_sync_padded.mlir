// blkgpu.mma_sync on an A buffer with padded 65-element rows: ldmatrix needs whole 16-byte groups (tests/lit/codegen/mma-sync-invalid.test).
#a = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
#sa = #blkgpu.slice<{dim = 1, parent = #a}>
#sb = #blkgpu.slice<{dim = 0, parent = #a}>
#mma = #blkgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrN = 8}>
#ka = #blkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [1, 0], pad = 1}>
#kb = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
func.func @bad(%pa: !blk.ptr<f16> {blk.aligned = 16 : i32}, %pc: !blk.ptr<f32> {blk.aligned = 16 : i32})
    attributes {blk.kernel = "bad", blk.param_names = ["a", "c"], blk.num_warps = 4 : i32,
                blkgpu.num_warps = 4 : i32} {
  %r = blk.make_range 0, 64 : tensor<64xi32, #sa>
  %k = blk.make_range 0, 64 : tensor<64xi32, #sb>
  %r2 = blk.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #sa> -> tensor<64x1xi32, #a>
  %c64 = arith.constant dense<64> : tensor<64x1xi32, #a>
  %rm = arith.muli %r2, %c64 : tensor<64x1xi32, #a>
  %rb = blk.broadcast %rm : tensor<64x1xi32, #a> -> tensor<64x64xi32, #a>
  %k2 = blk.expand_dims %k {axis = 0 : i32} : tensor<64xi32, #sb> -> tensor<1x64xi32, #a>
  %kb = blk.broadcast %k2 : tensor<1x64xi32, #a> -> tensor<64x64xi32, #a>
  %off = arith.addi %rb, %kb : tensor<64x64xi32, #a>
  %as = blk.splat %pa : !blk.ptr<f16> -> tensor<64x64x!blk.ptr<f16>, #a>
  %ap = blk.addptr %as, %off : tensor<64x64x!blk.ptr<f16>, #a>, tensor<64x64xi32, #a>
  %x = blk.load %ap : tensor<64x64x!blk.ptr<f16>, #a>
  %xa = blkgpu.local_alloc %x : tensor<64x64xf16, #a> -> !blkgpu.memdesc<64x64xf16, #ka>
  %yb = blkgpu.local_alloc %x : tensor<64x64xf16, #a> -> !blkgpu.memdesc<64x64xf16, #kb>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %d = blkgpu.mma_sync %xa, %yb, %zero : !blkgpu.memdesc<64x64xf16, #ka>, !blkgpu.memdesc<64x64xf16, #kb>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  %dc = blkgpu.convert_layout %d : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #a>
  %cs = blk.splat %pc : !blk.ptr<f32> -> tensor<64x64x!blk.ptr<f32>, #a>
  %cp = blk.addptr %cs, %off : tensor<64x64x!blk.ptr<f32>, #a>, tensor<64x64xi32, #a>
  blk.store %cp, %dc : tensor<64x64x!blk.ptr<f32>, #a>
  return
}
