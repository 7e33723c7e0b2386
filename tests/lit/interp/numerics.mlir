// f16 storage and arithmetic rounded per op, dot with f32 accumulation,
// integer division truncating toward zero, atomics from many programs on
// threads, and --check-uninit.
// RUN: %blkc run %s -k half --grid 1 --arg x=fill:f16:4:0.1 --arg y=zeros:f16:4 --print y | FileCheck %s --check-prefix=HALF
// HALF: y = [2048, 2048, 2048, 2048]
// RUN: %blkc run %s -k mm --grid 1 --arg a=iota:f16:256 --arg b=fill:f16:256:0.5 --arg c=zeros:f32:256 --print c | FileCheck %s --check-prefix=MM
// Row i of a holds 16i..16i+15, so every c[i][j] = 0.5 * (256i + 120).
// MM: c = [60, 60, 60, 60, 60, 60, 60, 60, 60, 60, 60, 60, 60, 60, 60, 60, 188, 188,
// RUN: %blkc run %s -k divs --grid 1 --arg q=zeros:i32:4 --print q | FileCheck %s --check-prefix=DIV
// DIV: q = [-3, 3, -1, 1]
// RUN: %blkc run %s -k hist --grid 64,4 --threads 4 --arg h=zeros:u32:4 --print h | FileCheck %s --check-prefix=HIST
// HIST: h = [256, 256, 256, 256]
// RUN: not %blkc run %s -k half --grid 1 --check-uninit --arg x=zeros:f16:4 --arg y=zeros:f16:4 2>&1 | FileCheck %s --check-prefix=UNINIT
// UNINIT: error: load of never-written x[0] in kernel `half`, program (0,0,0), block element [0]

// y = x + 2048 in f16: 2048.1 rounds to 2048 (f16 values there are 2 apart).
func.func @half(%x: !blk.ptr<f16>, %y: !blk.ptr<f16>) attributes {blk.param_names = ["x", "y"]} {
  %r = blk.make_range 0, 4 : tensor<4xi32>
  %xs = blk.splat %x : !blk.ptr<f16> -> tensor<4x!blk.ptr<f16>>
  %xp = blk.addptr %xs, %r : tensor<4x!blk.ptr<f16>>, tensor<4xi32>
  %v = blk.load %xp : tensor<4x!blk.ptr<f16>>
  %big = arith.constant dense<2048.0> : tensor<4xf16>
  %s = arith.addf %v, %big : tensor<4xf16>
  %ys = blk.splat %y : !blk.ptr<f16> -> tensor<4x!blk.ptr<f16>>
  %yp = blk.addptr %ys, %r : tensor<4x!blk.ptr<f16>>, tensor<4xi32>
  blk.store %yp, %s : tensor<4x!blk.ptr<f16>>
  return
}

func.func @mm(%a: !blk.ptr<f16>, %b: !blk.ptr<f16>, %c: !blk.ptr<f32>)
    attributes {blk.param_names = ["a", "b", "c"]} {
  %r = blk.make_range 0, 256 : tensor<256xi32>
  %as = blk.splat %a : !blk.ptr<f16> -> tensor<256x!blk.ptr<f16>>
  %ap = blk.addptr %as, %r : tensor<256x!blk.ptr<f16>>, tensor<256xi32>
  %av = blk.load %ap : tensor<256x!blk.ptr<f16>>
  %bs = blk.splat %b : !blk.ptr<f16> -> tensor<256x!blk.ptr<f16>>
  %bp = blk.addptr %bs, %r : tensor<256x!blk.ptr<f16>>, tensor<256xi32>
  %bv = blk.load %bp : tensor<256x!blk.ptr<f16>>
  %am = blk.reshape %av : tensor<256xf16> -> tensor<16x16xf16>
  %bm = blk.reshape %bv : tensor<256xf16> -> tensor<16x16xf16>
  %acc = arith.constant dense<0.0> : tensor<16x16xf32>
  %d = blk.dot %am, %bm, %acc : tensor<16x16xf16> * tensor<16x16xf16> -> tensor<16x16xf32>
  %df = blk.reshape %d : tensor<16x16xf32> -> tensor<256xf32>
  %cs = blk.splat %c : !blk.ptr<f32> -> tensor<256x!blk.ptr<f32>>
  %cp = blk.addptr %cs, %r : tensor<256x!blk.ptr<f32>>, tensor<256xi32>
  blk.store %cp, %df : tensor<256x!blk.ptr<f32>>
  return
}

