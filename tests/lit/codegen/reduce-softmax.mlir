// Row softmax (one program per row): max and sum reductions (shuffles +
// one shared-memory step each), exp as ex2.approx on x*log2(e). Nothing is
// known about the row stride's alignment, so each 4-element group tests its
// address at run time: 16-byte vector when aligned and fully in the mask,
// element by element otherwise.
// RUN: blk-opt %s --blkgpu-pipeline --mlir-print-local-scope | FileCheck %s --check-prefix=GPU
// RUN: blk-codegen-test %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: blk-codegen-test %s --emit=ptx > %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin

// GPU: blk.load {{.*}}blkgpu.align = array<i64: 4>{{.*}}sizePerThread = [4]
// GPU-NOT: convert_layout

// PTX: and.b64 {{.*}}, 15;
// PTX: ld.global.v4.b32
// PTX-COUNT-4: ld.global.b32
// PTX: ld.global.v4.b32
// PTX-COUNT-4: ld.global.b32
// PTX-COUNT-5: shfl.sync.bfly.b32
// PTX: max.NaN.f32
// PTX: ex2.approx.ftz.f32
// PTX-COUNT-5: shfl.sync.bfly.b32
// PTX: st.global.v4.b32
// PTX-COUNT-4: st.global.b32
// PTX-NOT: ld.local

func.func @softmax__BLOCK_1024__w4(%out: !blk.ptr<f32>, %inp: !blk.ptr<f32>, %in_row_stride: i32, %out_row_stride: i32,
    %n_rows: i32, %n_cols: i32) attributes {blk.kernel = "softmax", blk.num_warps = 4 : i32} {
  %row = blk.program_id 0
  %cols = blk.make_range 0, 1024 : tensor<1024xi32>
  %ncs = blk.splat %n_cols : i32 -> tensor<1024xi32>
  %mask = arith.cmpi slt, %cols, %ncs : tensor<1024xi32>
  %ro = arith.muli %row, %in_row_stride : i32
  %ip = blk.addptr %inp, %ro : !blk.ptr<f32>, i32
  %ips = blk.splat %ip : !blk.ptr<f32> -> tensor<1024x!blk.ptr<f32>>
  %ptrs = blk.addptr %ips, %cols : tensor<1024x!blk.ptr<f32>>, tensor<1024xi32>
  %ninf = arith.constant dense<0xFF800000> : tensor<1024xf32>
  %x = blk.load %ptrs, %mask, %ninf : tensor<1024x!blk.ptr<f32>>
  %m = blk.reduce %x {axis = 0 : i32} : (tensor<1024xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %t = arith.maximumf %a, %b : f32
    blk.reduce.return %t : f32
  }
  %ms = blk.splat %m : f32 -> tensor<1024xf32>
  %sh = arith.subf %x, %ms : tensor<1024xf32>
  %num = math.exp %sh : tensor<1024xf32>
  %den = blk.reduce %num {axis = 0 : i32} : (tensor<1024xf32>) -> f32 {
  ^bb0(%a: f32, %b: f32):
    %t = arith.addf %a, %b : f32
    blk.reduce.return %t : f32
  }
  %dens = blk.splat %den : f32 -> tensor<1024xf32>
  %y = arith.divf %num, %dens : tensor<1024xf32>
  %oo = arith.muli %row, %out_row_stride : i32
  %op = blk.addptr %out, %oo : !blk.ptr<f32>, i32
  %ops = blk.splat %op : !blk.ptr<f32> -> tensor<1024x!blk.ptr<f32>>
  %optrs = blk.addptr %ops, %cols : tensor<1024x!blk.ptr<f32>>, tensor<1024xi32>
  blk.store %optrs, %y, %mask : tensor<1024x!blk.ptr<f32>>
  return
}
