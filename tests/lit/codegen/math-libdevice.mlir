// f32 transcendental fast paths (ex2/lg2/rsqrt.approx), libdevice for the
// rest (sin, cos, erf, tanh, f64 math) linked and inlined: no __nv_ call
// left undefined; f16 math goes through f32.
// RUN: blk-codegen-test %s --emit=ptx > %t.ptx && %ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: FileCheck %s < %t.ptx
// RUN: blk-codegen-test %s --emit=llvm | FileCheck %s --check-prefix=LLVM

// LLVM: call float @__nv_sinf(
// LLVM: call float @__nv_erff(
// LLVM: call double @__nv_exp(
// CHECK-NOT: .extern .func {{.*}}__nv_
// CHECK: ex2.approx.ftz.f32
// CHECK: lg2.approx.f32
// CHECK: rsqrt.approx.f32
// CHECK: cvt.f32.f16
// (libdevice's f64 sin reduces huge arguments through a local array, so
// this test does not forbid ld.local.)

func.func @math__w4(%x: !blk.ptr<f32>, %d: !blk.ptr<f64>, %h: !blk.ptr<f16>) attributes {blk.num_warps = 4 : i32} {
  %r = blk.make_range 0, 128 : tensor<128xi32>
  %xs = blk.splat %x : !blk.ptr<f32> -> tensor<128x!blk.ptr<f32>>
  %xp = blk.addptr %xs, %r : tensor<128x!blk.ptr<f32>>, tensor<128xi32>
  %v = blk.load %xp : tensor<128x!blk.ptr<f32>>
  %a = math.sin %v : tensor<128xf32>
  %b = math.erf %a : tensor<128xf32>
  %c = math.tanh %b : tensor<128xf32>
  %e = math.exp %c : tensor<128xf32>
  %l = math.log %e : tensor<128xf32>
  %s = math.sqrt %l : tensor<128xf32>
  %f = math.floor %s : tensor<128xf32>
  %g = math.ceil %f : tensor<128xf32>
  %k = math.absf %g : tensor<128xf32>
  %m = math.fma %k, %v, %a : tensor<128xf32>
  %co = math.cos %m : tensor<128xf32>
  %l2 = math.log2 %co : tensor<128xf32>
  %e2 = math.exp2 %l2 : tensor<128xf32>
  %rs = math.rsqrt %e2 : tensor<128xf32>
  blk.store %xp, %rs : tensor<128x!blk.ptr<f32>>
  %ds = blk.splat %d : !blk.ptr<f64> -> tensor<128x!blk.ptr<f64>>
  %dp = blk.addptr %ds, %r : tensor<128x!blk.ptr<f64>>, tensor<128xi32>
  %dv = blk.load %dp : tensor<128x!blk.ptr<f64>>
  %de = math.exp %dv : tensor<128xf64>
  %dl = math.log %de : tensor<128xf64>
  %dsn = math.sin %dl : tensor<128xf64>
  %dsq = math.sqrt %dsn : tensor<128xf64>
  %drs = math.rsqrt %dsq : tensor<128xf64>
  blk.store %dp, %drs : tensor<128x!blk.ptr<f64>>
  %hs = blk.splat %h : !blk.ptr<f16> -> tensor<128x!blk.ptr<f16>>
  %hp = blk.addptr %hs, %r : tensor<128x!blk.ptr<f16>>, tensor<128xi32>
  %hv = blk.load %hp : tensor<128x!blk.ptr<f16>>
  %he = math.exp %hv : tensor<128xf16>
  %hsn = math.sin %he : tensor<128xf16>
  %habs = math.absf %hsn : tensor<128xf16>
  blk.store %hp, %habs : tensor<128x!blk.ptr<f16>>
  return
}
