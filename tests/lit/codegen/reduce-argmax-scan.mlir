// argmax as one two-operand reduce (value, index) and cumsum as a scan.
// RUN: blk-codegen-test %s --emit=ptx > %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: FileCheck %s < %t.ptx

// Both operands cross lanes: two shuffles per butterfly step.
// CHECK-COUNT-10: shfl.sync.bfly.b32
// CHECK: bar.sync
// CHECK-NOT: ld.local

func.func @argmax__w4(%x: !blk.ptr<f32>, %out: !blk.ptr<i32>, %cum: !blk.ptr<f32>)
    attributes {blk.kernel = "argmax", blk.num_warps = 4 : i32} {
  %r = blk.make_range 0, 256 : tensor<256xi32>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<256x!blk.ptr<f32>>
  %xp = blk.addptr %xs, %r : tensor<256x!blk.ptr<f32>>, tensor<256xi32>
  %v = blk.load %xp : tensor<256x!blk.ptr<f32>>
  %mv, %mi = blk.reduce %v, %r {axis = 0 : i32} : (tensor<256xf32>, tensor<256xi32>) -> (f32, i32) {
  ^bb0(%va: f32, %ia: i32, %vb: f32, %ib: i32):
    %gt = arith.cmpf ogt, %va, %vb : f32
    %eq = arith.cmpf oeq, %va, %vb : f32
    %lt = arith.cmpi slt, %ia, %ib : i32
    %el = arith.andi %eq, %lt : i1
    %keep = arith.ori %gt, %el : i1
    %vr = arith.select %keep, %va, %vb : f32
    %ir = arith.select %keep, %ia, %ib : i32
    blk.reduce.return %vr, %ir : f32, i32
  }
  blk.store %out, %mi : !blk.ptr<i32>
  %c = blk.scan %v {axis = 0 : i32, reverse = false} : (tensor<256xf32>) -> tensor<256xf32> {
  ^bb0(%l: f32, %rr: f32):
    %t = arith.addf %l, %rr : f32
    blk.scan.return %t : f32
  }
  %cs = blk.splat %cum : !blk.ptr<f32> -> tensor<256x!blk.ptr<f32>>
  %cp = blk.addptr %cs, %r : tensor<256x!blk.ptr<f32>>, tensor<256xi32>
  blk.store %cp, %c : tensor<256x!blk.ptr<f32>>
  return
}
