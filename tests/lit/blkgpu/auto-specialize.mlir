// blkgpu-auto-specialize adds, after a kernel entry, a variant compiled for
// the common case of its arguments (row-major, unit last stride, aligned
// base, sizes multiples of 16), keeping only the assumptions that change
// how some access can be vectorised.
// RUN: blk-opt %s --blkgpu-auto-specialize | FileCheck %s

// The tutorial's 2-D copy: every stride passed, masks on M and N.
// x, o aligned (arg 0, 1: kind 0); N a multiple of 16 (arg 3: kind 2) for
// the column mask; the row strides multiples of 16 (args 4, 6) for aligned
// rows; the column strides equal to 1 (args 5, 7: kind 1). M only masks
// rows, along which nothing is vectorised: not assumed.
// CHECK-LABEL: func.func @copy2d(
// CHECK-NOT: blk.aligned
// CHECK: return
// CHECK-LABEL: func.func @copy2d__auto(
// CHECK-SAME: %arg0: !blk.ptr<f16> {blk.aligned = 16 : i32}
// CHECK-SAME: %arg1: !blk.ptr<f16> {blk.aligned = 16 : i32}
// CHECK-SAME: %arg2: i32,
// CHECK-SAME: %arg3: i32 {blk.multiple_of = 16 : i32}
// CHECK-SAME: %arg4: i32 {blk.multiple_of = 16 : i32}
// CHECK-SAME: %arg5: i32,
// CHECK-SAME: %arg6: i32 {blk.multiple_of = 16 : i32}
// CHECK-SAME: blk.variant_assume = array<i64: 0, 0, 16, 1, 0, 16, 3, 2, 16, 4, 2, 16, 5, 1, 1, 6, 2, 16, 7, 1, 1>
// CHECK-SAME: blk.variant_of = "copy2d"
// The unit strides are gone: the column offsets feed addptr directly.
// CHECK-NOT: arith.muli %{{.*}}, %arg5
// CHECK-NOT: arith.muli %{{.*}}, %arg7
// CHECK: return
func.func @copy2d(%x: !blk.ptr<f16>, %o: !blk.ptr<f16>, %M: i32, %N: i32,
                  %sxm: i32, %sxn: i32, %som: i32, %son: i32)
    attributes {blk.kernel = "copy2d", blk.num_warps = 4 : i32} {
  %r = blk.make_range 0, 64 : tensor<64xi32>
  %rows = blk.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %cols = blk.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %Ms = blk.splat %M : i32 -> tensor<64x1xi32>
  %Ns = blk.splat %N : i32 -> tensor<1x64xi32>
  %rm = arith.cmpi slt, %rows, %Ms : tensor<64x1xi32>
  %cm = arith.cmpi slt, %cols, %Ns : tensor<1x64xi32>
  %rmb = blk.broadcast %rm : tensor<64x1xi1> -> tensor<64x64xi1>
  %cmb = blk.broadcast %cm : tensor<1x64xi1> -> tensor<64x64xi1>
  %mask = arith.andi %rmb, %cmb : tensor<64x64xi1>
  %xsm = blk.splat %sxm : i32 -> tensor<64x1xi32>
  %xsn = blk.splat %sxn : i32 -> tensor<1x64xi32>
  %xro = arith.muli %rows, %xsm : tensor<64x1xi32>
  %xco = arith.muli %cols, %xsn : tensor<1x64xi32>
  %xrb = blk.broadcast %xro : tensor<64x1xi32> -> tensor<64x64xi32>
  %xcb = blk.broadcast %xco : tensor<1x64xi32> -> tensor<64x64xi32>
  %xoff = arith.addi %xrb, %xcb : tensor<64x64xi32>
  %xs = blk.splat %x : !blk.ptr<f16> -> tensor<64x64x!blk.ptr<f16>>
  %xp = blk.addptr %xs, %xoff : tensor<64x64x!blk.ptr<f16>>, tensor<64x64xi32>
  %v = blk.load %xp, %mask : tensor<64x64x!blk.ptr<f16>>
  %osm = blk.splat %som : i32 -> tensor<64x1xi32>
  %osn = blk.splat %son : i32 -> tensor<1x64xi32>
  %oro = arith.muli %rows, %osm : tensor<64x1xi32>
  %oco = arith.muli %cols, %osn : tensor<1x64xi32>
  %orb = blk.broadcast %oro : tensor<64x1xi32> -> tensor<64x64xi32>
  %ocb = blk.broadcast %oco : tensor<1x64xi32> -> tensor<64x64xi32>
  %ooff = arith.addi %orb, %ocb : tensor<64x64xi32>
  %os = blk.splat %o : !blk.ptr<f16> -> tensor<64x64x!blk.ptr<f16>>
  %op = blk.addptr %os, %ooff : tensor<64x64x!blk.ptr<f16>>, tensor<64x64xi32>
  blk.store %op, %v, %mask : tensor<64x64x!blk.ptr<f16>>
  return
}

