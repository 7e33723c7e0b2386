// Reading a slot before its copy is known to have landed is a race on the
// GPU, and an error in the interpreter (LocalMemory.cpp, Mbarriers.cpp),
// which otherwise lands every copy when it is issued.
//
// With cp.async, tiles 0 and 1 into the two slots of a ring, one group each.
// After async_wait {pending = 1} group 0 is complete: slot 0 may be read
// (@wait_one), slot 1 may not (@read_newest); after {pending = 2} neither
// may (@wait_two).
// RUN: %blkc run %s -k wait_one --grid 1 --arg x=iota:f32:16 --arg out=zeros:f32:8 --print out | FileCheck %s --check-prefix=ONE
// ONE: out = [0, 1, 2, 3, 4, 5, 6, 7]{{$}}
// RUN: not %blkc run %s -k read_newest --grid 1 --arg x=iota:f32:16 --arg out=zeros:f32:8 2>&1 | FileCheck %s --check-prefix=NEWEST
// NEWEST: async-races.mlir:[[@LINE+54]]:8: error: reads a shared-memory slot whose cp.async copy (group 1 of 2 committed) no async_wait has completed (a race on the GPU: the wait lets too many groups stay in flight) in kernel `read_newest`, program (0,0,0)
// RUN: not %blkc run %s -k wait_two --grid 1 --arg x=iota:f32:16 --arg out=zeros:f32:8 2>&1 | FileCheck %s --check-prefix=TWO
// TWO: error: reads a shared-memory slot whose cp.async copy (group 0 of 2 committed) no async_wait has completed
//
// With TMA, a tile read before any mbarrier_wait on its barrier (@tma_unwaited),
// and after one (@tma_waited).
// RUN: not %blkc run %s -k tma_unwaited --grid 1 --arg x=iota:f32:16 --arg out=zeros:f32:8 2>&1 | FileCheck %s --check-prefix=TMARACE
// TMARACE: error: reads a shared-memory slot whose TMA copy no mbarrier_wait has seen land (a race on the GPU: wait on the copy's mbarrier first) in kernel `tma_unwaited`
// RUN: %blkc run %s -k tma_waited --grid 1 --arg x=iota:f32:16 --arg out=zeros:f32:8 --print out | FileCheck %s --check-prefix=ONE

#s = #blkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>
#t = #blkgpu.shared<{vec = 4, perPhase = 1, maxPhase = 1, order = [1, 0], pad = 0, block = 8}>

