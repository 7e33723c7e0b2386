// blkgpu-choose-shared-layouts: a move that no thread can do from its own
// registers (a 64x64 transpose between row- and column-major layouts) gets
// the shared layout whose stores and loads are cheapest in bank conflicts;
// moves that stay in registers (an identity conversion, a broadcast whose
// copies every thread already holds) get none.
// RUN: blk-opt %s --blkgpu-choose-shared-layouts --mlir-print-local-scope | FileCheck %s

#rows = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>
#cols = #blkgpu.blocked<{sizePerThread = [4, 1], threadsPerWarp = [16, 2], warpsPerCTA = [1, 4], order = [0, 1]}>
#rows2 = #blkgpu.blocked<{sizePerThread = [1, 4], threadsPerWarp = [2, 16], warpsPerCTA = [4, 1], order = [1, 0]}>

// Rows of the column-major side (dim 0) are contiguous, 2-element groups
// swizzled: conflict-free 64-bit loads for the reader.
// CHECK-LABEL: func.func @moves
// CHECK: blkgpu.convert_layout %{{.*}} {blkgpu.scratch_layout = #blkgpu.shared<{vec = 2, perPhase = 4, maxPhase = 16, order = [0, 1], pad = 0}>}
// CHECK: blk.broadcast
// CHECK-NOT: blkgpu.scratch_layout
// CHECK: return
func.func @moves(%t: tensor<64x64xf32, #rows>, %c: tensor<1x64xf32, #rows>) -> (tensor<64x64xf32, #cols>, tensor<64x64xf32, #rows>)
    attributes {blkgpu.num_warps = 4 : i32} {
  %m = blkgpu.convert_layout %t : tensor<64x64xf32, #rows> -> tensor<64x64xf32, #cols>
  %b = blk.broadcast %c : tensor<1x64xf32, #rows> -> tensor<64x64xf32, #rows>
  return %m, %b : tensor<64x64xf32, #cols>, tensor<64x64xf32, #rows>
}
