// Layernorm forward: three scf.for loops over f16 rows, f32 statistics,
// two whole-row reductions, scalar stores of mean/rstd from thread 0,
// rsqrt.approx, f16 stores.
// RUN: blk-opt %s --blkgpu-pipeline --mlir-print-local-scope | FileCheck %s --check-prefix=GPU
// RUN: blk-codegen-test %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: blk-codegen-test %s --emit=ptx > %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin

// GPU-COUNT-3: scf.for
// GPU-NOT: convert_layout

// PTX: ld.global.b16
// PTX: shfl.sync.bfly.b32
// PTX: rsqrt.approx.f32
// PTX: st.global.b16
// PTX-NOT: ld.local

func.func @layernorm__BLOCK_1024__w4(%x: !blk.ptr<f16> {blk.aligned = 16 : i32}, %y: !blk.ptr<f16> {blk.aligned = 16 : i32},
    %w: !blk.ptr<f16>, %b: !blk.ptr<f16>, %mean_out: !blk.ptr<f32>, %rstd_out: !blk.ptr<f32>,
    %row_stride: i32, %M: i32, %N: i32, %eps: f32) attributes {blk.kernel = "layernorm", blk.num_warps = 4 : i32} {
  %row = blk.program_id 0
  %c0 = arith.constant 0 : i32
  %c1024 = arith.constant 1024 : i32
  %ro = arith.muli %row, %row_stride : i32
  %xrow = blk.addptr %x, %ro : !blk.ptr<f16>, i32
  %yrow = blk.addptr %y, %ro : !blk.ptr<f16>, i32
  %r = blk.make_range 0, 1024 : tensor<1024xi32>
  %zero = arith.constant dense<0.0> : tensor<1024xf32>
  %zh = arith.constant dense<0.0> : tensor<1024xf16>
  %Ns = blk.splat %N : i32 -> tensor<1024xi32>
  %xs = blk.splat %xrow : !blk.ptr<f16> -> tensor<1024x!blk.ptr<f16>>
  %acc = scf.for %off = %c0 to %N step %c1024 iter_args(%a = %zero) -> (tensor<1024xf32>) : i32 {
    %offs = blk.splat %off : i32 -> tensor<1024xi32>
    %cols = arith.addi %offs, %r : tensor<1024xi32>
    %mask = arith.cmpi slt, %cols, %Ns : tensor<1024xi32>
    %p = blk.addptr %xs, %cols : tensor<1024x!blk.ptr<f16>>, tensor<1024xi32>
    %v = blk.load %p, %mask, %zh : tensor<1024x!blk.ptr<f16>>
    %vf = arith.extf %v : tensor<1024xf16> to tensor<1024xf32>
    %s = arith.addf %a, %vf : tensor<1024xf32>
    scf.yield %s : tensor<1024xf32>
  }
  %sum = blk.reduce %acc {axis = 0 : i32} : (tensor<1024xf32>) -> f32 {
  ^bb0(%l: f32, %rr: f32):
    %t = arith.addf %l, %rr : f32
    blk.reduce.return %t : f32
  }
  %nf = arith.sitofp %N : i32 to f32
  %mean = arith.divf %sum, %nf : f32
  %means = blk.splat %mean : f32 -> tensor<1024xf32>
  %acc2 = scf.for %off = %c0 to %N step %c1024 iter_args(%a = %zero) -> (tensor<1024xf32>) : i32 {
    %offs = blk.splat %off : i32 -> tensor<1024xi32>
    %cols = arith.addi %offs, %r : tensor<1024xi32>
    %mask = arith.cmpi slt, %cols, %Ns : tensor<1024xi32>
    %p = blk.addptr %xs, %cols : tensor<1024x!blk.ptr<f16>>, tensor<1024xi32>
    %v = blk.load %p, %mask, %zh : tensor<1024x!blk.ptr<f16>>
    %vf = arith.extf %v : tensor<1024xf16> to tensor<1024xf32>
    %d = arith.subf %vf, %means : tensor<1024xf32>
    %dm = arith.select %mask, %d, %zero : tensor<1024xi1>, tensor<1024xf32>
    %sq = arith.mulf %dm, %dm : tensor<1024xf32>
    %s = arith.addf %a, %sq : tensor<1024xf32>
    scf.yield %s : tensor<1024xf32>
  }
  %sum2 = blk.reduce %acc2 {axis = 0 : i32} : (tensor<1024xf32>) -> f32 {
  ^bb0(%l: f32, %rr: f32):
    %t = arith.addf %l, %rr : f32
    blk.reduce.return %t : f32
  }
  %var = arith.divf %sum2, %nf : f32
  %ve = arith.addf %var, %eps : f32
  %rstd = math.rsqrt %ve : f32
  %mo = blk.addptr %mean_out, %row : !blk.ptr<f32>, i32
  blk.store %mo, %mean : !blk.ptr<f32>
  %rso = blk.addptr %rstd_out, %row : !blk.ptr<f32>, i32
  blk.store %rso, %rstd : !blk.ptr<f32>
  %rstds = blk.splat %rstd : f32 -> tensor<1024xf32>
  %ys = blk.splat %yrow : !blk.ptr<f16> -> tensor<1024x!blk.ptr<f16>>
  %ws = blk.splat %w : !blk.ptr<f16> -> tensor<1024x!blk.ptr<f16>>
  %bs = blk.splat %b : !blk.ptr<f16> -> tensor<1024x!blk.ptr<f16>>
  scf.for %off = %c0 to %N step %c1024 : i32 {
    %offs = blk.splat %off : i32 -> tensor<1024xi32>
    %cols = arith.addi %offs, %r : tensor<1024xi32>
    %mask = arith.cmpi slt, %cols, %Ns : tensor<1024xi32>
    %p = blk.addptr %xs, %cols : tensor<1024x!blk.ptr<f16>>, tensor<1024xi32>
    %v = blk.load %p, %mask, %zh : tensor<1024x!blk.ptr<f16>>
    %vf = arith.extf %v : tensor<1024xf16> to tensor<1024xf32>
    %pw = blk.addptr %ws, %cols : tensor<1024x!blk.ptr<f16>>, tensor<1024xi32>
    %wv = blk.load %pw, %mask, %zh : tensor<1024x!blk.ptr<f16>>
    %wf = arith.extf %wv : tensor<1024xf16> to tensor<1024xf32>
    %pb = blk.addptr %bs, %cols : tensor<1024x!blk.ptr<f16>>, tensor<1024xi32>
    %bv = blk.load %pb, %mask, %zh : tensor<1024x!blk.ptr<f16>>
    %bf = arith.extf %bv : tensor<1024xf16> to tensor<1024xf32>
    %d = arith.subf %vf, %means : tensor<1024xf32>
    %n1 = arith.mulf %d, %rstds : tensor<1024xf32>
    %n2 = arith.mulf %n1, %wf : tensor<1024xf32>
    %yv = arith.addf %n2, %bf : tensor<1024xf32>
    %yh = arith.truncf %yv : tensor<1024xf32> to tensor<1024xf16>
    %py = blk.addptr %ys, %cols : tensor<1024x!blk.ptr<f16>>, tensor<1024xi32>
    blk.store %py, %yh, %mask : tensor<1024x!blk.ptr<f16>>
  }
  return
}
