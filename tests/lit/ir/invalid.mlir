// Every verifier of the blk ops rejects malformed IR with its message.
// RUN: %blk-opt %s -split-input-file -verify-diagnostics

// expected-error @below {{pointee of !blk.ptr must be a signless integer or float type}}
func.func @ptr_to_ptr(%x: !blk.ptr<!blk.ptr<f32>>) {
  return
}

// -----

func.func @program_id_axis() {
  // expected-error @below {{attribute 'axis' failed to satisfy constraint}}
  %0 = blk.program_id 3
  return
}

// -----

func.func @make_range_not_pow2() {
  // expected-error @below {{length 100 must be a power of two}}
  %0 = blk.make_range 0, 100 : tensor<100xi32>
  return
}

// -----

func.func @make_range_empty() {
  // expected-error @below {{end (4) must be greater than start (4)}}
  %0 = blk.make_range 4, 4 : tensor<1xi32>
  return
}

// -----

func.func @make_range_type() {
  // expected-error @below {{result must be tensor<64xi32>, got 'tensor<32xi32>'}}
  %0 = blk.make_range 0, 64 : tensor<32xi32>
  return
}

// -----

func.func @splat_type(%x: f32) {
  // expected-error @below {{result element type 'f16' must be the scalar type 'f32'}}
  %0 = blk.splat %x : f32 -> tensor<16xf16>
  return
}

// -----

func.func @splat_not_pow2(%x: f32) {
  // expected-error @below {{result shape [12] has a dimension that is not a power of two}}
  %0 = blk.splat %x : f32 -> tensor<12xf32>
  return
}

// -----