func.func @divs(%q: !blk.ptr<i32>) attributes {blk.param_names = ["q"]} {
  %a = arith.constant dense<[-7, 7, -7, 7]> : tensor<4xi32>
  %b = arith.constant dense<[2, 2, 4, 4]> : tensor<4xi32>
  %d = arith.divsi %a, %b : tensor<4xi32>
  %r = blk.make_range 0, 4 : tensor<4xi32>
  %qs = blk.splat %q : !blk.ptr<i32> -> tensor<4x!blk.ptr<i32>>
  %qp = blk.addptr %qs, %r : tensor<4x!blk.ptr<i32>>, tensor<4xi32>
  blk.store %qp, %d : tensor<4x!blk.ptr<i32>>
  return
}

func.func @hist(%h: !blk.ptr<i32>) attributes {blk.param_names = ["h"], blk.param_types = ["*u32"]} {
  %r = blk.make_range 0, 4 : tensor<4xi32>
  %one = arith.constant dense<1> : tensor<4xi32>
  %hs = blk.splat %h : !blk.ptr<i32> -> tensor<4x!blk.ptr<i32>>
  %hp = blk.addptr %hs, %r : tensor<4x!blk.ptr<i32>>, tensor<4xi32>
  %old = blk.atomic_rmw add %hp, %one : tensor<4x!blk.ptr<i32>>
  return
}

// `p as *i32` reads the f32 bits; `as *f16` halves the element size.
// RUN: %blkc run %s -k cast --grid 1 --arg x=fill:f32:2:1.0 --arg bits=zeros:i32:2 --arg halves=zeros:i32:4 --print bits --print halves | FileCheck %s --check-prefix=CAST
// CAST: bits = [1065353216, 1065353216]
// CAST-NEXT: halves = [0, 16256, 0, 16256]
func.func @cast(%x: !blk.ptr<f32>, %bits: !blk.ptr<i32>, %halves: !blk.ptr<i32>)
    attributes {blk.param_names = ["x", "bits", "halves"]} {
  %r2 = blk.make_range 0, 2 : tensor<2xi32>
  %r4 = blk.make_range 0, 4 : tensor<4xi32>
  %xi = blk.ptr_cast %x : !blk.ptr<f32> -> !blk.ptr<i32>
  %xis = blk.splat %xi : !blk.ptr<i32> -> tensor<2x!blk.ptr<i32>>
  %xip = blk.addptr %xis, %r2 : tensor<2x!blk.ptr<i32>>, tensor<2xi32>
  %b = blk.load %xip : tensor<2x!blk.ptr<i32>>
  %bs = blk.splat %bits : !blk.ptr<i32> -> tensor<2x!blk.ptr<i32>>
  %bp = blk.addptr %bs, %r2 : tensor<2x!blk.ptr<i32>>, tensor<2xi32>
  blk.store %bp, %b : tensor<2x!blk.ptr<i32>>
  %xh = blk.ptr_cast %x : !blk.ptr<f32> -> !blk.ptr<i16>
  %xhs = blk.splat %xh : !blk.ptr<i16> -> tensor<4x!blk.ptr<i16>>
  %xhp = blk.addptr %xhs, %r4 : tensor<4x!blk.ptr<i16>>, tensor<4xi32>
  %h = blk.load %xhp : tensor<4x!blk.ptr<i16>>
  %hw = arith.extui %h : tensor<4xi16> to tensor<4xi32>
  %hs = blk.splat %halves : !blk.ptr<i32> -> tensor<4x!blk.ptr<i32>>
  %hp = blk.addptr %hs, %r4 : tensor<4x!blk.ptr<i32>>, tensor<4xi32>
  blk.store %hp, %hw : tensor<4x!blk.ptr<i32>>
  return
}
