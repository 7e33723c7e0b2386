// `print` writes printf-style lines per program and element; `assert` stops
// the run at its source line with the program id and element (exit 1).
// RUN: %blkc run %s -k dbg --grid 2 --arg n=2 | FileCheck %s
// CHECK: pid (0, 0, 0) idx (0) r=0 f=0.50 n=2
// CHECK-NEXT: pid (0, 0, 0) idx (1) r=1 f=1.50 n=2
// CHECK-NEXT: pid (0, 0, 0) loop i=0
// CHECK-NEXT: pid (0, 0, 0) loop i=1
// CHECK-NEXT: pid (1, 0, 0) idx (0) r=0 f=0.50 n=2
// CHECK-NEXT: pid (1, 0, 0) idx (1) r=1 f=1.50 n=2
// CHECK-NEXT: pid (1, 0, 0) loop i=0
// CHECK-NEXT: pid (1, 0, 0) loop i=1
// CHECK-NEXT: pid (1, 0, 0) odd program
// RUN: not %blkc run %s -k dbg --grid 2 --arg n=1 > %t.out 2> %t.err
// RUN: FileCheck %s --check-prefix=ASSERT --input-file=%t.err
// RUN: FileCheck %s --check-prefix=BEFORE --input-file=%t.out
// ASSERT: print-assert.mlir:[[@LINE+29]]:3: error: assertion failed: r < n in kernel `dbg`, program (0,0,0), block element [1]
// BEFORE: pid (0, 0, 0) loop i=0
// BEFORE-NOT: pid (1, 0, 0)

func.func @dbg(%n: i32) attributes {blk.kernel = "dbg", blk.param_names = ["n"]} {
  %pid = blk.program_id 0
  %r = blk.make_range 0, 2 : tensor<2xi32>
  %f = arith.sitofp %r : tensor<2xi32> to tensor<2xf32>
  %half = arith.constant dense<0.5> : tensor<2xf32>
  %fh = arith.addf %f, %half : tensor<2xf32>
  blk.print "r=%d f=%.2f n=%d" %r, %fh, %n : tensor<2xi32>, tensor<2xf32>, i32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %last = scf.while (%i = %c0) : (i32) -> i32 {
    %go = arith.cmpi slt, %i, %n : i32
    scf.condition(%go) %i : i32
  } do {
  ^bb0(%i: i32):
    blk.print "loop i=%d" %i : i32
    %next = arith.addi %i, %c1 : i32
    scf.yield %next : i32
  }
  %odd = arith.andi %pid, %c1 : i32
  %isOdd = arith.cmpi ne, %odd, %c0 : i32
  scf.if %isOdd {
    blk.print "odd program"
  }
  %ns = blk.splat %n : i32 -> tensor<2xi32>
  %ok = arith.cmpi slt, %r, %ns : tensor<2xi32>
  blk.assert %ok, "r < n", "dbg.blk", 3 : tensor<2xi1>
  return
}
