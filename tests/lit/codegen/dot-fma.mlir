// matmul on CUDA cores: a and b tiles (masked loads) go to shared memory
// (a's rows padded to 33 floats), then one fma.rn.f32 per accumulator
// element and k; the accumulator is carried by the scf.for in registers.
// RUN: blk-opt %s --blkgpu-pipeline --mlir-print-local-scope | FileCheck %s --check-prefix=GPU
// RUN: blk-codegen-test %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: blk-codegen-test %s --emit=ptx > %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: blk-codegen-test %s --emit=info | FileCheck %s --check-prefix=INFO

// GPU: blk.dot {{.*}} -> tensor<64x64xf32, #blkgpu.blocked
// PTX: bar.sync 0;
// PTX: st.shared.{{[uf]}}32
// PTX: bar.sync 0;
// PTX: ld.shared.f32
// PTX: fma.rn.f32
// PTX-NOT: ld.local

// (64 * 33 + 32 * 64) * 4 bytes
// INFO: matmul__BM_64__BN_64__BK_32__w4 threads=128 shared=16640 dynamic=0

func.func @matmul__BM_64__BN_64__BK_32__w4(%a: !blk.ptr<f32>, %b: !blk.ptr<f32>, %c: !blk.ptr<f32>, %M: i32, %N: i32, %K: i32,
    %sam: i32, %sak: i32, %sbk: i32, %sbn: i32, %scm: i32, %scn: i32)
    attributes {blk.kernel = "matmul", blk.num_warps = 4 : i32} {
  %pid = blk.program_id 0
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c32 = arith.constant 32 : i32
  %c64 = arith.constant 64 : i32
  %gn = arith.ceildivsi %N, %c64 : i32
  %pm = arith.divsi %pid, %gn : i32
  %pn = arith.remsi %pid, %gn : i32
  %r64 = blk.make_range 0, 64 : tensor<64xi32>
  %r32 = blk.make_range 0, 32 : tensor<32xi32>
  %bm = arith.muli %pm, %c64 : i32
  %bn = arith.muli %pn, %c64 : i32
  %bms = blk.splat %bm : i32 -> tensor<64xi32>
  %bns = blk.splat %bn : i32 -> tensor<64xi32>
  %rm = arith.addi %bms, %r64 : tensor<64xi32>
  %rn = arith.addi %bns, %r64 : tensor<64xi32>
  %rm2 = blk.expand_dims %rm {axis = 1 : i32} : tensor<64xi32> -> tensor<64x1xi32>
  %rn2 = blk.expand_dims %rn {axis = 0 : i32} : tensor<64xi32> -> tensor<1x64xi32>
  %zero = arith.constant dense<0.0> : tensor<64x64xf32>
  %za = arith.constant dense<0.0> : tensor<64x32xf32>
  %zb = arith.constant dense<0.0> : tensor<32x64xf32>
  %kt = arith.ceildivsi %K, %c32 : i32
  %sams = blk.splat %sam : i32 -> tensor<64x1xi32>
  %aro = arith.muli %rm2, %sams : tensor<64x1xi32>
  %arob = blk.broadcast %aro : tensor<64x1xi32> -> tensor<64x32xi32>
  %sbns = blk.splat %sbn : i32 -> tensor<1x64xi32>
  %bco = arith.muli %rn2, %sbns : tensor<1x64xi32>
  %bcob = blk.broadcast %bco : tensor<1x64xi32> -> tensor<32x64xi32>
  %Ms = blk.splat %M : i32 -> tensor<64x1xi32>
  %mm = arith.cmpi slt, %rm2, %Ms : tensor<64x1xi32>
  %mmb = blk.broadcast %mm : tensor<64x1xi1> -> tensor<64x32xi1>
  %Ns = blk.splat %N : i32 -> tensor<1x64xi32>
  %mn = arith.cmpi slt, %rn2, %Ns : tensor<1x64xi32>
  %mnb = blk.broadcast %mn : tensor<1x64xi1> -> tensor<32x64xi1>
  %as = blk.splat %a : !blk.ptr<f32> -> tensor<64x32x!blk.ptr<f32>>
  %bs = blk.splat %b : !blk.ptr<f32> -> tensor<32x64x!blk.ptr<f32>>
  %Ks1 = blk.splat %K : i32 -> tensor<1x32xi32>
  %Ks0 = blk.splat %K : i32 -> tensor<32x1xi32>
  %saks = blk.splat %sak : i32 -> tensor<1x32xi32>
  %sbks = blk.splat %sbk : i32 -> tensor<32x1xi32>
  %acc = scf.for %k = %c0 to %kt step %c1 iter_args(%accv = %zero) -> (tensor<64x64xf32>) : i32 {
    %kb = arith.muli %k, %c32 : i32
    %kbs = blk.splat %kb : i32 -> tensor<32xi32>
    %kk = arith.addi %kbs, %r32 : tensor<32xi32>
    %kk1 = blk.expand_dims %kk {axis = 0 : i32} : tensor<32xi32> -> tensor<1x32xi32>
    %kk0 = blk.expand_dims %kk {axis = 1 : i32} : tensor<32xi32> -> tensor<32x1xi32>
    %ako = arith.muli %kk1, %saks : tensor<1x32xi32>
    %akob = blk.broadcast %ako : tensor<1x32xi32> -> tensor<64x32xi32>
    %aoff = arith.addi %arob, %akob : tensor<64x32xi32>
    %ap = blk.addptr %as, %aoff : tensor<64x32x!blk.ptr<f32>>, tensor<64x32xi32>
    %mk1 = arith.cmpi slt, %kk1, %Ks1 : tensor<1x32xi32>
    %mk1b = blk.broadcast %mk1 : tensor<1x32xi1> -> tensor<64x32xi1>
    %amask = arith.andi %mmb, %mk1b : tensor<64x32xi1>
    %at = blk.load %ap, %amask, %za : tensor<64x32x!blk.ptr<f32>>
    %bko = arith.muli %kk0, %sbks : tensor<32x1xi32>
    %bkob = blk.broadcast %bko : tensor<32x1xi32> -> tensor<32x64xi32>
    %boff = arith.addi %bkob, %bcob : tensor<32x64xi32>
    %bp = blk.addptr %bs, %boff : tensor<32x64x!blk.ptr<f32>>, tensor<32x64xi32>
    %mk0 = arith.cmpi slt, %kk0, %Ks0 : tensor<32x1xi32>
    %mk0b = blk.broadcast %mk0 : tensor<32x1xi1> -> tensor<32x64xi1>
    %bmask = arith.andi %mk0b, %mnb : tensor<32x64xi1>
    %bt = blk.load %bp, %bmask, %zb : tensor<32x64x!blk.ptr<f32>>
    %d = blk.dot %at, %bt, %accv : tensor<64x32xf32> * tensor<32x64xf32> -> tensor<64x64xf32>
    scf.yield %d : tensor<64x64xf32>
  }
  %scms = blk.splat %scm : i32 -> tensor<64x1xi32>
  %cro = arith.muli %rm2, %scms : tensor<64x1xi32>
  %crob = blk.broadcast %cro : tensor<64x1xi32> -> tensor<64x64xi32>
  %scns = blk.splat %scn : i32 -> tensor<1x64xi32>
  %cco = arith.muli %rn2, %scns : tensor<1x64xi32>
  %ccob = blk.broadcast %cco : tensor<1x64xi32> -> tensor<64x64xi32>
  %coff = arith.addi %crob, %ccob : tensor<64x64xi32>
  %cs = blk.splat %c : !blk.ptr<f32> -> tensor<64x64x!blk.ptr<f32>>
  %cp = blk.addptr %cs, %coff : tensor<64x64x!blk.ptr<f32>>, tensor<64x64xi32>
  %mmc = blk.broadcast %mm : tensor<64x1xi1> -> tensor<64x64xi1>
  %mnc = blk.broadcast %mn : tensor<1x64xi1> -> tensor<64x64xi1>
  %cmask = arith.andi %mmc, %mnc : tensor<64x64xi1>
  blk.store %cp, %acc, %cmask : tensor<64x64x!blk.ptr<f32>>
  return
}
