// The seeds' kernels as IRGen emits them: sum over 0..999 in 8 chunks of 128
// gives 499500; the 4x6 transpose in 2x2 tiles on a 2-D grid of 6 programs.
// RUN: %blkc run %s -k sum_gridstride --grid 1 --arg x=iota:f32:1000 --arg out=zeros:f32:1 --arg n=1000 --print out | FileCheck %s --check-prefix=SUM
// SUM: out = [499500]
// RUN: %blkc run %s -k transpose_tile --arg x=iota:f32:24 --arg out=zeros:f32:24 --arg M=4 --arg N=6 --arg sxm=6 --arg sxn=1 --arg som=4 --arg son=1 --print out | FileCheck %s --check-prefix=T
// RUN: %blkc run %s -k transpose_tile --threads 3 --arg x=iota:f32:24 --arg out=zeros:f32:24 --arg M=4 --arg N=6 --arg sxm=6 --arg sxn=1 --arg som=4 --arg son=1 --print out | FileCheck %s --check-prefix=T
// The same results after the optimisation pipeline:
// RUN: %blkc run %s -k sum_gridstride --opt --grid 1 --arg x=iota:f32:1000 --arg out=zeros:f32:1 --arg n=1000 --print out | FileCheck %s --check-prefix=SUM
// RUN: %blkc run %s -k transpose_tile --opt --arg x=iota:f32:24 --arg out=zeros:f32:24 --arg M=4 --arg N=6 --arg sxm=6 --arg sxn=1 --arg som=4 --arg son=1 --print out | FileCheck %s --check-prefix=T
// T: out = [0, 6, 12, 18, 1, 7, 13, 19, 2, 8, 14, 20, 3, 9, 15, 21, 4, 10, 16, 22, 5, 11, 17, 23]

func.func @sum_gridstride__BLOCK_128__NUM_CHUNKS_8__w4(%x: !blk.ptr<f32>, %out: !blk.ptr<f32>, %n: i32)
    attributes {blk.kernel = "sum_gridstride", blk.param_names = ["x", "out", "n"],
                blk.config = {BLOCK = 128 : i64, NUM_CHUNKS = 8 : i64}} {
  %r = blk.make_range 0, 128 : tensor<128xi32>
  %acc0 = arith.constant dense<0.0> : tensor<128xf32>
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c8 = arith.constant 8 : i32
  %c128 = arith.constant 128 : i32
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<128x!blk.ptr<f32>>
  %ns = blk.splat %n : i32 -> tensor<128xi32>
  %acc = scf.for %c = %c0 to %c8 step %c1 iter_args(%a = %acc0) -> (tensor<128xf32>) : i32 {
    %base = arith.muli %c, %c128 : i32
    %bs = blk.splat %base : i32 -> tensor<128xi32>
    %offs = arith.addi %bs, %r : tensor<128xi32>
    %mask = arith.cmpi slt, %offs, %ns : tensor<128xi32>
    %p = blk.addptr %xs, %offs : tensor<128x!blk.ptr<f32>>, tensor<128xi32>
    %v = blk.load %p, %mask, %acc0 : tensor<128x!blk.ptr<f32>>
    %s = arith.addf %a, %v : tensor<128xf32>
    scf.yield %s : tensor<128xf32>
  }
  %total = blk.reduce %acc {axis = 0 : i32} : (tensor<128xf32>) -> f32 {
  ^bb0(%l: f32, %rr: f32):
    %t = arith.addf %l, %rr : f32
    blk.reduce.return %t : f32
  }
  blk.store %out, %total : !blk.ptr<f32>
  return
}

