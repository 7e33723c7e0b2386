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

// -----

#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#nvt = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], pad = 0, block = 32}>
func.func @trans_other_layout() attributes {blkgpu.num_warps = 4 : i32} {
  %r = blkgpu.local_alloc -> !blkgpu.memdesc<64x128xf16, #nv>
  // expected-error @+1 {{(the same bytes), got}}
  %t = blkgpu.memdesc_trans %r : !blkgpu.memdesc<64x128xf16, #nv> -> !blkgpu.memdesc<128x64xf16, #nvt>
  return
}

// -----

#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
func.func @trans_ring() attributes {blkgpu.num_warps = 4 : i32} {
  %r = blkgpu.local_alloc -> !blkgpu.memdesc<2x64x64xf16, #nv>
  // expected-error @+1 {{transposes one 2-D slot}}
  %t = blkgpu.memdesc_trans %r : !blkgpu.memdesc<2x64x64xf16, #nv> -> !blkgpu.memdesc<2x64x64xf16, #nv>
  return
}
