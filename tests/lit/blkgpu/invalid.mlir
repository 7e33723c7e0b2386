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

// -----

// An mma layout must be version 2 or 3 ...
// expected-error @+1 {{mma layout version must be 2 (mma.sync) or 3 (wgmma), got 4}}
#m = #blkgpu.mma<{version = 4, warpsPerCTA = [4, 1], instrN = 64}>

// -----

// ... with wgmma's warps along M in warpgroups of 4 ...
// expected-error @+1 {{puts warps along M in warpgroups of 4, got 2}}
#m = #blkgpu.mma<{version = 3, warpsPerCTA = [2, 2], instrN = 64}>

// -----

// ... and an instruction width wgmma has.
// expected-error @+1 {{mma layout instrN must be a power of two in 8..256, got 512}}
#m = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 512}>

// -----

// An atomic walks a blocked layout's threads: an mma block is converted
// first (a store is not such an op: it moves an mma layout's column pairs).
#m = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 64}>
func.func @atomic_mma(%p: tensor<64x64x!blk.ptr<f32>, #m>, %v: tensor<64x64xf32, #m>)
    attributes {blkgpu.num_warps = 4 : i32} {
  // expected-error @+1 {{needs blocked layouts; convert 'tensor<64x64x!blk.ptr<f32>, #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 64}>>' first}}
  %old = blk.atomic_rmw fadd %p, %v : tensor<64x64x!blk.ptr<f32>, #m>
  return
}

// -----

// An mma layout spans its warps: [4, 2] is 8.
#m = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 2], instrN = 64}>
func.func @mma_warps(%v: tensor<64x128xf32, #m>) attributes {blkgpu.num_warps = 4 : i32} {
  // expected-error @+1 {{spans 8 warps, the kernel has 4}}
  %w = arith.addf %v, %v : tensor<64x128xf32, #m>
  return
}

// -----

// wgmma: [M, K] x [K, N] + [M, N] on a version-3 mma accumulator.
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#m = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 64}>
func.func @wgmma_shapes(%a: !blkgpu.memdesc<64x32xf16, #nv>, %b: !blkgpu.memdesc<64x64xf16, #nv>,
                        %acc: tensor<64x64xf32, #m>) attributes {blkgpu.num_warps = 4 : i32} {
  // expected-error @+1 {{needs a [M, K] x [K, N] + [M, N]}}
  %d = blkgpu.wgmma %a, %b, %acc : !blkgpu.memdesc<64x32xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #m> -> tensor<64x64xf32, #m>
  return
}

// -----

// pending: -1 (no wait: blkgpu-defer-wgmma-waits) or a group count.
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#m = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 64}>
func.func @wgmma_pending(%a: !blkgpu.memdesc<64x64xf16, #nv>, %b: !blkgpu.memdesc<64x64xf16, #nv>,
                         %acc: tensor<64x64xf32, #m>) attributes {blkgpu.num_warps = 4 : i32} {
  // expected-error @+1 {{pending must be -1 (no wait) or a group count, got -2}}
  %d = blkgpu.wgmma %a, %b, %acc {pending = -2 : i32} : !blkgpu.memdesc<64x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #m> -> tensor<64x64xf32, #m>
  return
}

// -----

#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#b = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @wgmma_blocked_acc(%a: !blkgpu.memdesc<64x64xf16, #nv>, %b: !blkgpu.memdesc<64x64xf16, #nv>,
                             %acc: tensor<64x64xf32, #b>) attributes {blkgpu.num_warps = 4 : i32} {
  // expected-error @+1 {{accumulator needs a version-3 #blkgpu.mma layout}}
  %d = blkgpu.wgmma %a, %b, %acc : !blkgpu.memdesc<64x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #b> -> tensor<64x64xf32, #b>
  return
}

// -----

