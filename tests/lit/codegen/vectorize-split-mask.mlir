// vector_add with aligned pointers but no fact about n: the mask may change
// inside a 4-element group, so each group moves as one 16-byte vector when
// its 4 mask bits are all set and element by element otherwise (only the
// block at the ragged end pays).
// RUN: blk-opt %s --blkgpu-pipeline --mlir-print-local-scope | FileCheck %s --check-prefix=GPU
// RUN: blk-codegen-test %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: blk-codegen-test %s --emit=ptx > %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin

// GPU: blk.load {{.*}}blkgpu.mask_constancy = array<i64: 1>{{.*}}sizePerThread = [4]

// PTX: @[[ALL:%p[0-9]+]] ld.global.v4.b32
// PTX-COUNT-4: ld.global.b32
// PTX: @{{%p[0-9]+}} st.global.v4.b32
// PTX-COUNT-4: st.global.b32
// PTX-NOT: ld.local

func.func @vector_add__BLOCK_1024__w4(%x: !blk.ptr<f32> {blk.aligned = 16 : i32}, %y: !blk.ptr<f32> {blk.aligned = 16 : i32},
    %out: !blk.ptr<f32> {blk.aligned = 16 : i32}, %n: i32)
    attributes {blk.kernel = "vector_add", blk.num_warps = 4 : i32} {
  %c1024 = arith.constant 1024 : i32
  %pid = blk.program_id 0
  %base = arith.muli %pid, %c1024 : i32
  %bs = blk.splat %base : i32 -> tensor<1024xi32>
  %r = blk.make_range 0, 1024 : tensor<1024xi32>
  %offs = arith.addi %bs, %r : tensor<1024xi32>
  %ns = blk.splat %n : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %offs, %ns : tensor<1024xi32>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<1024x!blk.ptr<f32>>
  %xp = blk.addptr %xs, %offs : tensor<1024x!blk.ptr<f32>>, tensor<1024xi32>
  %a = blk.load %xp, %mask : tensor<1024x!blk.ptr<f32>>
  %ys = blk.splat %y : !blk.ptr<f32> -> tensor<1024x!blk.ptr<f32>>
  %yp = blk.addptr %ys, %offs : tensor<1024x!blk.ptr<f32>>, tensor<1024xi32>
  %b = blk.load %yp, %mask : tensor<1024x!blk.ptr<f32>>
  %os = blk.splat %out : !blk.ptr<f32> -> tensor<1024x!blk.ptr<f32>>
  %op = blk.addptr %os, %offs : tensor<1024x!blk.ptr<f32>>, tensor<1024xi32>
  %s = arith.addf %a, %b : tensor<1024xf32>
  blk.store %op, %s, %mask : tensor<1024x!blk.ptr<f32>>
  return
}
