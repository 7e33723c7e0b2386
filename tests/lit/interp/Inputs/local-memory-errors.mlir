// Shared-memory buffers the interpreter refuses (run by ../local-memory.mlir).
#l = #blkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [1], order = [0]}>
#sh = #blkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>
func.func @carried(%x: !blk.ptr<f32>, %n: i32)
    attributes {blk.kernel = "carried", blk.param_names = ["x", "n"], blk.num_warps = 1 : i32, blkgpu.num_warps = 1 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = blk.make_range 0, 8 : tensor<8xi32, #l>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<8x!blk.ptr<f32>, #l>
  %xp = blk.addptr %xs, %r : tensor<8x!blk.ptr<f32>, #l>, tensor<8xi32, #l>
  %v = blk.load %xp : tensor<8x!blk.ptr<f32>, #l>
  %a = blkgpu.local_alloc -> !blkgpu.memdesc<8xf32, #sh>
  %b = scf.for %i = %c0 to %n step %c1 iter_args(%m = %a) -> (!blkgpu.memdesc<8xf32, #sh>) : i32 {
    blkgpu.local_store %v, %m : tensor<8xf32, #l> -> !blkgpu.memdesc<8xf32, #sh>
    scf.yield %m : !blkgpu.memdesc<8xf32, #sh>
  }
  %w = blkgpu.local_load %a : !blkgpu.memdesc<8xf32, #sh> -> tensor<8xf32, #l>
  blk.store %xp, %w : tensor<8x!blk.ptr<f32>, #l>
  return
}

func.func @bad_slot(%x: !blk.ptr<f32>, %k: i32)
    attributes {blk.kernel = "bad_slot", blk.param_names = ["x", "k"], blk.num_warps = 1 : i32, blkgpu.num_warps = 1 : i32} {
  %r = blk.make_range 0, 8 : tensor<8xi32, #l>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<8x!blk.ptr<f32>, #l>
  %xp = blk.addptr %xs, %r : tensor<8x!blk.ptr<f32>, #l>, tensor<8xi32, #l>
  %ring = blkgpu.local_alloc -> !blkgpu.memdesc<2x8xf32, #sh>
  %s = blkgpu.memdesc_index %ring[%k] : !blkgpu.memdesc<2x8xf32, #sh> -> !blkgpu.memdesc<8xf32, #sh>
  %w = blkgpu.local_load %s : !blkgpu.memdesc<8xf32, #sh> -> tensor<8xf32, #l>
  blk.store %xp, %w : tensor<8x!blk.ptr<f32>, #l>
  return
}