// A reduction of an mma block runs in registers and quad shuffles: along a
// row it is legal, down the columns (across the warps) it is not.
#m = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 64}>
#rows = #blkgpu.slice<{dim = 1, parent = #m}>
#cols = #blkgpu.slice<{dim = 0, parent = #m}>
func.func @reduce_mma(%v: tensor<64x64xf32, #m>) attributes {blkgpu.num_warps = 4 : i32} {
  %r = blk.reduce %v {axis = 1 : i32} : (tensor<64x64xf32, #m>) -> tensor<64xf32, #rows> {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    blk.reduce.return %z : f32
  }
  // expected-error @+1 {{needs blocked layouts}}
  %c = blk.reduce %v {axis = 0 : i32} : (tensor<64x64xf32, #m>) -> tensor<64xf32, #cols> {
  ^bb0(%x: f32, %y: f32):
    %z = arith.addf %x, %y : f32
    blk.reduce.return %z : f32
  }
  return
}

// -----

// A from registers: only a 16-bit block in the accumulator's mma layout.
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#m = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 64}>
#b = #blkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @wgmma_register_a_blocked(%a: tensor<64x64xf16, #b>, %b: !blkgpu.memdesc<64x64xf16, #nv>,
                                    %acc: tensor<64x64xf32, #m>) attributes {blkgpu.num_warps = 4 : i32} {
  // expected-error @+1 {{register operand 'tensor<64x64xf16, #blkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>>' needs a version-3 #blkgpu.mma layout of the accumulator's warps, one warpgroup column and whole instructions along K}}
  %d = blkgpu.wgmma %a, %b, %acc : tensor<64x64xf16, #b>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #m> -> tensor<64x64xf32, #m>
  return
}

// -----

#m = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 64}>
#nv4 = #blkgpu.shared<{vec = 4, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 32}>
func.func @wgmma_register_a_tf32(%a: tensor<64x32xf32, #m>, %b: !blkgpu.memdesc<32x64xf32, #nv4>,
                                 %acc: tensor<64x64xf32, #m>) attributes {blkgpu.num_warps = 4 : i32} {
  // expected-error @+1 {{reads only 16-bit operands from registers}}
  %d = blkgpu.wgmma %a, %b, %acc : tensor<64x32xf32, #m>, !blkgpu.memdesc<32x64xf32, #nv4>, tensor<64x64xf32, #m> -> tensor<64x64xf32, #m>
  return
}

// -----

// wgmma reads f16, bf16, f32 (as tf32) or i8 operands only ...
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#m = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 64}>
func.func @wgmma_i16(%a: !blkgpu.memdesc<64x64xi16, #nv>, %b: !blkgpu.memdesc<64x64xi16, #nv>,
                     %acc: tensor<64x64xf32, #m>) attributes {blkgpu.num_warps = 4 : i32} {
  // expected-error @+1 {{operands must be f16, bf16, f32 (read as tf32), fp8 or i8, got 'i16'}}
  %d = blkgpu.wgmma %a, %b, %acc : !blkgpu.memdesc<64x64xi16, #nv>, !blkgpu.memdesc<64x64xi16, #nv>, tensor<64x64xf32, #m> -> tensor<64x64xf32, #m>
  return
}

// -----

// ... accumulating i8 in i32 and the others in f32.
#nv = #blkgpu.shared<{vec = 16, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 128}>
#m = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 64}>
func.func @wgmma_i8_f32(%a: !blkgpu.memdesc<64x64xi8, #nv>, %b: !blkgpu.memdesc<64x64xi8, #nv>,
                        %acc: tensor<64x64xf32, #m>) attributes {blkgpu.num_warps = 4 : i32} {
  // expected-error @+1 {{accumulates 'i8' in i32, got 'f32'}}
  %d = blkgpu.wgmma %a, %b, %acc : !blkgpu.memdesc<64x64xi8, #nv>, !blkgpu.memdesc<64x64xi8, #nv>, tensor<64x64xf32, #m> -> tensor<64x64xf32, #m>
  return
}

// -----

