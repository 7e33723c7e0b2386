// Verifier errors of the TMA ops (tests/lit/blkgpu/tma.mlir runs this).
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#nv64 = #blkgpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0], pad = 0, block = 32}>
#kmaj = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], pad = 0, block = 64}>
#bar = #blkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>

func.func @swizzle_span(%base: !blk.ptr<f16>, %n: i32) {
  // expected-error @+1 {{the box's rows (256 bytes) must be a multiple of 16 bytes and, swizzled, exactly the swizzle span}}
  %map = blkgpu.tensor_map %base[%n, %n] strides[%n] {box = array<i64: 64, 128>, swizzle = 128 : i32} : !blk.ptr<f16>, (i32, i32), (i32)
  return
}

// -----
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#nv64 = #blkgpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0], pad = 0, block = 32}>
#kmaj = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], pad = 0, block = 64}>
#bar = #blkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>

func.func @not_entry(%base: !blk.ptr<f16>, %n: i32, %c: i1) {
  scf.if %c {
    // expected-error @+1 {{must be in the kernel's entry block}}
    %map = blkgpu.tensor_map %base[%n, %n] strides[%n] {box = array<i64: 64, 64>, swizzle = 128 : i32} : !blk.ptr<f16>, (i32, i32), (i32)
  }
  return
}

// -----
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#nv64 = #blkgpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0], pad = 0, block = 32}>
#kmaj = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], pad = 0, block = 64}>
#bar = #blkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>

func.func @rank(%base: !blk.ptr<f16>, %n: i32) {
  // expected-error @+1 {{describes a 2-D tensor}}
  %map = blkgpu.tensor_map %base[%n, %n, %n] strides[%n, %n] {box = array<i64: 8, 64, 64>, swizzle = 128 : i32} : !blk.ptr<f16>, (i32, i32, i32), (i32, i32)
  return
}

// -----
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#nv64 = #blkgpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0], pad = 0, block = 32}>
#kmaj = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], pad = 0, block = 64}>
#bar = #blkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>

func.func @wrong_swizzle(%base: !blk.ptr<f16>, %n: i32, %bars: !blkgpu.memdesc<1xi64, #bar>, %slot: !blkgpu.memdesc<64x64xf16, #nv64>) {
  %map = blkgpu.tensor_map %base[%n, %n] strides[%n] {box = array<i64: 64, 64>, swizzle = 128 : i32} : !blk.ptr<f16>, (i32, i32), (i32)
  // expected-error @+1 {{is not the 128-byte swizzle of boxes 64 elements wide}}
  blkgpu.tma_load %map[%n, %n], %slot, %bars : !blkgpu.memdesc<64x64xf16, #nv64>, !blkgpu.memdesc<1xi64, #bar>
  return
}

// -----
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#nv64 = #blkgpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0], pad = 0, block = 32}>
#kmaj = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], pad = 0, block = 64}>
#bar = #blkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>

func.func @transposed_slot(%base: !blk.ptr<f16>, %n: i32, %bars: !blkgpu.memdesc<1xi64, #bar>, %slot: !blkgpu.memdesc<64x64xf16, #kmaj>) {
  %map = blkgpu.tensor_map %base[%n, %n] strides[%n] {box = array<i64: 64, 64>, swizzle = 128 : i32} : !blk.ptr<f16>, (i32, i32), (i32)
  // expected-error @+1 {{TMA does not transpose}}
  blkgpu.tma_load %map[%n, %n], %slot, %bars : !blkgpu.memdesc<64x64xf16, #kmaj>, !blkgpu.memdesc<1xi64, #bar>
  return
}

// -----
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#nv64 = #blkgpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0], pad = 0, block = 32}>
#kmaj = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], pad = 0, block = 64}>
#bar = #blkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>

func.func @box_shape(%base: !blk.ptr<f16>, %n: i32, %bars: !blkgpu.memdesc<1xi64, #bar>, %slot: !blkgpu.memdesc<128x64xf16, #nv>) {
  %map = blkgpu.tensor_map %base[%n, %n] strides[%n] {box = array<i64: 64, 64>, swizzle = 128 : i32} : !blk.ptr<f16>, (i32, i32), (i32)
  // expected-error @+1 {{dst must be one slot of 'f16' shaped like the box [64, 64]}}
  blkgpu.tma_load %map[%n, %n], %slot, %bars : !blkgpu.memdesc<128x64xf16, #nv>, !blkgpu.memdesc<1xi64, #bar>
  return
}

// -----
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#nv64 = #blkgpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0], pad = 0, block = 32}>
#kmaj = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], pad = 0, block = 64}>
#bar = #blkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>

func.func @barrier_shape(%bars: !blkgpu.memdesc<2xi64, #bar>, %n: i32) {
  // expected-error @+1 {{barrier must be one mbarrier (memdesc<1xi64>)}}
  blkgpu.mbarrier_wait %bars, %n : !blkgpu.memdesc<2xi64, #bar>
  return
}

// -----
#nv = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [1, 0], pad = 0, block = 64}>
#nv64 = #blkgpu.shared<{vec = 8, perPhase = 2, maxPhase = 4, order = [1, 0], pad = 0, block = 32}>
#kmaj = #blkgpu.shared<{vec = 8, perPhase = 1, maxPhase = 8, order = [0, 1], pad = 0, block = 64}>
#bar = #blkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>

func.func @ring_shape(%bars: !blkgpu.memdesc<4xi64, #bar>) {
  // expected-error @+1 {{barriers must be a ring of mbarriers}}
  blkgpu.mbarrier_init %bars {count = 1 : i32} : !blkgpu.memdesc<4xi64, #bar>
  return
}
