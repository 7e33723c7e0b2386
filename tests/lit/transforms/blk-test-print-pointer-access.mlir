// What each kernel does to the memory each pointer argument reaches (the
// manifest's `access`), on hand-written blk IR.
// RUN: %blk-opt %s -blk-test-print-pointer-access -split-input-file -verify-diagnostics -o /dev/null

// Read-only and write-only through splat + addptr; the integer argument
// gets no remark; an unused pointer is `none`.
// expected-remark @below {{arg 0: read}}
// expected-remark @below {{arg 1: write}}
// expected-remark @below {{arg 3: none}}
func.func @copy(%x: !blk.ptr<f32>, %out: !blk.ptr<f32>, %n: i32, %unused: !blk.ptr<i32>) {
  %r = blk.make_range 0, 128 : tensor<128xi32>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<128x!blk.ptr<f32>>
  %xp = blk.addptr %xs, %r : tensor<128x!blk.ptr<f32>>, tensor<128xi32>
  %v = blk.load %xp : tensor<128x!blk.ptr<f32>>
  %os = blk.splat %out : !blk.ptr<f32> -> tensor<128x!blk.ptr<f32>>
  %op = blk.addptr %os, %r : tensor<128x!blk.ptr<f32>>, tensor<128xi32>
  blk.store %op, %v : tensor<128x!blk.ptr<f32>>
  return
}

// -----

// In place, `x = x + 1`: read and write; reshaped and cast pointers still
// lead back to the argument.
// expected-remark @below {{arg 0: readwrite}}
func.func @increment(%x: !blk.ptr<i32>) {
  %r = blk.make_range 0, 64 : tensor<64xi32>
  %xs = blk.splat %x : !blk.ptr<i32> -> tensor<64x!blk.ptr<i32>>
  %p = blk.addptr %xs, %r : tensor<64x!blk.ptr<i32>>, tensor<64xi32>
  %v = blk.load %p : tensor<64x!blk.ptr<i32>>
  %one = arith.constant dense<1> : tensor<64xi32>
  %w = arith.addi %v, %one : tensor<64xi32>
  %q = blk.reshape %p : tensor<64x!blk.ptr<i32>> -> tensor<8x8x!blk.ptr<i32>>
  %q1 = blk.reshape %q : tensor<8x8x!blk.ptr<i32>> -> tensor<64x!blk.ptr<i32>>
  %qf = blk.ptr_cast %q1 : tensor<64x!blk.ptr<i32>> -> tensor<64x!blk.ptr<i32>>
  blk.store %qf, %w : tensor<64x!blk.ptr<i32>>
  return
}

// -----

// atomic_add is `atomic` even where the kernel also loads; a CAS too.
// expected-remark @below {{arg 0: atomic}}
// expected-remark @below {{arg 1: atomic}}
// expected-remark @below {{arg 2: read}}
func.func @histogram(%bins: !blk.ptr<i32>, %lock: !blk.ptr<i32>, %x: !blk.ptr<i32>) {
  %r = blk.make_range 0, 16 : tensor<16xi32>
  %xs = blk.splat %x : !blk.ptr<i32> -> tensor<16x!blk.ptr<i32>>
  %xp = blk.addptr %xs, %r : tensor<16x!blk.ptr<i32>>, tensor<16xi32>
  %v = blk.load %xp : tensor<16x!blk.ptr<i32>>
  %bs = blk.splat %bins : !blk.ptr<i32> -> tensor<16x!blk.ptr<i32>>
  %bp = blk.addptr %bs, %v : tensor<16x!blk.ptr<i32>>, tensor<16xi32>
  %one = arith.constant dense<1> : tensor<16xi32>
  %old = blk.atomic_rmw add %bp, %one : tensor<16x!blk.ptr<i32>>
  %b0 = blk.load %bins : !blk.ptr<i32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %prev = blk.atomic_cas %lock, %c0, %c1 : !blk.ptr<i32>
  return
}