// async_copy: a block of pointers to the slot's element type, shaped like it.
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#b = #blkgpu.blocked<{sizePerThread = [1, 8], threadsPerWarp = [4, 8], warpsPerCTA = [4, 1], order = [1, 0]}>
func.func @copy_type(%p: tensor<64x64x!blk.ptr<f32>, #b>, %s: !blkgpu.memdesc<64x64xf16, #nv>)
    attributes {blkgpu.num_warps = 4 : i32} {
  // expected-error @+1 {{copies a block of pointers to 'f16' shaped like the slot}}
  blkgpu.async_copy %p, %s : tensor<64x64x!blk.ptr<f32>, #b> -> !blkgpu.memdesc<64x64xf16, #nv>
  return
}

// -----

// mma_sync: a version-2 mma accumulator (version 3 is wgmma's).
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#m = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 64}>
func.func @mma_sync_version(%a: !blkgpu.memdesc<64x64xf16, #nv>, %b: !blkgpu.memdesc<64x64xf16, #nv>,
                            %acc: tensor<64x64xf32, #m>) attributes {blkgpu.num_warps = 4 : i32} {
  // expected-error @+1 {{accumulator needs a version-2 #blkgpu.mma layout}}
  %d = blkgpu.mma_sync %a, %b, %acc : !blkgpu.memdesc<64x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #m> -> tensor<64x64xf32, #m>
  return
}

// -----

// mma_sync: shapes, and no fp8 form.
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#m = #blkgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrN = 8}>
func.func @mma_sync_shapes(%a: !blkgpu.memdesc<64x32xf16, #nv>, %b: !blkgpu.memdesc<64x64xf16, #nv>,
                           %acc: tensor<64x64xf32, #m>) attributes {blkgpu.num_warps = 4 : i32} {
  // expected-error @+1 {{needs a [M, K] x [K, N] + [M, N]}}
  %d = blkgpu.mma_sync %a, %b, %acc : !blkgpu.memdesc<64x32xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #m> -> tensor<64x64xf32, #m>
  return
}

// -----

#nv = #blkgpu.shared<{vec = 16, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 128}>
#m = #blkgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrN = 8}>
func.func @mma_sync_fp8(%a: !blkgpu.memdesc<64x64xf8E4M3FN, #nv>, %b: !blkgpu.memdesc<64x64xf8E4M3FN, #nv>,
                        %acc: tensor<64x64xf32, #m>) attributes {blkgpu.num_warps = 4 : i32} {
  // expected-error @+1 {{operands must be f16, bf16, f32 (read as tf32), or i8, got 'f8E4M3FN'}}
  %d = blkgpu.mma_sync %a, %b, %acc : !blkgpu.memdesc<64x64xf8E4M3FN, #nv>, !blkgpu.memdesc<64x64xf8E4M3FN, #nv>, tensor<64x64xf32, #m> -> tensor<64x64xf32, #m>
  return
}

// -----

// Each warp loads B two 8-column tiles at a time: 4 warps along N need 64
// columns, 32 is one tile each.
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 32}>
#m = #blkgpu.mma<{version = 2, warpsPerCTA = [1, 4], instrN = 8}>
func.func @mma_sync_narrow(%a: !blkgpu.memdesc<16x32xf16, #nv>, %b: !blkgpu.memdesc<32x32xf16, #nv>,
                           %acc: tensor<16x32xf32, #m>) attributes {blkgpu.num_warps = 4 : i32} {
  // expected-error @+1 {{needs at least two 8-column tiles per warp}}
  %d = blkgpu.mma_sync %a, %b, %acc : !blkgpu.memdesc<16x32xf16, #nv>, !blkgpu.memdesc<32x32xf16, #nv>, tensor<16x32xf32, #m> -> tensor<16x32xf32, #m>
  return
}

// -----

// mma_sync's A from registers: a 16-bit block in the version-2 mma layout
// of the accumulator's warps, all along M.
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#m = #blkgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrN = 8}>
func.func @mma_sync_register_a_warps(%a: tensor<64x64xf16, #m>, %b: !blkgpu.memdesc<64x64xf16, #nv>,
                                     %acc: tensor<64x64xf32, #m>) attributes {blkgpu.num_warps = 4 : i32} {
  // expected-error @+1 {{register operand 'tensor<64x64xf16, #blkgpu.mma<{version = 2, warpsPerCTA = [2, 2], instrN = 8}>>' needs a version-2 #blkgpu.mma layout of the accumulator's warps, one warp column and whole instructions along K}}
  %d = blkgpu.mma_sync %a, %b, %acc : tensor<64x64xf16, #m>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #m> -> tensor<64x64xf32, #m>
  return
}
