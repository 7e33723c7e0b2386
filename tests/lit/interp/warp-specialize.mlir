// blkgpu.warp_specialize in the interpreter (Mbarriers.cpp): the producer
// and the consumers take turns, each running until it waits on an mbarrier
// phase that has not completed, so a ring of two slots holds at most two
// tiles, as on the GPU.
//
// @ring: the producer copies the n row blocks [4 x 8] of `a` (n x 4 rows,
// a[r][c] = 8 r + c) by TMA into a two-slot ring, block i into slot i % 2
// on its "full" barrier, waiting from the second round on for the
// consumers to release the slot (its "empty" barrier, parity of the round
// before); the consumers wait on "full", add the slot to their sum and
// release it (when `release` is 1). c = the sum of the n blocks:
// c[8 i + j] = 32 (0 + 1 + ... + n - 1) + n (8 i + j). Had the producer run
// ahead of the ring, the consumers would add blocks 2 and 3 twice.
// RUN: %blkc run %s -k ring --grid 1 --arg a=iota:f32:160 --arg c=zeros:f32:32 --arg n=5 --arg release=1 --print c > %t.sum
// RUN: python3 -c "print('c = [' + ', '.join(str(320 + 5 * k) for k in range(32)) + ']')" > %t.expected
// RUN: diff %t.expected %t.sum
//
// Consumers that never release a slot: the producer waits for the first
// slot to come back, the consumers for its second tile; the interpreter
// reports the hang at the consumers' wait, naming the producer's.
// RUN: not %blkc run %s -k ring --grid 1 --arg a=iota:f32:160 --arg c=zeros:f32:32 --arg n=5 --arg release=0 2>&1 | FileCheck %s --check-prefix=HANG
// HANG: warp-specialize.mlir:[[@LINE+65]]:{{[0-9]+}}: error: the consumers wait for phase parity 1 of mbarrier slot 0 (1 phase completed), which never completes: the producer waits for phase parity 0 of mbarrier slot 0 (0 phases completed) (line [[@LINE+51]]) (the program would hang on the GPU) in kernel `ring`, program (0,0,0)
//
// One block: the producer never waits, and ends first; the consumers then
// take their block.
// RUN: %blkc run %s -k ring --grid 1 --arg a=iota:f32:160 --arg c=zeros:f32:32 --arg n=1 --arg release=0 --print c | FileCheck %s --check-prefix=ONE
// ONE: c = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]{{$}}

// A fault on either side stops both and is the one reported: the
// producer's TMA read past a short `a` (block 3 starts at a[96]), the
// consumers' store past a short `c`.
// RUN: not %blkc run %s -k ring --grid 1 --arg a=iota:f32:100 --arg c=zeros:f32:32 --arg n=5 --arg release=1 2>&1 | FileCheck %s --check-prefix=PFAULT
// PFAULT: error: out-of-bounds load of a[100] (buffer has 100 elements) in kernel `ring`, program (0,0,0), block element [0, 4]
// PFAULT-NOT: error
// RUN: not %blkc run %s -k ring --grid 1 --arg a=iota:f32:160 --arg c=zeros:f32:16 --arg n=5 --arg release=1 2>&1 | FileCheck %s --check-prefix=CFAULT
// CFAULT: error: out-of-bounds store of c[16] (buffer has 16 elements) in kernel `ring`, program (0,0,0), block element [2, 0]
// CFAULT-NOT: error

// Outside a warp_specialize nothing else can complete a phase: a wait on
// one that has not completed is the hang it would be.
// RUN: not %blkc run %s -k lone_wait --grid 1 2>&1 | FileCheck %s --check-prefix=LONE
// LONE: warp-specialize.mlir:[[@LINE+80]]:3: error: phase parity 0 of mbarrier slot 1 (0 phases completed) never completes: nothing else arrives on it (the program would hang on the GPU) in kernel `lone_wait`, program (0,0,0)

#nv = #blkgpu.shared<{vec = 4, perPhase = 1, maxPhase = 1, order = [1, 0], pad = 0, block = 8}>
#bar = #blkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>

