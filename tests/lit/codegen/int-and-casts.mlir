// Integer and conversion ops: signed/unsigned division and remainder,
// shifts, min/max, select, int<->float and f16 casts, i64 widening.
// RUN: blk-codegen-test %s --emit=ptx > %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: FileCheck %s < %t.ptx

// (remainders are computed from the quotients)
// CHECK-DAG: div.s32
// CHECK-DAG: div.u32
// CHECK-DAG: shr.s32
// CHECK-DAG: shr.u32
// CHECK-DAG: cvt.rn.f32.u32
// CHECK-DAG: cvt.rn.f16.f32
// CHECK-DAG: cvt.rzi.s32.f16
// CHECK-DAG: mul.lo.s64

func.func @intops__w2(%a: !blk.ptr<i32>, %b: !blk.ptr<i32>, %o: !blk.ptr<i32>, %f: !blk.ptr<f32>, %q: !blk.ptr<i64>) attributes {blk.num_warps = 2 : i32} {
  %r = blk.make_range 0, 256 : tensor<256xi32>
  %as = blk.splat %a : !blk.ptr<i32> -> tensor<256x!blk.ptr<i32>>
  %ap = blk.addptr %as, %r : tensor<256x!blk.ptr<i32>>, tensor<256xi32>
  %x = blk.load %ap : tensor<256x!blk.ptr<i32>>
  %bs = blk.splat %b : !blk.ptr<i32> -> tensor<256x!blk.ptr<i32>>
  %bp = blk.addptr %bs, %r : tensor<256x!blk.ptr<i32>>, tensor<256xi32>
  %y = blk.load %bp : tensor<256x!blk.ptr<i32>>
  %d1 = arith.divsi %x, %y : tensor<256xi32>
  %d2 = arith.remsi %x, %y : tensor<256xi32>
  %d3 = arith.divui %x, %y : tensor<256xi32>
  %d4 = arith.remui %x, %y : tensor<256xi32>
  %c3 = arith.constant dense<3> : tensor<256xi32>
  %d5 = arith.shrsi %x, %c3 : tensor<256xi32>
  %d6 = arith.shrui %x, %c3 : tensor<256xi32>
  %d7 = arith.maxui %x, %y : tensor<256xi32>
  %d8 = arith.minsi %x, %y : tensor<256xi32>
  %d9 = arith.xori %x, %y : tensor<256xi32>
  %lt = arith.cmpi ult, %x, %y : tensor<256xi32>
  %d10 = arith.select %lt, %d1, %d2 : tensor<256xi1>, tensor<256xi32>
  %s1 = arith.addi %d1, %d2 : tensor<256xi32>
  %s2 = arith.muli %d3, %d4 : tensor<256xi32>
  %s3 = arith.subi %d5, %d6 : tensor<256xi32>
  %s4 = arith.addi %d7, %d8 : tensor<256xi32>
  %s5 = arith.addi %d9, %d10 : tensor<256xi32>
  %t1 = arith.xori %s1, %s2 : tensor<256xi32>
  %t2 = arith.xori %s3, %s4 : tensor<256xi32>
  %t3 = arith.xori %t1, %t2 : tensor<256xi32>
  %t4 = arith.xori %t3, %s5 : tensor<256xi32>
  %os = blk.splat %o : !blk.ptr<i32> -> tensor<256x!blk.ptr<i32>>
  %op = blk.addptr %os, %r : tensor<256x!blk.ptr<i32>>, tensor<256xi32>
  blk.store %op, %t4 : tensor<256x!blk.ptr<i32>>
  %xf = arith.sitofp %x : tensor<256xi32> to tensor<256xf32>
  %yf = arith.uitofp %y : tensor<256xi32> to tensor<256xf32>
  %qf = arith.divf %xf, %yf : tensor<256xf32>
  %qh = arith.truncf %qf : tensor<256xf32> to tensor<256xf16>
  %qe = arith.extf %qh : tensor<256xf16> to tensor<256xf32>
  %qi = arith.fptosi %qe : tensor<256xf32> to tensor<256xi32>
  %qif = arith.sitofp %qi : tensor<256xi32> to tensor<256xf32>
  %res = arith.addf %qe, %qif : tensor<256xf32>
  %fs = blk.splat %f : !blk.ptr<f32> -> tensor<256x!blk.ptr<f32>>
  %fp = blk.addptr %fs, %r : tensor<256x!blk.ptr<f32>>, tensor<256xi32>
  blk.store %fp, %res : tensor<256x!blk.ptr<f32>>
  %x64 = arith.extsi %x : tensor<256xi32> to tensor<256xi64>
  %y64 = arith.extui %y : tensor<256xi32> to tensor<256xi64>
  %p64 = arith.muli %x64, %y64 : tensor<256xi64>
  %qs = blk.splat %q : !blk.ptr<i64> -> tensor<256x!blk.ptr<i64>>
  %qp = blk.addptr %qs, %r : tensor<256x!blk.ptr<i64>>, tensor<256xi32>
  blk.store %qp, %p64 : tensor<256x!blk.ptr<i64>>
  return
}
