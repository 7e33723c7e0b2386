// blkgpu-propagate-mma-layouts on hand-written blkgpu IR (the shape of an
// attention loop after blkgpu-accelerate-matmul): the scores S of a wgmma
// are converted to a blocked layout for their users; the pass computes
// those users in S's mma layout instead: the row max (a reduction along
// the rows: quad shuffles), the running max the loop carries, its
// broadcast back over S, exp2, the cast to f16 and the store of P into
// the second wgmma's buffer. No conversion is left in the loop; the one
// after it (for the store of the running max) stays. A reduction across
// warps and a user whose other operand would have to move keep theirs.
// RUN: blk-opt %s --blkgpu-propagate-mma-layouts | FileCheck %s
// RUN: blk-opt %s --blkgpu-propagate-mma-layouts --blkgpu-wgmma-register-a | FileCheck %s --check-prefix=REG

#b = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [8, 4], warpsPerCTA = [4, 1], order = [1, 0]}>
#rows = #blkgpu.slice<{dim = 1, parent = #b}>
#cols = #blkgpu.slice<{dim = 0, parent = #b}>
#mma = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 64}>
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>

// CHECK-DAG: #[[MMA:mma[0-9]*]] = #blkgpu.mma<{version = 3, warpsPerCTA = [4, 1], instrN = 64}>
// CHECK-DAG: #[[ROWS:slice[0-9]*]] = #blkgpu.slice<{dim = 1, parent = #[[MMA]]}>
// CHECK-LABEL: func.func @attention_rows
// CHECK: %[[R:.*]]:2 = scf.for {{.*}} -> (tensor<64xf32, #[[ROWS]]>, tensor<64x64xf32, #[[MMA]]>)
// CHECK-NOT: convert_layout
// CHECK: %[[S:.*]] = blkgpu.wgmma
// CHECK-NOT: convert_layout
// CHECK: blk.reduce %[[S]] {axis = 1 : i32} : (tensor<64x64xf32, #[[MMA]]>) -> tensor<64xf32, #[[ROWS]]>
// CHECK-NOT: convert_layout
// CHECK: arith.maximumf {{.*}} : tensor<64xf32, #[[ROWS]]>
// CHECK: blk.expand_dims {{.*}} : tensor<64xf32, #[[ROWS]]> -> tensor<64x1xf32, #[[MMA]]>
// CHECK: blk.broadcast {{.*}} -> tensor<64x64xf32, #[[MMA]]>
// CHECK: math.exp2 {{.*}} : tensor<64x64xf32, #[[MMA]]>
// CHECK: %[[P:.*]] = arith.truncf {{.*}} to tensor<64x64xf16, #[[MMA]]>
// CHECK-NOT: convert_layout
// CHECK: blkgpu.local_alloc %[[P]] : tensor<64x64xf16, #[[MMA]]>
// CHECK: scf.yield {{.*}} : tensor<64xf32, #[[ROWS]]>, tensor<64x64xf32, #[[MMA]]>
// CHECK: %[[OUT:.*]] = blkgpu.convert_layout %[[R]]#0 : tensor<64xf32, #[[ROWS]]> -> tensor<64xf32, #{{.*}}>
// CHECK: blk.store %{{.*}}, %[[OUT]]
// REG-LABEL: func.func @attention_rows
// REG-NOT: local_alloc
// REG: %[[P:.*]] = arith.truncf {{.*}} to tensor<64x64xf16, #mma>
// REG-NOT: local_alloc
// REG: blkgpu.wgmma %[[P]], %{{.*}}, %{{.*}} : tensor<64x64xf16, #mma>, !blkgpu.memdesc<64x64xf16, #{{.*}}>
func.func @attention_rows(%qb: !blkgpu.memdesc<64x64xf16, #nv>, %kb: !blkgpu.memdesc<64x64xf16, #nv>,
                          %vb: !blkgpu.memdesc<64x64xf16, #nv>, %n: i32,
                          %out: tensor<64x!blk.ptr<f32>, #rows>)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %minf = arith.constant dense<0xFF800000> : tensor<64xf32, #rows>
  %r:2 = scf.for %i = %c0 to %n step %c1 iter_args(%m = %minf, %acc = %zero) -> (tensor<64xf32, #rows>, tensor<64x64xf32, #mma>) : i32 {
    %s = blkgpu.wgmma %qb, %kb, %zero : !blkgpu.memdesc<64x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
    %sb = blkgpu.convert_layout %s : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #b>
    %mx = blk.reduce %sb {axis = 1 : i32} : (tensor<64x64xf32, #b>) -> tensor<64xf32, #rows> {
    ^bb0(%x: f32, %y: f32):
      %z = arith.maximumf %x, %y : f32
      blk.reduce.return %z : f32
    }
    %mn = arith.maximumf %m, %mx : tensor<64xf32, #rows>
    %e = blk.expand_dims %mn {axis = 1 : i32} : tensor<64xf32, #rows> -> tensor<64x1xf32, #b>
    %bc = blk.broadcast %e : tensor<64x1xf32, #b> -> tensor<64x64xf32, #b>
    %d = arith.subf %sb, %bc : tensor<64x64xf32, #b>
    %p = math.exp2 %d : tensor<64x64xf32, #b>
    %ph = arith.truncf %p : tensor<64x64xf32, #b> to tensor<64x64xf16, #b>
    %pa = blkgpu.local_alloc %ph : tensor<64x64xf16, #b> -> !blkgpu.memdesc<64x64xf16, #nv>
    %o = blkgpu.wgmma %pa, %vb, %acc : !blkgpu.memdesc<64x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
    scf.yield %mn, %o : tensor<64xf32, #rows>, tensor<64x64xf32, #mma>
  }
  blk.store %out, %r#0 : tensor<64x!blk.ptr<f32>, #rows>
  return
}