func.func @transpose_tile__BLOCK_M_2__BLOCK_N_2__w4(%x: !blk.ptr<f32>, %out: !blk.ptr<f32>,
    %M: i32, %N: i32, %sxm: i32, %sxn: i32, %som: i32, %son: i32)
    attributes {blk.kernel = "transpose_tile",
                blk.param_names = ["x", "out", "M", "N", "sxm", "sxn", "som", "son"],
                blk.config = {BLOCK_M = 2 : i64, BLOCK_N = 2 : i64},
                blk.grid = "[{\"op\": \"cdiv\", \"args\": [{\"param\": 2}, {\"int\": 2}]}, {\"op\": \"cdiv\", \"args\": [{\"param\": 3}, {\"int\": 2}]}]"} {
  %pm = blk.program_id 0
  %pn = blk.program_id 1
  %c2 = arith.constant 2 : i32
  %r = blk.make_range 0, 2 : tensor<2xi32>
  %bm = arith.muli %pm, %c2 : i32
  %bn = arith.muli %pn, %c2 : i32
  %bms = blk.splat %bm : i32 -> tensor<2xi32>
  %bns = blk.splat %bn : i32 -> tensor<2xi32>
  %rows = arith.addi %bms, %r : tensor<2xi32>
  %cols = arith.addi %bns, %r : tensor<2xi32>
  %rows2 = blk.expand_dims %rows {axis = 1 : i32} : tensor<2xi32> -> tensor<2x1xi32>
  %cols2 = blk.expand_dims %cols {axis = 0 : i32} : tensor<2xi32> -> tensor<1x2xi32>
  %Ms = blk.splat %M : i32 -> tensor<2x1xi32>
  %Ns = blk.splat %N : i32 -> tensor<1x2xi32>
  %mr = arith.cmpi slt, %rows2, %Ms : tensor<2x1xi32>
  %mc = arith.cmpi slt, %cols2, %Ns : tensor<1x2xi32>
  %mrb = blk.broadcast %mr : tensor<2x1xi1> -> tensor<2x2xi1>
  %mcb = blk.broadcast %mc : tensor<1x2xi1> -> tensor<2x2xi1>
  %mask = arith.andi %mrb, %mcb : tensor<2x2xi1>
  %sxms = blk.splat %sxm : i32 -> tensor<2x1xi32>
  %sxns = blk.splat %sxn : i32 -> tensor<1x2xi32>
  %ro = arith.muli %rows2, %sxms : tensor<2x1xi32>
  %co = arith.muli %cols2, %sxns : tensor<1x2xi32>
  %rob = blk.broadcast %ro : tensor<2x1xi32> -> tensor<2x2xi32>
  %cob = blk.broadcast %co : tensor<1x2xi32> -> tensor<2x2xi32>
  %xoff = arith.addi %rob, %cob : tensor<2x2xi32>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<2x2x!blk.ptr<f32>>
  %xp = blk.addptr %xs, %xoff : tensor<2x2x!blk.ptr<f32>>, tensor<2x2xi32>
  %zero = arith.constant dense<0.0> : tensor<2x2xf32>
  %tile = blk.load %xp, %mask, %zero : tensor<2x2x!blk.ptr<f32>>
  %soms = blk.splat %som : i32 -> tensor<1x2xi32>
  %sons = blk.splat %son : i32 -> tensor<2x1xi32>
  %oc = arith.muli %cols2, %soms : tensor<1x2xi32>
  %or = arith.muli %rows2, %sons : tensor<2x1xi32>
  %ocb = blk.broadcast %oc : tensor<1x2xi32> -> tensor<2x2xi32>
  %orb = blk.broadcast %or : tensor<2x1xi32> -> tensor<2x2xi32>
  %ooff = arith.addi %ocb, %orb : tensor<2x2xi32>
  %os = blk.splat %out : !blk.ptr<f32> -> tensor<2x2x!blk.ptr<f32>>
  %op = blk.addptr %os, %ooff : tensor<2x2x!blk.ptr<f32>>, tensor<2x2xi32>
  blk.store %op, %tile, %mask : tensor<2x2x!blk.ptr<f32>>
  return
}