// -----

// A pointer selected between two parameters: both are written; the
// selected base is never read.
// expected-remark @below {{arg 0: write}}
// expected-remark @below {{arg 1: write}}
// expected-remark @below {{arg 2: read}}
func.func @select(%a: !blk.ptr<f32>, %b: !blk.ptr<f32>, %c: !blk.ptr<f32>, %flag: i1) {
  %p = arith.select %flag, %a, %b : !blk.ptr<f32>
  %v = blk.load %c : !blk.ptr<f32>
  blk.store %p, %v : !blk.ptr<f32>
  return
}

// -----

// A pointer carried through scf.for (iter_arg, advanced each trip) is
// traced to its init; so is a pointer an scf.if yields.
// expected-remark @below {{arg 0: read}}
// expected-remark @below {{arg 1: write}}
// expected-remark @below {{arg 2: write}}
func.func @loop(%x: !blk.ptr<f32>, %y: !blk.ptr<f32>, %z: !blk.ptr<f32>, %n: i32, %c: i1) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant 0.0 : f32
  %res:2 = scf.for %i = %c0 to %n step %c1 iter_args(%p = %x, %acc = %zero) -> (!blk.ptr<f32>, f32) : i32 {
    %v = blk.load %p : !blk.ptr<f32>
    %s = arith.addf %acc, %v : f32
    %next = blk.addptr %p, %c1 : !blk.ptr<f32>, i32
    scf.yield %next, %s : !blk.ptr<f32>, f32
  }
  %out = scf.if %c -> (!blk.ptr<f32>) {
    scf.yield %y : !blk.ptr<f32>
  } else {
    scf.yield %z : !blk.ptr<f32>
  }
  blk.store %out, %res#1 : !blk.ptr<f32>
  return
}

// -----

// A pointer carried by scf.while (the before region's argument, from the
// init and from the after region's yield).
// expected-remark @below {{arg 0: readwrite}}
// expected-remark @below {{arg 1: none}}
func.func @while(%x: !blk.ptr<i32>, %other: !blk.ptr<i32>, %n: i32) {
  %c1 = arith.constant 1 : i32
  %r:2 = scf.while (%p = %x, %i = %c1) : (!blk.ptr<i32>, i32) -> (!blk.ptr<i32>, i32) {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %p, %i : !blk.ptr<i32>, i32
  } do {
  ^bb0(%q: !blk.ptr<i32>, %j: i32):
    %v = blk.load %q : !blk.ptr<i32>
    blk.store %q, %v : !blk.ptr<i32>
    %next = blk.addptr %q, %c1 : !blk.ptr<i32>, i32
    %j1 = arith.addi %j, %c1 : i32
    scf.yield %next, %j1 : !blk.ptr<i32>, i32
  }
  return
}

// -----

// A store through a pointer this cannot trace (an scf.execute_region
// result) may hit any pointer: every pointer argument becomes readwrite,
// and an untraced atomic makes every one atomic.
// expected-remark @below {{arg 0: readwrite}}
// expected-remark @below {{arg 1: readwrite}}
func.func @untraced_store(%x: !blk.ptr<f32>, %y: !blk.ptr<f32>) {
  %p = scf.execute_region -> !blk.ptr<f32> {
    scf.yield %x : !blk.ptr<f32>
  }
  %v = blk.load %y : !blk.ptr<f32>
  blk.store %p, %v : !blk.ptr<f32>
  return
}

// -----

// expected-remark @below {{arg 0: atomic}}
// expected-remark @below {{arg 1: atomic}}
func.func @untraced_atomic(%x: !blk.ptr<i32>, %y: !blk.ptr<i32>) {
  %p = scf.execute_region -> !blk.ptr<i32> {
    scf.yield %x : !blk.ptr<i32>
  }
  %c1 = arith.constant 1 : i32
  %old = blk.atomic_rmw add %p, %c1 : !blk.ptr<i32>
  return
}