// Hints already say all that pays (unit strides written as 1): no variant.
// CHECK-LABEL: func.func @hinted(
// CHECK-NOT: @hinted__auto
func.func @hinted(%x: !blk.ptr<f32> {blk.aligned = 16 : i32}, %n: i32 {blk.multiple_of = 16 : i32})
    attributes {blk.kernel = "hinted", blk.num_warps = 4 : i32} {
  %r = blk.make_range 0, 256 : tensor<256xi32>
  %ns = blk.splat %n : i32 -> tensor<256xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<256xi32>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<256x!blk.ptr<f32>>
  %xp = blk.addptr %xs, %r : tensor<256x!blk.ptr<f32>>, tensor<256xi32>
  %v = blk.load %xp, %m : tensor<256x!blk.ptr<f32>>
  blk.store %xp, %v : tensor<256x!blk.ptr<f32>>
  return
}

// Scalar accesses only: nothing to widen.
// CHECK-LABEL: func.func @scalar(
// CHECK-NOT: @scalar__auto
func.func @scalar(%x: !blk.ptr<f32>, %i: i32) attributes {blk.kernel = "scalar", blk.num_warps = 4 : i32} {
  %p = blk.addptr %x, %i : !blk.ptr<f32>, i32
  %v = blk.load %p : !blk.ptr<f32>
  blk.store %p, %v : !blk.ptr<f32>
  return
}

// A kernel with @specialize (blk.specialize) keeps its own variants only.
// CHECK-LABEL: func.func @explicit(
// CHECK-NOT: @explicit__auto
func.func @explicit(%x: !blk.ptr<f32>, %s: i32)
    attributes {blk.kernel = "explicit", blk.num_warps = 4 : i32, blk.specialize = array<i32: 1>} {
  %r = blk.make_range 0, 256 : tensor<256xi32>
  %ss = blk.splat %s : i32 -> tensor<256xi32>
  %off = arith.muli %r, %ss : tensor<256xi32>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<256x!blk.ptr<f32>>
  %xp = blk.addptr %xs, %off : tensor<256x!blk.ptr<f32>>, tensor<256xi32>
  %v = blk.load %xp : tensor<256x!blk.ptr<f32>>
  blk.store %xp, %v : tensor<256x!blk.ptr<f32>>
  return
}

// A 1-D strided copy with an unaligned base: the stride is assumed 1 and
// the base 16-byte aligned; n (the mask) a multiple of 16.
// CHECK-LABEL: func.func @strided1d(
// CHECK: func.func @strided1d__auto(
// CHECK-SAME: blk.variant_assume = array<i64: 0, 0, 16, 1, 2, 16, 2, 1, 1>
func.func @strided1d(%x: !blk.ptr<f32>, %n: i32, %s: i32)
    attributes {blk.kernel = "strided1d", blk.num_warps = 4 : i32} {
  %r = blk.make_range 0, 256 : tensor<256xi32>
  %ns = blk.splat %n : i32 -> tensor<256xi32>
  %m = arith.cmpi slt, %r, %ns : tensor<256xi32>
  %ss = blk.splat %s : i32 -> tensor<256xi32>
  %off = arith.muli %r, %ss : tensor<256xi32>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<256x!blk.ptr<f32>>
  %xp = blk.addptr %xs, %off : tensor<256x!blk.ptr<f32>>, tensor<256xi32>
  %v = blk.load %xp, %m : tensor<256x!blk.ptr<f32>>
  blk.store %xp, %v, %m : tensor<256x!blk.ptr<f32>>
  return
}