func.func @ring(%pa: !blk.ptr<f32>, %pc: !blk.ptr<f32>, %n: i32, %release: i32)
    attributes {blk.kernel = "ring", blk.num_warps = 4 : i32,
                blk.param_names = ["a", "c", "n", "release"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c4 = arith.constant 4 : i32
  %c8 = arith.constant 8 : i32
  %rows = arith.muli %n, %c4 : i32
  %map = blkgpu.tensor_map %pa[%rows, %c8] strides[%c8] {box = array<i64: 4, 8>, swizzle = 0 : i32} : !blk.ptr<f32>, (i32, i32), (i32)
  %full = blkgpu.local_alloc -> !blkgpu.memdesc<2x1xi64, #bar>
  blkgpu.mbarrier_init %full {count = 1 : i32} : !blkgpu.memdesc<2x1xi64, #bar>
  %empty = blkgpu.local_alloc -> !blkgpu.memdesc<2x1xi64, #bar>
  blkgpu.mbarrier_init %empty {count = 4 : i32} : !blkgpu.memdesc<2x1xi64, #bar>
  %ring = blkgpu.local_alloc -> !blkgpu.memdesc<2x4x8xf32, #nv>
  %on = arith.cmpi ne, %release, %c0 : i32
  blkgpu.warp_specialize attributes {producer_warps = 4 : i32, producer_registers = 0 : i32, consumer_registers = 0 : i32} producer {
    scf.for %i = %c0 to %n step %c1 : i32 {
      %s = arith.remsi %i, %c2 : i32
      %round = arith.divsi %i, %c2 : i32
      %fb = blkgpu.memdesc_index %full[%s] : !blkgpu.memdesc<2x1xi64, #bar> -> !blkgpu.memdesc<1xi64, #bar>
      %eb = blkgpu.memdesc_index %empty[%s] : !blkgpu.memdesc<2x1xi64, #bar> -> !blkgpu.memdesc<1xi64, #bar>
      %later = arith.cmpi sge, %i, %c2 : i32
      scf.if %later {
        %before = arith.subi %round, %c1 : i32
        %parity = arith.remsi %before, %c2 : i32
        blkgpu.mbarrier_wait %eb, %parity : !blkgpu.memdesc<1xi64, #bar>
      }
      %slot = blkgpu.memdesc_index %ring[%s] : !blkgpu.memdesc<2x4x8xf32, #nv> -> !blkgpu.memdesc<4x8xf32, #nv>
      %row0 = arith.muli %i, %c4 : i32
      blkgpu.mbarrier_expect %fb {bytes = 128 : i32} : !blkgpu.memdesc<1xi64, #bar>
      blkgpu.tma_load %map[%row0, %c0], %slot, %fb : !blkgpu.memdesc<4x8xf32, #nv>, !blkgpu.memdesc<1xi64, #bar>
    }
  } consumer {
    %zero = arith.constant dense<0.0> : tensor<4x8xf32>
    %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (tensor<4x8xf32>) : i32 {
      %s = arith.remsi %i, %c2 : i32
      %round = arith.divsi %i, %c2 : i32
      %parity = arith.remsi %round, %c2 : i32
      %fb = blkgpu.memdesc_index %full[%s] : !blkgpu.memdesc<2x1xi64, #bar> -> !blkgpu.memdesc<1xi64, #bar>
      blkgpu.mbarrier_wait %fb, %parity : !blkgpu.memdesc<1xi64, #bar>
      %slot = blkgpu.memdesc_index %ring[%s] : !blkgpu.memdesc<2x4x8xf32, #nv> -> !blkgpu.memdesc<4x8xf32, #nv>
      %x = blkgpu.local_load %slot : !blkgpu.memdesc<4x8xf32, #nv> -> tensor<4x8xf32>
      %eb = blkgpu.memdesc_index %empty[%s] : !blkgpu.memdesc<2x1xi64, #bar> -> !blkgpu.memdesc<1xi64, #bar>
      blkgpu.mbarrier_arrive %eb, %on : !blkgpu.memdesc<1xi64, #bar>
      %next = arith.addf %acc, %x : tensor<4x8xf32>
      scf.yield %next : tensor<4x8xf32>
    }
    // c[8 i + j] = sum[i][j]
    %i = blk.make_range 0, 4 : tensor<4xi32>
    %j = blk.make_range 0, 8 : tensor<8xi32>
    %i2 = blk.expand_dims %i {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
    %c8t = arith.constant dense<8> : tensor<4x1xi32>
    %i8 = arith.muli %i2, %c8t : tensor<4x1xi32>
    %ib = blk.broadcast %i8 : tensor<4x1xi32> -> tensor<4x8xi32>
    %j2 = blk.expand_dims %j {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
    %jb = blk.broadcast %j2 : tensor<1x8xi32> -> tensor<4x8xi32>
    %off = arith.addi %ib, %jb : tensor<4x8xi32>
    %cs = blk.splat %pc : !blk.ptr<f32> -> tensor<4x8x!blk.ptr<f32>>
    %cp = blk.addptr %cs, %off : tensor<4x8x!blk.ptr<f32>>, tensor<4x8xi32>
    blk.store %cp, %sum : tensor<4x8x!blk.ptr<f32>>
  }
  return
}

func.func @lone_wait() attributes {blk.kernel = "lone_wait", blk.num_warps = 1 : i32,
                                   blk.param_names = []} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %bars = blkgpu.local_alloc -> !blkgpu.memdesc<2x1xi64, #bar>
  blkgpu.mbarrier_init %bars {count = 1 : i32} : !blkgpu.memdesc<2x1xi64, #bar>
  %b0 = blkgpu.memdesc_index %bars[%c0] : !blkgpu.memdesc<2x1xi64, #bar> -> !blkgpu.memdesc<1xi64, #bar>
  %b1 = blkgpu.memdesc_index %bars[%c1] : !blkgpu.memdesc<2x1xi64, #bar> -> !blkgpu.memdesc<1xi64, #bar>
  blkgpu.mbarrier_arrive %b0 : !blkgpu.memdesc<1xi64, #bar>
  blkgpu.mbarrier_wait %b0, %c0 : !blkgpu.memdesc<1xi64, #bar>
  blkgpu.mbarrier_wait %b1, %c0 : !blkgpu.memdesc<1xi64, #bar>
  return
}
