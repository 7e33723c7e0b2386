// Axis info lattice (contiguity, divisibility, constancy per dimension) as
// remarks. Pointer divisibility is in bytes, offsets count elements.
// RUN: %blk-opt %s -blk-test-print-axis-info -split-input-file -verify-diagnostics -o /dev/null

// The canonical 1-D kernel: offsets = pid * 1024 + arange(0, 1024) are
// contiguous runs of 1024 starting at multiples of 1024; the mask against a
// multiple of 16 is constant over runs of 16.
// expected-remark @below {{arg 0: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @below {{arg 1: contiguity = [1], divisibility = [16], constancy = [1]}}
func.func @double(%x: !blk.ptr<f32> {blk.aligned = 16 : i32}, %n: i32 {blk.multiple_of = 16 : i32}) {
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %pid = blk.program_id 0
  // expected-remark @below {{contiguity = [1], divisibility = [1024], constancy = [1], constant = 1024}}
  %c1024 = arith.constant 1024 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [1024], constancy = [1]}}
  %base = arith.muli %pid, %c1024 : i32
  // expected-remark @below {{contiguity = [1024], divisibility = [1073741824], constancy = [1]}}
  %r = blk.make_range 0, 1024 : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1024], constancy = [1024]}}
  %b = blk.splat %base : i32 -> tensor<1024xi32>
  // expected-remark @below {{contiguity = [1024], divisibility = [1024], constancy = [1]}}
  %offs = arith.addi %b, %r : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1024]}}
  %ns = blk.splat %n : i32 -> tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [16]}}
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [1024]}}
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<1024x!blk.ptr<f32>>
  // expected-remark @below {{contiguity = [1024], divisibility = [16], constancy = [1]}}
  %p = blk.addptr %xs, %offs : tensor<1024x!blk.ptr<f32>>, tensor<1024xi32>
  %v = blk.load %p, %mask : tensor<1024x!blk.ptr<f32>>
  return
}

// -----

// 2-D pointers a + m * stride + n: contiguous along the last dim only;
// new size-1 dims take the divisibility every element shares.
// expected-remark @below {{arg 0: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @below {{arg 1: contiguity = [1], divisibility = [8], constancy = [1]}}
func.func @matrix(%a: !blk.ptr<f16> {blk.aligned = 16 : i32}, %stride: i32 {blk.multiple_of = 8 : i32}) {
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %rm = blk.make_range 0, 64 : tensor<64xi32>
  // expected-remark @below {{contiguity = [32], divisibility = [1073741824], constancy = [1]}}
  %rn = blk.make_range 0, 32 : tensor<32xi32>
  // expected-remark @below {{contiguity = [64, 1], divisibility = [1073741824, 1], constancy = [1, 1]}}
  %m = blk.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [8, 8], constancy = [64, 1]}}
  %ss = blk.splat %stride : i32 -> tensor<64x1xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [8, 8], constancy = [1, 1]}}
  %ms = arith.muli %m, %ss : tensor<64x1xi32>
  // expected-remark @below {{contiguity = [1, 32], divisibility = [1, 1073741824], constancy = [1, 1]}}
  %n = blk.expand_dims %rn {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [8, 8], constancy = [1, 32]}}
  %mb = blk.broadcast %ms : tensor<64x1xi32> -> tensor<64x32xi32>
  // expected-remark @below {{contiguity = [1, 32], divisibility = [1, 1073741824], constancy = [64, 1]}}
  %nb = blk.broadcast %n : tensor<1x32xi32> -> tensor<64x32xi32>
  // expected-remark @below {{contiguity = [1, 32], divisibility = [1, 8], constancy = [1, 1]}}
  %off = arith.addi %mb, %nb : tensor<64x32xi32>
  // expected-remark @below {{contiguity = [1, 1], divisibility = [16, 16], constancy = [64, 32]}}
  %as = blk.splat %a : !blk.ptr<f16> -> tensor<64x32x!blk.ptr<f16>>
  // expected-remark @below {{contiguity = [1, 32], divisibility = [2, 16], constancy = [1, 1]}}
  %p = blk.addptr %as, %off : tensor<64x32x!blk.ptr<f16>>, tensor<64x32xi32>
  // expected-remark @below {{contiguity = [32, 1], divisibility = [16, 2], constancy = [1, 1]}}
  %t = blk.trans %p {order = array<i32: 1, 0>} : tensor<64x32x!blk.ptr<f16>> -> tensor<32x64x!blk.ptr<f16>>
  // expected-remark @below {{contiguity = [32], divisibility = [1073741824], constancy = [1]}}
  %flat = blk.reshape %n : tensor<1x32xi32> -> tensor<32xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %q = blk.reshape %off : tensor<64x32xi32> -> tensor<2048xi32>
  return
}

// -----

