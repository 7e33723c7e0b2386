// The blkgpu verifier: a func marked `blkgpu.num_warps` is blkgpu IR, and
// its tensors and ops must have legal layouts. Layout attributes check
// their own parameters.
// RUN: blk-opt %s --split-input-file --verify-diagnostics

#a = #blkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @missing_layout() attributes {blkgpu.num_warps = 4 : i32} {
  // expected-error @+1 {{has a block without a layout in blkgpu IR: 'tensor<128xi32>'}}
  %r = blk.make_range 0, 128 : tensor<128xi32>
  return
}

// -----

#a = #blkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @wrong_warps() attributes {blkgpu.num_warps = 8 : i32} {
  // expected-error @+1 {{spans 4 warps, the kernel has 8}}
  %r = blk.make_range 0, 128 : tensor<128xi32, #a>
  return
}

// -----

#a = #blkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #blkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @mixed_operands(%x: !blk.ptr<f32>) attributes {blkgpu.num_warps = 4 : i32} {
  %r = blk.make_range 0, 512 : tensor<512xi32, #a>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<512x!blk.ptr<f32>, #b>
  // expected-error @+1 {{needs one layout for its blocks}}
  %p = blk.addptr %xs, %r : tensor<512x!blk.ptr<f32>, #b>, tensor<512xi32, #a>
  return
}

// -----

#a = #blkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
#b = #blkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @load_changes_layout(%p: !blk.ptr<f32>) attributes {blkgpu.num_warps = 4 : i32} {
  %r = blk.make_range 0, 512 : tensor<512xi32, #a>
  %ps = blk.splat %p : !blk.ptr<f32> -> tensor<512x!blk.ptr<f32>, #a>
  %pp = blk.addptr %ps, %r : tensor<512x!blk.ptr<f32>, #a>, tensor<512xi32, #a>
  // expected-error @+1 {{needs one layout for its blocks}}
  %v = "blk.load"(%pp) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<512x!blk.ptr<f32>, #a>) -> tensor<512xf32, #b>
  return
}

// -----

// expand_dims needs the slice along its axis (else the data must move).
#p = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#a = #blkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @expand_needs_slice() attributes {blkgpu.num_warps = 4 : i32} {
  %r = blk.make_range 0, 64 : tensor<64xi32, #a>
  // expected-error @+1 {{cannot expand a block with layout}}
  %e = blk.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #a> -> tensor<64x1xi32, #p>
  return
}

// -----

// A reduction's result is the slice of its operand's layout.
#p = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#a = #blkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @reduce_result_layout(%t: f32) attributes {blkgpu.num_warps = 4 : i32} {
  %s = blk.splat %t : f32 -> tensor<16x64xf32, #p>
  // expected-error @+1 {{result type must be 'tensor<16xf32, #blkgpu.slice<{dim = 1, parent =}}
  %r = blk.reduce %s {axis = 1 : i32} : (tensor<16x64xf32, #p>) -> tensor<16xf32, #a> {
  ^bb0(%l: f32, %rr: f32):
    %q = arith.addf %l, %rr : f32
    blk.reduce.return %q : f32
  }
  return
}

// -----

// expected-error @+1 {{threadsPerWarp must multiply to 32, got 16}}
#bad = #blkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [16], warpsPerCTA = [4], order = [0]}>

// -----

// expected-error @+1 {{order must be a permutation of 0..1}}
#bad = #blkgpu.blocked<{sizePerThread = [1, 1], threadsPerWarp = [1, 32], warpsPerCTA = [1, 4], order = [1, 1]}>

// -----

#a = #blkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @convert_keeps_shape(%t: f32) attributes {blkgpu.num_warps = 4 : i32} {
  %s = blk.splat %t : f32 -> tensor<512xf32, #a>
  // expected-error @+1 {{changes the block's shape or element type}}
  %c = blkgpu.convert_layout %s : tensor<512xf32, #a> -> tensor<512xf16, #a>
  return
}

// -----

// expected-error @+1 {{`blkgpu.num_warps` must be a positive integer on a func}}
func.func @bad_marker() attributes {blkgpu.num_warps = 0 : i32} {
  return
}

// -----

func.func @unknown_attr() {
  // expected-error @+1 {{has an unknown blkgpu attribute `blkgpu.colour`}}
  %c = arith.constant {blkgpu.colour = 1 : i32} 0 : i32
  return
}

// -----

// The attributes the shared-memory passes record are checked for their kind.
func.func @scratch_attrs() attributes {blkgpu.num_warps = 4 : i32} {
  // expected-error @+1 {{`blkgpu.scratch_offset` must be an integer}}
  %c = arith.constant {blkgpu.scratch_offset = "zero"} 0 : i32
  return
}

// -----

#a = #blkgpu.blocked<{sizePerThread = [4], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @scratch_layout_kind(%t: tensor<512xf32, #a>) attributes {blkgpu.num_warps = 4 : i32} {
  // expected-error @+1 {{`blkgpu.scratch_layout` must be a shared layout}}
  %c = blkgpu.convert_layout %t {blkgpu.scratch_layout = #a} : tensor<512xf32, #a> -> tensor<512xf32, #a>
  return
}