func.func @wait_one(%x: !blk.ptr<f32>, %out: !blk.ptr<f32>)
    attributes {blk.kernel = "wait_one", blk.num_warps = 1 : i32, blk.param_names = ["x", "out"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = blk.make_range 0, 8 : tensor<8xi32>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<8x!blk.ptr<f32>>
  %p0 = blk.addptr %xs, %r : tensor<8x!blk.ptr<f32>>, tensor<8xi32>
  %c8 = arith.constant dense<8> : tensor<8xi32>
  %p1 = blk.addptr %p0, %c8 : tensor<8x!blk.ptr<f32>>, tensor<8xi32>
  %ring = blkgpu.local_alloc -> !blkgpu.memdesc<2x8xf32, #s>
  %s0 = blkgpu.memdesc_index %ring[%c0] : !blkgpu.memdesc<2x8xf32, #s> -> !blkgpu.memdesc<8xf32, #s>
  %s1 = blkgpu.memdesc_index %ring[%c1] : !blkgpu.memdesc<2x8xf32, #s> -> !blkgpu.memdesc<8xf32, #s>
  blkgpu.async_copy %p0, %s0 : tensor<8x!blk.ptr<f32>> -> !blkgpu.memdesc<8xf32, #s>
  blkgpu.async_commit
  blkgpu.async_copy %p1, %s1 : tensor<8x!blk.ptr<f32>> -> !blkgpu.memdesc<8xf32, #s>
  blkgpu.async_commit
  blkgpu.async_wait {pending = 1 : i32}
  %v = blkgpu.local_load %s0 : !blkgpu.memdesc<8xf32, #s> -> tensor<8xf32>
  %os = blk.splat %out : !blk.ptr<f32> -> tensor<8x!blk.ptr<f32>>
  %po = blk.addptr %os, %r : tensor<8x!blk.ptr<f32>>, tensor<8xi32>
  blk.store %po, %v : tensor<8x!blk.ptr<f32>>
  return
}

func.func @read_newest(%x: !blk.ptr<f32>, %out: !blk.ptr<f32>)
    attributes {blk.kernel = "read_newest", blk.num_warps = 1 : i32, blk.param_names = ["x", "out"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = blk.make_range 0, 8 : tensor<8xi32>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<8x!blk.ptr<f32>>
  %p0 = blk.addptr %xs, %r : tensor<8x!blk.ptr<f32>>, tensor<8xi32>
  %c8 = arith.constant dense<8> : tensor<8xi32>
  %p1 = blk.addptr %p0, %c8 : tensor<8x!blk.ptr<f32>>, tensor<8xi32>
  %ring = blkgpu.local_alloc -> !blkgpu.memdesc<2x8xf32, #s>
  %s0 = blkgpu.memdesc_index %ring[%c0] : !blkgpu.memdesc<2x8xf32, #s> -> !blkgpu.memdesc<8xf32, #s>
  %s1 = blkgpu.memdesc_index %ring[%c1] : !blkgpu.memdesc<2x8xf32, #s> -> !blkgpu.memdesc<8xf32, #s>
  blkgpu.async_copy %p0, %s0 : tensor<8x!blk.ptr<f32>> -> !blkgpu.memdesc<8xf32, #s>
  blkgpu.async_commit
  blkgpu.async_copy %p1, %s1 : tensor<8x!blk.ptr<f32>> -> !blkgpu.memdesc<8xf32, #s>
  blkgpu.async_commit
  blkgpu.async_wait {pending = 1 : i32}
  %v = blkgpu.local_load %s1 : !blkgpu.memdesc<8xf32, #s> -> tensor<8xf32>
  %os = blk.splat %out : !blk.ptr<f32> -> tensor<8x!blk.ptr<f32>>
  %po = blk.addptr %os, %r : tensor<8x!blk.ptr<f32>>, tensor<8xi32>
  blk.store %po, %v : tensor<8x!blk.ptr<f32>>
  return
}

func.func @wait_two(%x: !blk.ptr<f32>, %out: !blk.ptr<f32>)
    attributes {blk.kernel = "wait_two", blk.num_warps = 1 : i32, blk.param_names = ["x", "out"]} {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r = blk.make_range 0, 8 : tensor<8xi32>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<8x!blk.ptr<f32>>
  %p0 = blk.addptr %xs, %r : tensor<8x!blk.ptr<f32>>, tensor<8xi32>
  %c8 = arith.constant dense<8> : tensor<8xi32>
  %p1 = blk.addptr %p0, %c8 : tensor<8x!blk.ptr<f32>>, tensor<8xi32>
  %ring = blkgpu.local_alloc -> !blkgpu.memdesc<2x8xf32, #s>
  %s0 = blkgpu.memdesc_index %ring[%c0] : !blkgpu.memdesc<2x8xf32, #s> -> !blkgpu.memdesc<8xf32, #s>
  %s1 = blkgpu.memdesc_index %ring[%c1] : !blkgpu.memdesc<2x8xf32, #s> -> !blkgpu.memdesc<8xf32, #s>
  blkgpu.async_copy %p0, %s0 : tensor<8x!blk.ptr<f32>> -> !blkgpu.memdesc<8xf32, #s>
  blkgpu.async_commit
  blkgpu.async_copy %p1, %s1 : tensor<8x!blk.ptr<f32>> -> !blkgpu.memdesc<8xf32, #s>
  blkgpu.async_commit
  blkgpu.async_wait {pending = 2 : i32}
  %v = blkgpu.local_load %s0 : !blkgpu.memdesc<8xf32, #s> -> tensor<8xf32>
  %os = blk.splat %out : !blk.ptr<f32> -> tensor<8x!blk.ptr<f32>>
  %po = blk.addptr %os, %r : tensor<8x!blk.ptr<f32>>, tensor<8xi32>
  blk.store %po, %v : tensor<8x!blk.ptr<f32>>
  return
}

// A [1 x 8] box of x (as a 2 x 8 tensor) into a [1 x 8] buffer.
func.func @tma_unwaited(%x: !blk.ptr<f32>, %out: !blk.ptr<f32>)
    attributes {blk.kernel = "tma_unwaited", blk.num_warps = 1 : i32, blk.param_names = ["x", "out"]} {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %c8 = arith.constant 8 : i32
  %map = blkgpu.tensor_map %x[%c2, %c8] strides[%c8] {box = array<i64: 1, 8>, swizzle = 0 : i32} : !blk.ptr<f32>, (i32, i32), (i32)
  %bars = blkgpu.local_alloc -> !blkgpu.memdesc<1x1xi64, #s>
  blkgpu.mbarrier_init %bars {count = 1 : i32} : !blkgpu.memdesc<1x1xi64, #s>
  %bar = blkgpu.memdesc_index %bars[%c0] : !blkgpu.memdesc<1x1xi64, #s> -> !blkgpu.memdesc<1xi64, #s>
  %buf = blkgpu.local_alloc -> !blkgpu.memdesc<1x8xf32, #t>
  blkgpu.mbarrier_expect %bar {bytes = 32 : i32} : !blkgpu.memdesc<1xi64, #s>
  blkgpu.tma_load %map[%c0, %c0], %buf, %bar : !blkgpu.memdesc<1x8xf32, #t>, !blkgpu.memdesc<1xi64, #s>
  %v = blkgpu.local_load %buf : !blkgpu.memdesc<1x8xf32, #t> -> tensor<1x8xf32>
  %w = blk.reshape %v : tensor<1x8xf32> -> tensor<8xf32>
  %r = blk.make_range 0, 8 : tensor<8xi32>
  %os = blk.splat %out : !blk.ptr<f32> -> tensor<8x!blk.ptr<f32>>
  %po = blk.addptr %os, %r : tensor<8x!blk.ptr<f32>>, tensor<8xi32>
  blk.store %po, %w : tensor<8x!blk.ptr<f32>>
  return
}

func.func @tma_waited(%x: !blk.ptr<f32>, %out: !blk.ptr<f32>)
    attributes {blk.kernel = "tma_waited", blk.num_warps = 1 : i32, blk.param_names = ["x", "out"]} {
  %c0 = arith.constant 0 : i32
  %c2 = arith.constant 2 : i32
  %c8 = arith.constant 8 : i32
  %map = blkgpu.tensor_map %x[%c2, %c8] strides[%c8] {box = array<i64: 1, 8>, swizzle = 0 : i32} : !blk.ptr<f32>, (i32, i32), (i32)
  %bars = blkgpu.local_alloc -> !blkgpu.memdesc<1x1xi64, #s>
  blkgpu.mbarrier_init %bars {count = 1 : i32} : !blkgpu.memdesc<1x1xi64, #s>
  %bar = blkgpu.memdesc_index %bars[%c0] : !blkgpu.memdesc<1x1xi64, #s> -> !blkgpu.memdesc<1xi64, #s>
  %buf = blkgpu.local_alloc -> !blkgpu.memdesc<1x8xf32, #t>
  blkgpu.mbarrier_expect %bar {bytes = 32 : i32} : !blkgpu.memdesc<1xi64, #s>
  blkgpu.tma_load %map[%c0, %c0], %buf, %bar : !blkgpu.memdesc<1x8xf32, #t>, !blkgpu.memdesc<1xi64, #s>
  blkgpu.mbarrier_wait %bar, %c0 : !blkgpu.memdesc<1xi64, #s>
  %v = blkgpu.local_load %buf : !blkgpu.memdesc<1x8xf32, #t> -> tensor<1x8xf32>
  %w = blk.reshape %v : tensor<1x8xf32> -> tensor<8xf32>
  %r = blk.make_range 0, 8 : tensor<8xi32>
  %os = blk.splat %out : !blk.ptr<f32> -> tensor<8x!blk.ptr<f32>>
  %po = blk.addptr %os, %r : tensor<8x!blk.ptr<f32>>, tensor<8xi32>
  blk.store %po, %w : tensor<8x!blk.ptr<f32>>
  return
}
