// scf.while and scf.if with results on scalars.
// RUN: blk-codegen-test %s --emit=ptx > %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: FileCheck %s < %t.ptx

// CHECK: .maxntid 32, 1, 1
// CHECK: add.s32 {{.*}}, 3;
// CHECK: neg.s32
// CHECK-NOT: ld.local

func.func @control__w1(%out: !blk.ptr<i32>, %n: i32) attributes {blk.kernel = "control", blk.num_warps = 1 : i32} {
  %pid = blk.program_id 0
  %c0 = arith.constant 0 : i32
  %c3 = arith.constant 3 : i32
  %w = scf.while (%i = %c0) : (i32) -> i32 {
    %lt = arith.cmpi slt, %i, %n : i32
    scf.condition(%lt) %i : i32
  } do {
  ^bb0(%i: i32):
    %nx = arith.addi %i, %c3 : i32
    scf.yield %nx : i32
  }
  %is0 = arith.cmpi eq, %pid, %c0 : i32
  %v = scf.if %is0 -> (i32) {
    scf.yield %w : i32
  } else {
    %neg = arith.subi %c0, %w : i32
    scf.yield %neg : i32
  }
  %p = blk.addptr %out, %pid : !blk.ptr<i32>, i32
  blk.store %p, %v : !blk.ptr<i32>
  return
}
