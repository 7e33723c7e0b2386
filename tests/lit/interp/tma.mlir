// TMA copies in the interpreter: blkgpu.tma_load writes the logical block
// of its tensor_map's tensor at (row, col) into the slot, zeros where the
// block leaves the tensor (above, below, left of and right of it, even
// where memory continues: the row stride is wider than the tensor), and
// nothing when its predicate is false; its mbarrier_expect completes the
// barrier's phase at once (warp-specialize.mlir has the phases' tests).
//
// @tile: program p copies the [4 x 8] block at (4 p + row_off, col0) of the
// 5 x 5 tensor `a` (row stride 7, a[r][c] = 7 r + c) into slot 1 of a ring
// (two 4-column boxes) that first holds -1s, when p < nload, and stores
// the slot to c[32 p ..]. At (-1, -2): row -1 and columns -2, -1 and 5
// are zeros; program 1's rows 5 and 6 too.
// RUN: %blkc run %s -k tile --grid 2 --arg a=iota:f32:35 --arg c=zeros:f32:64 --arg rows=5 --arg cols=5 --arg lda=7 --arg row_off=-1 --arg col0=-2 --arg nload=2 --print c | FileCheck %s --check-prefix=TILE
// TILE: c = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 0, 0, 0, 7, 8, 9, 10, 11, 0, 0, 0, 14, 15, 16, 17, 18, 0, 0, 0, 21, 22, 23, 24, 25, 0, 0, 0, 28, 29, 30, 31, 32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]{{$}}

// With the predicate false in program 1 its slot keeps its -1s (and it does
// not wait: nothing completes the barrier's phase then).
// RUN: %blkc run %s -k tile --grid 2 --arg a=iota:f32:35 --arg c=zeros:f32:64 --arg rows=5 --arg cols=5 --arg lda=7 --arg row_off=-1 --arg col0=-2 --arg nload=1 --print c | FileCheck %s --check-prefix=PRED
// PRED: c = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 0, 0, 0, 7, 8, 9, 10, 11, 0, 0, 0, 14, 15, 16, 17, 18, 0, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1]{{$}}

// @tile_t: the same copy through a memdesc_trans view of an [8 x 4]
// buffer: the buffer holds the block transposed (c[32 p + 4 j + i] is the
// block's element (i, j)).
// RUN: %blkc run %s -k tile_t --grid 2 --arg a=iota:f32:35 --arg c=zeros:f32:64 --arg rows=5 --arg cols=5 --arg lda=7 --arg row_off=-1 --arg col0=-2 --print c | FileCheck %s --check-prefix=TRANS
// TRANS: c = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 7, 14, 0, 1, 8, 15, 0, 2, 9, 16, 0, 3, 10, 17, 0, 4, 11, 18, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 21, 28, 0, 0, 22, 29, 0, 0, 23, 30, 0, 0, 24, 31, 0, 0, 25, 32, 0, 0, 0, 0, 0, 0]{{$}}

// The codegen kernel (128-byte swizzle, two 64-column boxes; see
// codegen/Inputs/tma_copy.mlir) on a 100 x 120 tensor of ones from column
// 16: each of rows 0-99 is 104 ones then 24 zeros; rows 100-127 (program
// 1's last 28) are zeros, and are not read (`a` ends at row 99).
// RUN: %blkc run %S/../codegen/Inputs/tma_copy.mlir -k tma_copy --grid 2 --arg a=fill:f16:12000:1 --arg c=zeros:f16:16384 --arg rows=100 --arg cols=120 --arg lda=120 --arg col0=16 --print c > %t.copy
// RUN: python3 -c "row = ['1'] * 104 + ['0'] * 24; print('c = [' + ', '.join(row * 100 + ['0'] * 128 * 28) + ']')" > %t.copy.expected
// RUN: diff %t.copy.expected %t.copy

