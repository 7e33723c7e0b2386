// print (vprintf, one line per owned element, with the program id and the
// element index) and assert (__assertfail with message, file and line).
// RUN: blk-codegen-test %s --emit=ptx > %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: FileCheck %s < %t.ptx
// RUN: blk-codegen-test %s --emit=llvm | FileCheck %s --check-prefix=LLVM

// CHECK: .extern .func  (.param .b32 func_retval0) vprintf
// CHECK: .extern .func __assertfail
// CHECK: call.uni (retval0),
// CHECK-NEXT: vprintf,
// CHECK: call.uni
// CHECK-NEXT: __assertfail,
// LLVM: c"pid (%u, %u, %u) idx (%d) x: %d, %d\0A\00"
// LLVM: c"x < n\00"
// LLVM: c"debug.blk\00"
// LLVM: call void @__assertfail(ptr @{{.*}}, ptr @{{.*}}, i32 7, ptr @{{.*}}, i64 1)

func.func @debug__w1(%x: !blk.ptr<i32>, %n: i32) attributes {blk.kernel = "debug", blk.num_warps = 1 : i32} {
  %r = blk.make_range 0, 8 : tensor<8xi32>
  %xs = blk.splat %x : !blk.ptr<i32> -> tensor<8x!blk.ptr<i32>>
  %xp = blk.addptr %xs, %r : tensor<8x!blk.ptr<i32>>, tensor<8xi32>
  %v = blk.load %xp : tensor<8x!blk.ptr<i32>>
  blk.print "x" %v, %n : tensor<8xi32>, i32
  %ns = blk.splat %n : i32 -> tensor<8xi32>
  %ok = arith.cmpi slt, %v, %ns : tensor<8xi32>
  blk.assert %ok, "x < n", "debug.blk", 7 : tensor<8xi1>
  return
}
