// `blkc run` on blk IR: the seeds' `double` kernel (BLOCK = 8), masked tail,
// grid from the `blk.grid` attribute or --grid, several threads.
// RUN: %blkc run %s -k double_grid --arg x=iota:f32:7 --arg out=zeros:f32:7 --arg n=7 --print out | FileCheck %s --check-prefix=SEVEN
// SEVEN: out = [0, 2, 4, 6, 8, 10, 12]
// RUN: %blkc run %s -k double_grid -D BLOCK=8 --arg x=iota:f32:10 --arg out=zeros:f32:10 --arg n=10 --print out --print x | FileCheck %s --check-prefix=TEN
// TEN: out = [0, 2, 4, 6, 8, 10, 12, 14, 16, 18]
// TEN-NEXT: x = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
// RUN: %blkc run %s -k double_grid --grid 2 --threads 2 --arg x=fill:f32:16:0.1 --arg out=zeros:f32:16 --arg n=12 --print out | FileCheck %s --check-prefix=FILL
// FILL: out = [0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0, 0, 0, 0]
// RUN: %blkc run %s -k double_grid --arg x=iota:f32:4 --arg out=zeros:f32:4 --arg n=4 --out out=%t.bin
// RUN: %blkc run %s -k double_grid --arg x=file:f32:%t.bin --arg out=zeros:f32:4 --arg n=4 --print out | FileCheck %s --check-prefix=FILE
// FILE: out = [0, 4, 8, 12]

func.func @double_grid__BLOCK_8__w4(%x: !blk.ptr<f32>, %out: !blk.ptr<f32>, %n: i32)
    attributes {blk.kernel = "double_grid", blk.config = {BLOCK = 8 : i64},
                blk.param_names = ["x", "out", "n"], blk.param_types = ["*f32", "*f32", "i32"],
                blk.grid = "[{\"op\": \"cdiv\", \"args\": [{\"param\": 2}, {\"int\": 8}]}]"} {
  %pid = blk.program_id 0
  %c8 = arith.constant 8 : i32
  %base = arith.muli %pid, %c8 : i32
  %r = blk.make_range 0, 8 : tensor<8xi32>
  %bs = blk.splat %base : i32 -> tensor<8xi32>
  %offs = arith.addi %bs, %r : tensor<8xi32>
  %ns = blk.splat %n : i32 -> tensor<8xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<8xi32>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<8x!blk.ptr<f32>>
  %xp = blk.addptr %xs, %offs : tensor<8x!blk.ptr<f32>>, tensor<8xi32>
  %zero = arith.constant dense<0.0> : tensor<8xf32>
  %v = blk.load %xp, %mask, %zero : tensor<8x!blk.ptr<f32>>
  %two = arith.constant dense<2.0> : tensor<8xf32>
  %d = arith.mulf %v, %two : tensor<8xf32>
  %os = blk.splat %out : !blk.ptr<f32> -> tensor<8x!blk.ptr<f32>>
  %op = blk.addptr %os, %offs : tensor<8x!blk.ptr<f32>>, tensor<8xi32>
  blk.store %op, %d, %mask : tensor<8x!blk.ptr<f32>>
  return
}