// Reads inside the tensor's extent are checked like any load: with `a` 1000
// elements short, program 1's row 91 (block row 27) leaves it at column 80
// (block column 64).
// RUN: not %blkc run %S/../codegen/Inputs/tma_copy.mlir -k tma_copy --grid 2 --arg a=fill:f16:11000:1 --arg c=zeros:f16:16384 --arg rows=100 --arg cols=120 --arg lda=120 --arg col0=16 2>&1 | FileCheck %s --check-prefix=FAULT
// FAULT: tma_copy.mlir:28:3: error: out-of-bounds load of a[11000] (buffer has 11000 elements) in kernel `tma_copy`, program (1,0,0), block element [27, 64]{{$}}

#nv = #blkgpu.shared<{vec = 4, perPhase = 1, maxPhase = 1, order = [1, 0], pad = 0, block = 4}>
#nvt = #blkgpu.shared<{vec = 4, perPhase = 1, maxPhase = 1, order = [0, 1], pad = 0, block = 4}>
#bar = #blkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>

func.func @tile(%pa: !blk.ptr<f32>, %pc: !blk.ptr<f32>, %rows: i32, %cols: i32, %lda: i32,
                %rowoff: i32, %col0: i32, %nload: i32)
    attributes {blk.kernel = "tile", blk.num_warps = 1 : i32,
                blk.param_names = ["a", "c", "rows", "cols", "lda", "row_off", "col0", "nload"]} {
  %map = blkgpu.tensor_map %pa[%rows, %cols] strides[%lda] {box = array<i64: 4, 4>, swizzle = 0 : i32} : !blk.ptr<f32>, (i32, i32), (i32)
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c4 = arith.constant 4 : i32
  %c32 = arith.constant 32 : i32
  %pid = blk.program_id 0
  %p4 = arith.muli %pid, %c4 : i32
  %row0 = arith.addi %p4, %rowoff : i32
  %on = arith.cmpi slt, %pid, %nload : i32
  %bars = blkgpu.local_alloc -> !blkgpu.memdesc<2x1xi64, #bar>
  blkgpu.mbarrier_init %bars {count = 1 : i32} : !blkgpu.memdesc<2x1xi64, #bar>
  %bar = blkgpu.memdesc_index %bars[%c1] : !blkgpu.memdesc<2x1xi64, #bar> -> !blkgpu.memdesc<1xi64, #bar>
  %ring = blkgpu.local_alloc -> !blkgpu.memdesc<2x4x8xf32, #nv>
  %slot = blkgpu.memdesc_index %ring[%c1] : !blkgpu.memdesc<2x4x8xf32, #nv> -> !blkgpu.memdesc<4x8xf32, #nv>
  %minus1 = arith.constant dense<-1.0> : tensor<4x8xf32>
  blkgpu.local_store %minus1, %slot : tensor<4x8xf32> -> !blkgpu.memdesc<4x8xf32, #nv>
  blkgpu.mbarrier_expect %bar, %on {bytes = 128 : i32} : !blkgpu.memdesc<1xi64, #bar>
  blkgpu.tma_load %map[%row0, %col0], %slot, %bar, %on : !blkgpu.memdesc<4x8xf32, #nv>, !blkgpu.memdesc<1xi64, #bar>
  scf.if %on {
    blkgpu.mbarrier_wait %bar, %c0 : !blkgpu.memdesc<1xi64, #bar>
  }
  %x = blkgpu.local_load %slot : !blkgpu.memdesc<4x8xf32, #nv> -> tensor<4x8xf32>
  // c[32 p + 8 i + j] = x[i][j]
  %i = blk.make_range 0, 4 : tensor<4xi32>
  %j = blk.make_range 0, 8 : tensor<8xi32>
  %i2 = blk.expand_dims %i {axis = 1 : i32} : tensor<4xi32> -> tensor<4x1xi32>
  %c8 = arith.constant dense<8> : tensor<4x1xi32>
  %i8 = arith.muli %i2, %c8 : tensor<4x1xi32>
  %ib = blk.broadcast %i8 : tensor<4x1xi32> -> tensor<4x8xi32>
  %j2 = blk.expand_dims %j {axis = 0 : i32} : tensor<8xi32> -> tensor<1x8xi32>
  %jb = blk.broadcast %j2 : tensor<1x8xi32> -> tensor<4x8xi32>
  %ij = arith.addi %ib, %jb : tensor<4x8xi32>
  %p32 = arith.muli %pid, %c32 : i32
  %ps = blk.splat %p32 : i32 -> tensor<4x8xi32>
  %off = arith.addi %ij, %ps : tensor<4x8xi32>
  %cs = blk.splat %pc : !blk.ptr<f32> -> tensor<4x8x!blk.ptr<f32>>
  %cp = blk.addptr %cs, %off : tensor<4x8x!blk.ptr<f32>>, tensor<4x8xi32>
  blk.store %cp, %x : tensor<4x8x!blk.ptr<f32>>
  return
}

