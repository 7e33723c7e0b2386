// Reductions along an axis with a generic combiner (argmax keeping the lowest
// index on ties), a max combiner, and an inclusive scan (cumsum).
// RUN: %blkc run %s -k rows --grid 1 --arg x=file:f32:%S/Inputs/rows.f32 --arg amax=zeros:i32:4 --arg mx=zeros:f32:4 --arg cs=zeros:f32:16 --print amax --print mx --print cs | FileCheck %s
// RUN: %blkc run %s -k rows --opt --grid 1 --arg x=file:f32:%S/Inputs/rows.f32 --arg amax=zeros:i32:4 --arg mx=zeros:f32:4 --arg cs=zeros:f32:16 --print amax --print mx --print cs | FileCheck %s
// CHECK: amax = [1, 0, 3, 0]
// CHECK-NEXT: mx = [5, 2, 9, -1]
// CHECK-NEXT: cs = [1, 6, 6, 11, 2, 4, 6, 8, 0, 1, 2, 11, -1, -2, -3, -4]

func.func @rows(%x: !blk.ptr<f32>, %amax: !blk.ptr<i32>, %mx: !blk.ptr<f32>, %cs: !blk.ptr<f32>)
    attributes {blk.kernel = "rows", blk.param_names = ["x", "amax", "mx", "cs"]} {
  %r16 = blk.make_range 0, 16 : tensor<16xi32>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<16x!blk.ptr<f32>>
  %xp = blk.addptr %xs, %r16 : tensor<16x!blk.ptr<f32>>, tensor<16xi32>
  %flat = blk.load %xp : tensor<16x!blk.ptr<f32>>
  %v = blk.reshape %flat : tensor<16xf32> -> tensor<4x4xf32>
  %r4 = blk.make_range 0, 4 : tensor<4xi32>
  %r4e = blk.expand_dims %r4 {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
  %idx = blk.broadcast %r4e : tensor<1x4xi32> -> tensor<4x4xi32>
  %am:2 = blk.reduce %v, %idx {axis = 1 : i32} : (tensor<4x4xf32>, tensor<4x4xi32>) -> (tensor<4xf32>, tensor<4xi32>) {
  ^bb0(%a: f32, %ai: i32, %b: f32, %bi: i32):
    %gt = arith.cmpf ogt, %a, %b : f32
    %eq = arith.cmpf oeq, %a, %b : f32
    %lt = arith.cmpi slt, %ai, %bi : i32
    %tie = arith.andi %eq, %lt : i1
    %left = arith.ori %gt, %tie : i1
    %v0 = arith.select %left, %a, %b : f32
    %i0 = arith.select %left, %ai, %bi : i32
    blk.reduce.return %v0, %i0 : f32, i32
  }
  %m = blk.reduce %v {axis = 1 : i32} : (tensor<4x4xf32>) -> tensor<4xf32> {
  ^bb0(%a: f32, %b: f32):
    %c = arith.maximumf %a, %b : f32
    blk.reduce.return %c : f32
  }
  %c = blk.scan %v {axis = 1 : i32, reverse = false} : (tensor<4x4xf32>) -> tensor<4x4xf32> {
  ^bb0(%a: f32, %b: f32):
    %s = arith.addf %a, %b : f32
    blk.scan.return %s : f32
  }
  %as = blk.splat %amax : !blk.ptr<i32> -> tensor<4x!blk.ptr<i32>>
  %ap = blk.addptr %as, %r4 : tensor<4x!blk.ptr<i32>>, tensor<4xi32>
  blk.store %ap, %am#1 : tensor<4x!blk.ptr<i32>>
  %ms = blk.splat %mx : !blk.ptr<f32> -> tensor<4x!blk.ptr<f32>>
  %mp = blk.addptr %ms, %r4 : tensor<4x!blk.ptr<f32>>, tensor<4xi32>
  blk.store %mp, %m : tensor<4x!blk.ptr<f32>>
  %cflat = blk.reshape %c : tensor<4x4xf32> -> tensor<16xf32>
  %css = blk.splat %cs : !blk.ptr<f32> -> tensor<16x!blk.ptr<f32>>
  %cp = blk.addptr %css, %r16 : tensor<16x!blk.ptr<f32>>, tensor<16xi32>
  blk.store %cp, %cflat : tensor<16x!blk.ptr<f32>>
  return
}