// remainder/quotient by powers of two, shifts, masks, hints, select.
// expected-remark @below {{arg 0: contiguity = [1], divisibility = [1], constancy = [1]}}
func.func @arith(%k: i32) {
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1]}}
  %r = blk.make_range 0, 128 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [32], constancy = [128], constant = 32}}
  %c32 = arith.constant dense<32> : tensor<128xi32>
  // expected-remark @below {{contiguity = [32], divisibility = [32], constancy = [1]}}
  %rem = arith.remsi %r, %c32 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [32]}}
  %div = arith.divsi %r, %c32 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128], constant = 31}}
  %c31 = arith.constant dense<31> : tensor<128xi32>
  // expected-remark @below {{contiguity = [32], divisibility = [32], constancy = [1]}}
  %and = arith.andi %r, %c31 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [2], constancy = [128], constant = 2}}
  %c2 = arith.constant dense<2> : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [4], constancy = [1]}}
  %shl = arith.shli %r, %c2 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [4]}}
  %shr = arith.shrui %r, %c2 : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [64], constancy = [1]}}
  %r2 = blk.make_range 64, 192 : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [32], constancy = [1]}}
  %sub = arith.subi %r2, %c32 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128]}}
  %ks = blk.splat %k : i32 -> tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [128]}}
  %h = blk.multiple_of %ks, [64] : tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [64], constancy = [1]}}
  %sum = arith.addi %r, %h : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %odd = arith.addi %r, %r : tensor<128xi32>
  // expected-remark @below {{contiguity = [4], divisibility = [1], constancy = [1]}}
  %mc = blk.max_contiguous %odd, [4] : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [32]}}
  %cond = arith.cmpi slt, %r, %c32 : tensor<128xi32>
  // expected-remark @below {{contiguity = [32], divisibility = [32], constancy = [1]}}
  %sel = arith.select %cond, %r, %r2 : tensor<128xi1>, tensor<128xi32>
  return
}

// -----

// Loop-carried pointers: the join of the init and the yielded value; the
// induction variable is a multiple of gcd(lb, step).
// expected-remark @below {{arg 0: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @below {{arg 1: contiguity = [1], divisibility = [1], constancy = [1]}}
func.func @loop(%x: !blk.ptr<f32> {blk.aligned = 16 : i32}, %n: i32) {
  // expected-remark @below {{contiguity = [1], divisibility = [1073741824], constancy = [1], constant = 0}}
  %c0 = arith.constant 0 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [1], constant = 64}}
  %c64 = arith.constant 64 : i32
  // expected-remark @below {{contiguity = [64], divisibility = [1073741824], constancy = [1]}}
  %r = blk.make_range 0, 64 : tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [64]}}
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<64x!blk.ptr<f32>>
  // expected-remark @below {{contiguity = [64], divisibility = [16], constancy = [1]}}
  %p0 = blk.addptr %xs, %r : tensor<64x!blk.ptr<f32>>, tensor<64xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [64], constant = 64}}
  %inc = blk.splat %c64 : i32 -> tensor<64xi32>
  // expected-remark @below {{contiguity = [64], divisibility = [16], constancy = [1]}}
  %res = scf.for %i = %c0 to %n step %c64 iter_args(%p = %p0) -> (tensor<64x!blk.ptr<f32>>) : i32 {
    %v = blk.load %p : tensor<64x!blk.ptr<f32>>
    // expected-remark @below {{contiguity = [1], divisibility = [64], constancy = [64]}}
    %is = blk.splat %i : i32 -> tensor<64xi32>
    // expected-remark @below {{contiguity = [64], divisibility = [16], constancy = [1]}}
    %next = blk.addptr %p, %inc : tensor<64x!blk.ptr<f32>>, tensor<64xi32>
    scf.yield %next : tensor<64x!blk.ptr<f32>>
  }
  return
}


// -----

// Triton's `offs % N` with N a multiple of 16: the runs of 128 wrap only at
// multiples of 16, so runs of 16 stay contiguous; an N with no hint wraps
// anywhere.
// expected-remark @below {{arg 0: contiguity = [1], divisibility = [16], constancy = [1]}}
// expected-remark @below {{arg 1: contiguity = [1], divisibility = [1], constancy = [1]}}
func.func @wrap(%n: i32 {blk.multiple_of = 16 : i32}, %m: i32) {
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %pid = blk.program_id 0
  // expected-remark @below {{contiguity = [1], divisibility = [128], constancy = [1], constant = 128}}
  %c128 = arith.constant 128 : i32
  // expected-remark @below {{contiguity = [1], divisibility = [128], constancy = [1]}}
  %base = arith.muli %pid, %c128 : i32
  // expected-remark @below {{contiguity = [128], divisibility = [1073741824], constancy = [1]}}
  %r = blk.make_range 0, 128 : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [128], constancy = [128]}}
  %b = blk.splat %base : i32 -> tensor<128xi32>
  // expected-remark @below {{contiguity = [128], divisibility = [128], constancy = [1]}}
  %offs = arith.addi %b, %r : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [16], constancy = [128]}}
  %ns = blk.splat %n : i32 -> tensor<128xi32>
  // expected-remark @below {{contiguity = [16], divisibility = [16], constancy = [1]}}
  %w = arith.remsi %offs, %ns : tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [128]}}
  %ms = blk.splat %m : i32 -> tensor<128xi32>
  // expected-remark @below {{contiguity = [1], divisibility = [1], constancy = [1]}}
  %v = arith.remsi %offs, %ms : tensor<128xi32>
  return
}