func.func @tile_t(%pa: !blk.ptr<f32>, %pc: !blk.ptr<f32>, %rows: i32, %cols: i32, %lda: i32,
                  %rowoff: i32, %col0: i32)
    attributes {blk.kernel = "tile_t", blk.num_warps = 1 : i32,
                blk.param_names = ["a", "c", "rows", "cols", "lda", "row_off", "col0"]} {
  %map = blkgpu.tensor_map %pa[%rows, %cols] strides[%lda] {box = array<i64: 4, 4>, swizzle = 0 : i32} : !blk.ptr<f32>, (i32, i32), (i32)
  %c0 = arith.constant 0 : i32
  %c4 = arith.constant 4 : i32
  %c32 = arith.constant 32 : i32
  %pid = blk.program_id 0
  %p4 = arith.muli %pid, %c4 : i32
  %row0 = arith.addi %p4, %rowoff : i32
  %bars = blkgpu.local_alloc -> !blkgpu.memdesc<1x1xi64, #bar>
  blkgpu.mbarrier_init %bars {count = 1 : i32} : !blkgpu.memdesc<1x1xi64, #bar>
  %bar = blkgpu.memdesc_index %bars[%c0] : !blkgpu.memdesc<1x1xi64, #bar> -> !blkgpu.memdesc<1xi64, #bar>
  %buf = blkgpu.local_alloc -> !blkgpu.memdesc<8x4xf32, #nvt>
  %view = blkgpu.memdesc_trans %buf : !blkgpu.memdesc<8x4xf32, #nvt> -> !blkgpu.memdesc<4x8xf32, #nv>
  blkgpu.mbarrier_expect %bar {bytes = 128 : i32} : !blkgpu.memdesc<1xi64, #bar>
  blkgpu.tma_load %map[%row0, %col0], %view, %bar : !blkgpu.memdesc<4x8xf32, #nv>, !blkgpu.memdesc<1xi64, #bar>
  blkgpu.mbarrier_wait %bar, %c0 : !blkgpu.memdesc<1xi64, #bar>
  %x = blkgpu.local_load %buf : !blkgpu.memdesc<8x4xf32, #nvt> -> tensor<8x4xf32>
  // c[32 p + 4 j + i] = x[j][i]
  %j = blk.make_range 0, 8 : tensor<8xi32>
  %i = blk.make_range 0, 4 : tensor<4xi32>
  %j2 = blk.expand_dims %j {axis = 1 : i32} : tensor<8xi32> -> tensor<8x1xi32>
  %c4t = arith.constant dense<4> : tensor<8x1xi32>
  %j4 = arith.muli %j2, %c4t : tensor<8x1xi32>
  %jb = blk.broadcast %j4 : tensor<8x1xi32> -> tensor<8x4xi32>
  %i2 = blk.expand_dims %i {axis = 0 : i32} : tensor<4xi32> -> tensor<1x4xi32>
  %ib = blk.broadcast %i2 : tensor<1x4xi32> -> tensor<8x4xi32>
  %ji = arith.addi %jb, %ib : tensor<8x4xi32>
  %p32 = arith.muli %pid, %c32 : i32
  %ps = blk.splat %p32 : i32 -> tensor<8x4xi32>
  %off = arith.addi %ji, %ps : tensor<8x4xi32>
  %cs = blk.splat %pc : !blk.ptr<f32> -> tensor<8x4x!blk.ptr<f32>>
  %cp = blk.addptr %cs, %off : tensor<8x4x!blk.ptr<f32>>, tensor<8x4xi32>
  blk.store %cp, %x : tensor<8x4x!blk.ptr<f32>>
  return
}
