// `blkc run` runs a kernel's generic entry, never one of its @specialize
// value variants (`blk.variant_of`), even when a variant comes first in the
// module: the variant here writes 99 instead of the argument.
// RUN: %blkc run %s -k fill --arg out=zeros:i32:1 --arg v=7 --print out | FileCheck %s
// CHECK: out = [7]
// Its own symbol picks the variant (the back-end oracle runs variants so).
// RUN: %blkc run %s -k fill__w4__v1 --arg out=zeros:i32:1 --arg v=7 --print out | FileCheck %s --check-prefix=VARIANT
// VARIANT: out = [99]

func.func @fill__w4__v1(%out: !blk.ptr<i32>, %v: i32)
    attributes {blk.kernel = "fill", blk.config = {},
                blk.param_names = ["out", "v"], blk.param_types = ["*i32", "i32"],
                blk.specialize = array<i32: 1>,
                blk.variant_of = "fill__w4", blk.variant_when = array<i32: 1>,
                blk.grid = "[{\"int\": 1}]"} {
  %c = arith.constant 99 : i32
  blk.store %out, %c : !blk.ptr<i32>
  return
}

func.func @fill__w4(%out: !blk.ptr<i32>, %v: i32)
    attributes {blk.kernel = "fill", blk.config = {},
                blk.param_names = ["out", "v"], blk.param_types = ["*i32", "i32"],
                blk.specialize = array<i32: 1>,
                blk.grid = "[{\"int\": 1}]"} {
  blk.store %out, %v : !blk.ptr<i32>
  return
}