// A sum down the columns crosses the four warps (rows 16 apart): the
// emitter reduces an mma layout only within a warp, so the conversion
// stays before it. An add with a block that would have to move (a
// function argument, not recomputable) keeps its conversion too.
// CHECK-LABEL: func.func @stays
// CHECK: %[[S:.*]] = blkgpu.wgmma
// CHECK: %[[SB:.*]] = blkgpu.convert_layout %[[S]] : tensor<64x64xf32, #[[MMA]]> -> tensor<64x64xf32, #[[B:blocked[0-9]*]]>
// CHECK: blk.reduce %[[SB]] {axis = 0 : i32} : (tensor<64x64xf32, #[[B]]>)
// CHECK: arith.addf %[[SB]], %{{.*}} : tensor<64x64xf32, #[[B]]>
func.func @stays(%qb: !blkgpu.memdesc<64x64xf16, #nv>, %kb: !blkgpu.memdesc<64x64xf16, #nv>,
                 %x: tensor<64x64xf32, #b>, %pc: tensor<64x!blk.ptr<f32>, #cols>,
                 %pd: tensor<64x64x!blk.ptr<f32>, #b>)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %s = blkgpu.wgmma %qb, %kb, %zero : !blkgpu.memdesc<64x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  %sb = blkgpu.convert_layout %s : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #b>
  %cs = blk.reduce %sb {axis = 0 : i32} : (tensor<64x64xf32, #b>) -> tensor<64xf32, #cols> {
  ^bb0(%a: f32, %c: f32):
    %z = arith.addf %a, %c : f32
    blk.reduce.return %z : f32
  }
  blk.store %pc, %cs : tensor<64x!blk.ptr<f32>, #cols>
  %t = arith.addf %sb, %x : tensor<64x64xf32, #b>
  blk.store %pd, %t : tensor<64x64x!blk.ptr<f32>, #b>
  return
}