func.func @broadcast_shape(%x: tensor<2x8xf32>) {
  // expected-error @below {{cannot broadcast [2, 8] to [4, 8]}}
  %0 = blk.broadcast %x : tensor<2x8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @broadcast_rank(%x: tensor<8xf32>) {
  // expected-error @below {{source rank 1 must equal result rank 2}}
  %0 = blk.broadcast %x : tensor<8xf32> -> tensor<4x8xf32>
  return
}

// -----

func.func @broadcast_elem(%x: tensor<1x8xf32>) {
  // expected-error @below {{source and result element types differ}}
  %0 = blk.broadcast %x : tensor<1x8xf32> -> tensor<4x8xf16>
  return
}

// -----

func.func @expand_dims_axis(%x: tensor<8xf32>) {
  // expected-error @below {{axis 2 out of range for rank 1}}
  %0 = blk.expand_dims %x {axis = 2 : i32} : tensor<8xf32> -> tensor<8x1xf32>
  return
}

// -----

func.func @expand_dims_type(%x: tensor<8xf32>) {
  // expected-error @below {{result type must be 'tensor<1x8xf32>', got 'tensor<8x1xf32>'}}
  %0 = blk.expand_dims %x {axis = 0 : i32} : tensor<8xf32> -> tensor<8x1xf32>
  return
}

// -----

func.func @reshape_count(%x: tensor<8x8xf32>) {
  // expected-error @below {{cannot reshape [8, 8] (64 elements) to [128] (128 elements)}}
  %0 = blk.reshape %x : tensor<8x8xf32> -> tensor<128xf32>
  return
}

// -----

func.func @reshape_elem(%x: tensor<8x8xf32>) {
  // expected-error @below {{source and result element types differ}}
  %0 = blk.reshape %x : tensor<8x8xf32> -> tensor<64xi32>
  return
}

// -----

func.func @trans_order(%x: tensor<8x4xf32>) {
  // expected-error @below {{order must be a permutation of the 2 source dimensions}}
  %0 = blk.trans %x {order = array<i32: 0, 0>} : tensor<8x4xf32> -> tensor<8x4xf32>
  return
}

// -----

func.func @trans_type(%x: tensor<8x4xf32>) {
  // expected-error @below {{result type must be 'tensor<4x8xf32>', got 'tensor<8x4xf32>'}}
  %0 = blk.trans %x {order = array<i32: 1, 0>} : tensor<8x4xf32> -> tensor<8x4xf32>
  return
}

// -----

func.func @addptr_shape(%p: tensor<8x!blk.ptr<f32>>, %o: tensor<16xi32>) {
  // expected-error @below {{offset type 'tensor<16xi32>' must have the shape of the pointer type 'tensor<8x!blk.ptr<f32>>'}}
  %0 = blk.addptr %p, %o : tensor<8x!blk.ptr<f32>>, tensor<16xi32>
  return
}

// -----

func.func @addptr_scalar_ptr_block_offset(%p: !blk.ptr<f32>, %o: tensor<16xi32>) {
  // expected-error @below {{offset type 'tensor<16xi32>' must have the shape of the pointer type '!blk.ptr<f32>'}}
  %0 = "blk.addptr"(%p, %o) : (!blk.ptr<f32>, tensor<16xi32>) -> !blk.ptr<f32>
  return
}

// -----

func.func @addptr_float_offset(%p: !blk.ptr<f32>, %o: f32) {
  // expected-error @below {{operand #1 must be}}
  %0 = "blk.addptr"(%p, %o) : (!blk.ptr<f32>, f32) -> !blk.ptr<f32>
  return
}

// -----

func.func @load_not_ptr(%p: tensor<8xf32>) {
  // expected-error @below {{'ptr' must be blk pointer or statically shaped tensor of blk pointer values, but got 'tensor<8xf32>'}}
  %0 = blk.load %p : tensor<8xf32>
  return
}

// -----

func.func @load_mask_shape(%p: tensor<8x!blk.ptr<f32>>, %m: tensor<16xi1>) {
  // expected-error @below {{failed to verify that mask is i1 with the shape of ptr}}
  %0 = "blk.load"(%p, %m) <{operandSegmentSizes = array<i32: 1, 1, 0>}> : (tensor<8x!blk.ptr<f32>>, tensor<16xi1>) -> tensor<8xf32>
  return
}

// -----

func.func @load_other_type(%p: tensor<8x!blk.ptr<f32>>, %m: tensor<8xi1>, %o: tensor<8xf16>) {
  // expected-error @below {{failed to verify that other has the result type}}
  %0 = "blk.load"(%p, %m, %o) <{operandSegmentSizes = array<i32: 1, 1, 1>}> : (tensor<8x!blk.ptr<f32>>, tensor<8xi1>, tensor<8xf16>) -> tensor<8xf32>
  return
}

// -----

func.func @load_result_type(%p: tensor<8x!blk.ptr<f32>>) {
  // expected-error @below {{failed to verify that result is the pointee of ptr}}
  %0 = "blk.load"(%p) <{operandSegmentSizes = array<i32: 1, 0, 0>}> : (tensor<8x!blk.ptr<f32>>) -> tensor<8xf16>
  return
}

// -----

func.func @load_other_without_mask(%p: tensor<8x!blk.ptr<f32>>, %o: tensor<8xf32>) {
  // expected-error @below {{`other` requires a `mask`}}
  %0 = "blk.load"(%p, %o) <{operandSegmentSizes = array<i32: 1, 0, 1>}> : (tensor<8x!blk.ptr<f32>>, tensor<8xf32>) -> tensor<8xf32>
  return
}

// -----

func.func @store_value_type(%p: tensor<8x!blk.ptr<f32>>, %v: tensor<8xi32>) {
  // expected-error @below {{failed to verify that value is the pointee of ptr}}
  "blk.store"(%p, %v) : (tensor<8x!blk.ptr<f32>>, tensor<8xi32>) -> ()
  return
}

// -----

func.func @store_mask_shape(%p: tensor<8x!blk.ptr<f32>>, %v: tensor<8xf32>, %m: i1) {
  // expected-error @below {{failed to verify that mask is i1 with the shape of ptr}}
  "blk.store"(%p, %v, %m) : (tensor<8x!blk.ptr<f32>>, tensor<8xf32>, i1) -> ()
  return
}

// -----

func.func @atomic_fadd_int(%p: !blk.ptr<i32>, %v: i32) {
  // expected-error @below {{`fadd` needs a float element type, got 'i32'}}
  %0 = blk.atomic_rmw fadd %p, %v : !blk.ptr<i32>
  return
}

// -----

func.func @atomic_and_float(%p: !blk.ptr<f32>, %v: f32) {
  // expected-error @below {{`and` needs an integer element type, got 'f32'}}
  %0 = blk.atomic_rmw and %p, %v : !blk.ptr<f32>
  return
}

// -----

func.func @atomic_i8(%p: !blk.ptr<i8>, %v: i8) {
  // expected-error @below {{atomics need elements of at least 16 bits, got 'i8'}}
  %0 = blk.atomic_rmw add %p, %v : !blk.ptr<i8>
  return
}

// -----

func.func @atomic_cas_i8(%p: !blk.ptr<i8>, %v: i8) {
  // expected-error @below {{atomic_cas needs 16-, 32- or 64-bit elements}}
  %0 = blk.atomic_cas %p, %v, %v : !blk.ptr<i8>
  return
}

// -----

func.func @atomic_cas_type(%p: !blk.ptr<i32>, %c: i64, %v: i32) {
  // expected-error @below {{failed to verify that cmp is the pointee of ptr}}
  %0 = "blk.atomic_cas"(%p, %c, %v) : (!blk.ptr<i32>, i64, i32) -> i32
  return
}

// -----

func.func @reduce_axis(%x: tensor<8xf32>) {
  // expected-error @below {{axis 1 out of range for rank 1}}
  %0 = blk.reduce %x {axis = 1 : i32} : (tensor<8xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    blk.reduce.return %a : f32
  }
  return
}

// -----

func.func @reduce_result(%x: tensor<8x4xf32>) {
  // expected-error @below {{result type must be 'tensor<8xf32>', got 'tensor<4xf32>'}}
  %0 = blk.reduce %x {axis = 1 : i32} : (tensor<8x4xf32>) -> tensor<4xf32> {
  ^bb0(%a: f32, %b: f32):
    blk.reduce.return %a : f32
  }
  return
}

// -----

func.func @reduce_shapes(%x: tensor<8xf32>, %y: tensor<16xi32>) {
  // expected-error @below {{operands must have the same shape}}
  %0:2 = blk.reduce %x, %y {axis = 0 : i32} : (tensor<8xf32>, tensor<16xi32>) -> (f32, i32) {
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    blk.reduce.return %a, %ai : f32, i32
  }
  return
}

// -----

func.func @reduce_region_args(%x: tensor<8xf32>) {
  // expected-error @below {{combiner must take 2 arguments, takes 1}}
  %0 = blk.reduce %x {axis = 0 : i32} : (tensor<8xf32>) -> f32 {
  ^bb0(%a: f32):
    blk.reduce.return %a : f32
  }
  return
}

// -----

func.func @reduce_region_arg_type(%x: tensor<8xf32>) {
  // expected-error @below {{combiner argument 1 must be 'f32', got 'f16'}}
  %0 = blk.reduce %x {axis = 0 : i32} : (tensor<8xf32>) -> f32 {
  ^bb0(%a: f32, %b: f16):
    blk.reduce.return %a : f32
  }
  return
}

// -----

func.func @reduce_region_yield(%x: tensor<8xf32>) {
  // expected-error @below {{combiner result 0 must be 'f32', got 'i32'}}
  %0 = blk.reduce %x {axis = 0 : i32} : (tensor<8xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %c = arith.constant 0 : i32
    blk.reduce.return %c : i32
  }
  return
}

// -----

func.func @reduce_region_count(%x: tensor<8xf32>) {
  // expected-error @below {{combiner must yield 1 value(s), yields 2}}
  %0 = blk.reduce %x {axis = 0 : i32} : (tensor<8xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    blk.reduce.return %a, %b : f32, f32
  }
  return
}

// -----

func.func @reduce_wrong_terminator(%x: tensor<8xf32>) {
  %0 = blk.reduce %x {axis = 0 : i32} : (tensor<8xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    // expected-error @below {{expects parent op 'blk.scan'}}
    blk.scan.return %a : f32
  }
  return
}

// -----

func.func @scan_result(%x: tensor<8xf32>) {
  // expected-error @below {{result types must equal the operand types}}
  %0 = blk.scan %x {axis = 0 : i32} : (tensor<8xf32>) -> tensor<8xf16> {
  ^bb0(%a: f32, %b: f32):
    blk.scan.return %a : f32
  }
  return
}

// -----

func.func @scan_region(%x: tensor<8xi32>) {
  // expected-error @below {{combiner argument 0 must be 'i32', got 'f32'}}
  %0 = blk.scan %x {axis = 0 : i32} : (tensor<8xi32>) -> tensor<8xi32> {
  ^bb0(%a: f32, %b: i32):
    blk.scan.return %b : i32
  }
  return
}

// -----

func.func @dot_inner(%a: tensor<16x32xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @below {{inner dimensions differ: a is [16, 32], b is [16, 16]}}
  %0 = blk.dot %a, %b, %c : tensor<16x32xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_acc(%a: tensor<16x32xf16>, %b: tensor<32x16xf16>, %c: tensor<32x16xf32>) {
  // expected-error @below {{accumulator shape [32, 16] must be [16, 16]}}
  %0 = blk.dot %a, %b, %c : tensor<16x32xf16> * tensor<32x16xf16> -> tensor<32x16xf32>
  return
}

// -----

func.func @dot_rank(%a: tensor<16xf16>, %b: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @below {{operands must be rank-2 blocks}}
  %0 = blk.dot %a, %b, %c : tensor<16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_precision_f16(%a: tensor<16x16xf16>, %c: tensor<16x16xf32>) {
  // expected-error @below {{precision applies to f32 inputs, got 'f16'}}
  %0 = blk.dot %a, %a, %c {precision = "tf32"} : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_precision_name(%a: tensor<16x16xf32>, %c: tensor<16x16xf32>) {
  // expected-error @below {{precision must be "tf32", "tf32x3" or "ieee", got "fp64"}}
  %0 = blk.dot %a, %a, %c {precision = "fp64"} : tensor<16x16xf32> * tensor<16x16xf32> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_mixed(%a: tensor<16x16xf16>, %b: tensor<16x16xbf16>, %c: tensor<16x16xf32>) {
  // expected-error @below {{a and b element types differ: 'f16' vs 'bf16'}}
  %0 = blk.dot %a, %b, %c : tensor<16x16xf16> * tensor<16x16xbf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_input_type(%a: tensor<16x16xi32>, %c: tensor<16x16xi32>) {
  // expected-error @below {{input element type must be f16, bf16, f32, f8E4M3FN, f8E5M2 or i8, got 'i32'}}
  %0 = blk.dot %a, %a, %c : tensor<16x16xi32> * tensor<16x16xi32> -> tensor<16x16xi32>
  return
}

// -----

// Two fp8 kinds may meet (wgmma has e4m3 x e5m2); fp8 with another type not.
func.func @dot_fp8_mixed(%a: tensor<16x32xf8E4M3FN>, %b: tensor<32x16xf8E5M2>, %h: tensor<32x16xf16>, %c: tensor<16x16xf32>) {
  %0 = blk.dot %a, %b, %c : tensor<16x32xf8E4M3FN> * tensor<32x16xf8E5M2> -> tensor<16x16xf32>
  // expected-error @below {{a and b element types differ: 'f8E4M3FN' vs 'f16'}}
  %1 = blk.dot %a, %h, %c : tensor<16x32xf8E4M3FN> * tensor<32x16xf16> -> tensor<16x16xf32>
  return
}

// -----

func.func @dot_fp8_acc(%a: tensor<16x32xf8E4M3FN>, %c: tensor<16x16xf16>, %b: tensor<32x16xf8E4M3FN>) {
  // expected-error @below {{float inputs need an f32 accumulator, got 'f16'}}
  %0 = blk.dot %a, %b, %c : tensor<16x32xf8E4M3FN> * tensor<32x16xf8E4M3FN> -> tensor<16x16xf16>
  return
}

// -----

func.func @dot_float_acc(%a: tensor<16x16xf16>, %c: tensor<16x16xf16>) {
  // expected-error @below {{float inputs need an f32 accumulator, got 'f16'}}
  %0 = blk.dot %a, %a, %c : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf16>
  return
}

// -----

func.func @dot_int_acc(%a: tensor<16x16xi8>, %c: tensor<16x16xf32>) {
  // expected-error @below {{i8 inputs need an i32 accumulator, got 'f32'}}
  %0 = blk.dot %a, %a, %c : tensor<16x16xi8> * tensor<16x16xi8> -> tensor<16x16xf32>
  return
}

// -----

func.func @multiple_of_count(%x: tensor<16x8xi32>) {
  // expected-error @below {{needs 2 value(s), one per dimension, got 1}}
  %0 = blk.multiple_of %x, [16] : tensor<16x8xi32>
  return
}

// -----

func.func @max_contiguous_value(%x: tensor<16xi32>) {
  // expected-error @below {{hint values must be positive}}
  %0 = blk.max_contiguous %x, [0] : tensor<16xi32>
  return
}

// -----

func.func @hint_float(%x: tensor<16xf32>) {
  // expected-error @below {{hints apply to integers and pointers}}
  %0 = blk.multiple_of %x, [16] : tensor<16xf32>
  return
}

// -----

func.func @assert_cond(%x: tensor<16xi32>) {
  // expected-error @below {{operand #0 must be}}
  blk.assert %x, "m", "f.blk", 1 : tensor<16xi32>
  return
}

// -----

func.func @ptr_cast_shape(%p: tensor<8x!blk.ptr<f32>>) {
  // expected-error @below {{source and result must have the same shape}}
  %0 = blk.ptr_cast %p : tensor<8x!blk.ptr<f32>> -> tensor<16x!blk.ptr<i32>>
  return
}

// -----

func.func @ptr_to_int_shape(%p: tensor<8x!blk.ptr<f32>>) {
  // expected-error @below {{source and result must have the same shape}}
  %0 = blk.ptr_to_int %p : tensor<8x!blk.ptr<f32>> -> i64
  return
}
