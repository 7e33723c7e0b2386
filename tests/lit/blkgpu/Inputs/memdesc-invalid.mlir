// Misuses of shared-memory buffers (run by ../memdesc.mlir).
#b = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
func.func @wrong_shape(%t: tensor<64x64xf16, #b>) attributes {blkgpu.num_warps = 4 : i32} {
  // expected-error @+1 {{does not match the buffer}}
  %c = blkgpu.local_alloc %t : tensor<64x64xf16, #b> -> !blkgpu.memdesc<64x32xf16, #sh>
  return
}

// -----

#b = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#sh = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
func.func @whole_ring(%t: tensor<64x64xf16, #b>) attributes {blkgpu.num_warps = 4 : i32} {
  %r = blkgpu.local_alloc -> !blkgpu.memdesc<2x64x64xf16, #sh>
  // expected-error @+1 {{index the ring with blkgpu.memdesc_index first}}
  blkgpu.local_store %t, %r : tensor<64x64xf16, #b> -> !blkgpu.memdesc<2x64x64xf16, #sh>
  return
}

// -----

#sh = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
func.func @bad_index(%i: i32) attributes {blkgpu.num_warps = 4 : i32} {
  %r = blkgpu.local_alloc -> !blkgpu.memdesc<2x64x64xf16, #sh>
  // expected-error @+1 {{result must be one slot of}}
  %s = blkgpu.memdesc_index %r[%i] : !blkgpu.memdesc<2x64x64xf16, #sh> -> !blkgpu.memdesc<64x64xf32, #sh>
  return
}

// -----

#sh = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0}>
// expected-error @+1 {{a shared-memory buffer holds a block of static power-of-two shape}}
func.func @bad_type(%m: !blkgpu.memdesc<48x64xf16, #sh>) {
  return
}