// The causal mask applied to the scores of some blocks only (an scf.if
// that yields the masked scores on one side and the scores on the other):
// both sides yield in the mma layout, and so does the if, so the row max
// after it reads the accumulator's registers (no trip through shared
// memory, and the wgmma's wait can be deferred past the if). An if whose
// other side yields a block that would have to move keeps its layout.
// CHECK-LABEL: func.func @masked_on_some_blocks
// CHECK: %[[S:.*]] = blkgpu.wgmma
// CHECK-NOT: convert_layout
// CHECK: %[[IF:.*]] = scf.if %{{.*}} -> (tensor<64x64xf32, #[[MMA]]>) {
// CHECK: %[[M:.*]] = arith.select %{{.*}}, %[[S]], %{{.*}} : tensor<64x64xi1, #[[MMA]]>, tensor<64x64xf32, #[[MMA]]>
// CHECK-NEXT: scf.yield %[[M]] : tensor<64x64xf32, #[[MMA]]>
// CHECK: } else {
// CHECK-NEXT: scf.yield %[[S]] : tensor<64x64xf32, #[[MMA]]>
// CHECK-NOT: convert_layout
// CHECK: blk.reduce %[[IF]] {axis = 1 : i32} : (tensor<64x64xf32, #[[MMA]]>) -> tensor<64xf32, #[[ROWS]]>
// CHECK-LABEL: func.func @other_side_moves
// CHECK: %[[S2:.*]] = blkgpu.wgmma
// CHECK: %[[SB2:.*]] = blkgpu.convert_layout %[[S2]] : tensor<64x64xf32, #[[MMA]]> -> tensor<64x64xf32, #[[B2:blocked[0-9]*]]>
// CHECK: scf.if %{{.*}} -> (tensor<64x64xf32, #[[B2]]>) {
func.func @masked_on_some_blocks(%qb: !blkgpu.memdesc<64x64xf16, #nv>,
                                 %kb: !blkgpu.memdesc<64x64xf16, #nv>, %diagonal: i1,
                                 %out: tensor<64x!blk.ptr<f32>, #rows>)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %s = blkgpu.wgmma %qb, %kb, %zero : !blkgpu.memdesc<64x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  %sb = blkgpu.convert_layout %s : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #b>
  %masked = scf.if %diagonal -> (tensor<64x64xf32, #b>) {
    %r = blk.make_range 0, 64 : tensor<64xi32, #rows>
    %re = blk.expand_dims %r {axis = 1 : i32} : tensor<64xi32, #rows> -> tensor<64x1xi32, #b>
    %rb = blk.broadcast %re : tensor<64x1xi32, #b> -> tensor<64x64xi32, #b>
    %c = blk.make_range 0, 64 : tensor<64xi32, #cols>
    %ce = blk.expand_dims %c {axis = 0 : i32} : tensor<64xi32, #cols> -> tensor<1x64xi32, #b>
    %cb = blk.broadcast %ce : tensor<1x64xi32, #b> -> tensor<64x64xi32, #b>
    %keep = arith.cmpi sge, %rb, %cb : tensor<64x64xi32, #b>
    %minf = arith.constant dense<0xFF800000> : tensor<64x64xf32, #b>
    %m = arith.select %keep, %sb, %minf : tensor<64x64xi1, #b>, tensor<64x64xf32, #b>
    scf.yield %m : tensor<64x64xf32, #b>
  } else {
    scf.yield %sb : tensor<64x64xf32, #b>
  }
  %mx = blk.reduce %masked {axis = 1 : i32} : (tensor<64x64xf32, #b>) -> tensor<64xf32, #rows> {
  ^bb0(%x: f32, %y: f32):
    %z = arith.maximumf %x, %y : f32
    blk.reduce.return %z : f32
  }
  blk.store %out, %mx : tensor<64x!blk.ptr<f32>, #rows>
  return
}

func.func @other_side_moves(%qb: !blkgpu.memdesc<64x64xf16, #nv>,
                            %kb: !blkgpu.memdesc<64x64xf16, #nv>, %c: i1,
                            %x: tensor<64x64xf32, #b>, %out: tensor<64x!blk.ptr<f32>, #rows>)
    attributes {blk.num_warps = 4 : i32, blkgpu.num_warps = 4 : i32} {
  %zero = arith.constant dense<0.0> : tensor<64x64xf32, #mma>
  %s = blkgpu.wgmma %qb, %kb, %zero : !blkgpu.memdesc<64x64xf16, #nv>, !blkgpu.memdesc<64x64xf16, #nv>, tensor<64x64xf32, #mma> -> tensor<64x64xf32, #mma>
  %sb = blkgpu.convert_layout %s : tensor<64x64xf32, #mma> -> tensor<64x64xf32, #b>
  %v = scf.if %c -> (tensor<64x64xf32, #b>) {
    scf.yield %sb : tensor<64x64xf32, #b>
  } else {
    scf.yield %x : tensor<64x64xf32, #b>
  }
  %mx = blk.reduce %v {axis = 1 : i32} : (tensor<64x64xf32, #b>) -> tensor<64xf32, #rows> {
  ^bb0(%a: f32, %y: f32):
    %z = arith.maximumf %a, %y : f32
    blk.reduce.return %z : f32
  }
  blk.store %out, %mx : tensor<64x!blk.ptr<f32>, #rows>
  return
}