// A dot's B operand loaded as a [K, N] tile with both strides passed: the
// row-major variant assumes its N stride is 1 (arg 3), the K-major one
// (`__auto_bt`, tried second) its K stride (arg 2); A's K stride (arg 1)
// is 1 in both, the pointers aligned in both.
// CHECK-LABEL: func.func @dotb(
// CHECK: func.func @dotb__auto(
// CHECK-SAME: blk.variant_assume = array<i64: 0, 0, 16, 1, 1, 1, 2, 2, 16, 3, 1, 1, 4, 0, 16>
// CHECK: func.func @dotb__auto_bt(
// CHECK-SAME: blk.variant_assume = array<i64: 0, 0, 16, 1, 1, 1, 2, 1, 1, 3, 2, 16, 4, 0, 16>
func.func @dotb(%a: !blk.ptr<f16>, %sak: i32, %sbk: i32, %sbn: i32, %b: !blk.ptr<f16>)
    attributes {blk.kernel = "dotb", blk.num_warps = 4 : i32} {
  %r = blk.make_range 0, 64 : tensor<64xi32>
  %rows = blk.expand_dims %r {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %cols = blk.expand_dims %r {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %c64 = arith.constant dense<64> : tensor<64x1xi32>
  %aro = arith.muli %rows, %c64 : tensor<64x1xi32>
  %aks = blk.splat %sak : i32 -> tensor<1x64xi32>
  %aco = arith.muli %cols, %aks : tensor<1x64xi32>
  %arb = blk.broadcast %aro : tensor<64x1xi32> -> tensor<64x64xi32>
  %acb = blk.broadcast %aco : tensor<1x64xi32> -> tensor<64x64xi32>
  %aoff = arith.addi %arb, %acb : tensor<64x64xi32>
  %as = blk.splat %a : !blk.ptr<f16> -> tensor<64x64x!blk.ptr<f16>>
  %ap = blk.addptr %as, %aoff : tensor<64x64x!blk.ptr<f16>>, tensor<64x64xi32>
  %x = blk.load %ap : tensor<64x64x!blk.ptr<f16>>
  %bks = blk.splat %sbk : i32 -> tensor<64x1xi32>
  %bns = blk.splat %sbn : i32 -> tensor<1x64xi32>
  %bro = arith.muli %rows, %bks : tensor<64x1xi32>
  %bco = arith.muli %cols, %bns : tensor<1x64xi32>
  %brb = blk.broadcast %bro : tensor<64x1xi32> -> tensor<64x64xi32>
  %bcb = blk.broadcast %bco : tensor<1x64xi32> -> tensor<64x64xi32>
  %boff = arith.addi %brb, %bcb : tensor<64x64xi32>
  %bs = blk.splat %b : !blk.ptr<f16> -> tensor<64x64x!blk.ptr<f16>>
  %bp = blk.addptr %bs, %boff : tensor<64x64x!blk.ptr<f16>>, tensor<64x64xi32>
  %y = blk.load %bp : tensor<64x64x!blk.ptr<f16>>
  %acc = arith.constant dense<0.0> : tensor<64x64xf32>
  %d = blk.dot %x, %y, %acc : tensor<64x64xf16> * tensor<64x64xf16> -> tensor<64x64xf32>
  %h = arith.truncf %d : tensor<64x64xf32> to tensor<64x64xf16>
  blk.store %ap, %h : tensor<64x64x!blk.ptr<f16>>
  return
}

// The tutorial's wrapped offsets, `(r % n) * s`: s == 1 makes the access
// contiguous only once n is a multiple of 16, so the unit stride is chosen
// against the others' divisibility, not against nothing known.
// CHECK-LABEL: func.func @wrapped(
// CHECK: func.func @wrapped__auto(
// CHECK-SAME: blk.variant_assume = array<i64: 0, 0, 16, 1, 2, 16, 2, 1, 1>
func.func @wrapped(%x: !blk.ptr<f16>, %n: i32, %s: i32)
    attributes {blk.kernel = "wrapped", blk.num_warps = 4 : i32} {
  %r = blk.make_range 0, 256 : tensor<256xi32>
  %ns = blk.splat %n : i32 -> tensor<256xi32>
  %w = arith.remsi %r, %ns : tensor<256xi32>
  %ss = blk.splat %s : i32 -> tensor<256xi32>
  %off = arith.muli %w, %ss : tensor<256xi32>
  %xs = blk.splat %x : !blk.ptr<f16> -> tensor<256x!blk.ptr<f16>>
  %xp = blk.addptr %xs, %off : tensor<256x!blk.ptr<f16>>, tensor<256xi32>
  %v = blk.load %xp : tensor<256x!blk.ptr<f16>>
  %h = arith.addf %v, %v : tensor<256xf16>
  blk.store %xp, %h : tensor<256x!blk.ptr<f16>>
  return
}
