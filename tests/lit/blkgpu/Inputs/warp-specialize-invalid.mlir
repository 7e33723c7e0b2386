// Verifier errors of blkgpu.warp_specialize and mbarrier_arrive
// (tests/lit/blkgpu/warp-specialize.mlir runs this).
#blocked = #blkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>

func.func @block_in_producer(%n: i32) attributes {blkgpu.num_warps = 4 : i32} {
  blkgpu.warp_specialize attributes {consumer_registers = 232 : i32, producer_registers = 40 : i32, producer_warps = 4 : i32} producer {
    // expected-error @+1 {{is a block operation in a warp_specialize producer (scalar code only)}}
    %v = blk.splat %n : i32 -> tensor<128xi32, #blocked>
  } consumer {
  }
  return
}

// -----

func.func @barrier_in_producer() attributes {blkgpu.num_warps = 4 : i32} {
  blkgpu.warp_specialize attributes {consumer_registers = 232 : i32, producer_registers = 40 : i32, producer_warps = 4 : i32} producer {
    // expected-error @+1 {{cannot synchronise the producer warpgroup's one thread}}
    blkgpu.barrier
  } consumer {
  }
  return
}

// -----

func.func @partial_warpgroup() attributes {blkgpu.num_warps = 4 : i32} {
  // expected-error @+1 {{producer_warps must be whole warpgroups (a positive multiple of 4), got 2}}
  blkgpu.warp_specialize attributes {consumer_registers = 232 : i32, producer_registers = 40 : i32, producer_warps = 2 : i32} producer {
  } consumer {
  }
  return
}

// -----

func.func @registers() attributes {blkgpu.num_warps = 4 : i32} {
  // expected-error @+1 {{register counts must be multiples of 8 from 24 to 256, the producer's at most the consumers' (or both 0), got 40 and 230}}
  blkgpu.warp_specialize attributes {consumer_registers = 230 : i32, producer_registers = 40 : i32, producer_warps = 4 : i32} producer {
  } consumer {
  }
  return
}

// -----

func.func @nested(%c: i1) attributes {blkgpu.num_warps = 4 : i32} {
  scf.if %c {
    // expected-error @+1 {{must be in the kernel's entry block}}
    blkgpu.warp_specialize attributes {consumer_registers = 232 : i32, producer_registers = 40 : i32, producer_warps = 4 : i32} producer {
    } consumer {
    }
  }
  return
}

// -----
#bar = #blkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>

func.func @arrive_ring(%i: i32) attributes {blkgpu.num_warps = 4 : i32} {
  %bars = blkgpu.local_alloc -> !blkgpu.memdesc<3x1xi64, #bar>
  // expected-error @+1 {{barrier must be one mbarrier (memdesc<1xi64>)}}
  blkgpu.mbarrier_arrive %bars : !blkgpu.memdesc<3x1xi64, #bar>
  return
}

// -----

// One count 0 and not the other is no split and no valid count either.
func.func @half_split() attributes {blkgpu.num_warps = 4 : i32} {
  // expected-error @+1 {{register counts must be multiples of 8 from 24 to 256, the producer's at most the consumers' (or both 0), got 0 and 232}}
  blkgpu.warp_specialize attributes {consumer_registers = 232 : i32, producer_registers = 0 : i32, producer_warps = 4 : i32} producer {
  } consumer {
  }
  return
}

// -----

func.func @turn_outside() attributes {blkgpu.num_warps = 8 : i32} {
  // expected-error @+1 {{must be in the consumer region of a blkgpu.warp_specialize}}
  blkgpu.turn_wait {warpgroups = 2 : i32}
  return
}

// -----

func.func @turn_in_producer() attributes {blkgpu.num_warps = 8 : i32} {
  blkgpu.warp_specialize attributes {consumer_registers = 232 : i32, producer_registers = 40 : i32, producer_warps = 4 : i32} producer {
    // expected-error @+1 {{must be in the consumer region of a blkgpu.warp_specialize}}
    blkgpu.turn_pass {warpgroups = 2 : i32}
  } consumer {
  }
  return
}

// -----

func.func @turn_alone() attributes {blkgpu.num_warps = 4 : i32} {
  blkgpu.warp_specialize attributes {consumer_registers = 232 : i32, producer_registers = 40 : i32, producer_warps = 4 : i32} producer {
  } consumer {
    // expected-error @+1 {{needs at least two warpgroups to take turns, got 1}}
    blkgpu.turn_wait {warpgroups = 1 : i32}
  }
  return
}

// -----

func.func @turn_skip() attributes {blkgpu.num_warps = 8 : i32} {
  blkgpu.warp_specialize attributes {consumer_registers = 232 : i32, producer_registers = 40 : i32, producer_warps = 4 : i32} producer {
  } consumer {
    // expected-error @+1 {{skips warpgroup 2, not one of the 2}}
    blkgpu.turn_pass {skip = 2 : i32, warpgroups = 2 : i32}
  }
  return
}

// -----

func.func @turn_warps() attributes {blkgpu.num_warps = 8 : i32} {
  blkgpu.warp_specialize attributes {consumer_registers = 232 : i32, producer_registers = 40 : i32, producer_warps = 4 : i32} producer {
  } consumer {
    // expected-error @+1 {{takes turns among 3 warpgroups, but the consumers are 8 warps}}
    blkgpu.turn_wait {warpgroups = 3 : i32}
  }
  return
}

// -----

// 640 threads hold 96 registers each at launch (61440): 40 for the producer
// warpgroup and 112 for 16 consumer warps need 62464.
func.func @split_over_launch() attributes {blkgpu.num_warps = 16 : i32} {
  // expected-error @+1 {{register split 40 / 112 needs 62464 registers, more than the 61440 (640 threads at 96) the program holds at launch: setmaxnreg.inc would wait forever}}
  blkgpu.warp_specialize attributes {consumer_registers = 112 : i32, producer_registers = 40 : i32, producer_warps = 4 : i32} producer {
  } consumer {
  }
  return
}

// -----

// Two programs per SM: 384 threads at 80 (30720); 40 / 104 need 31744.
func.func @split_over_two_programs() attributes {blkgpu.num_warps = 8 : i32, blk.programs_per_sm = 2 : i32} {
  // expected-error @+1 {{register split 40 / 104 needs 31744 registers, more than the 30720 (384 threads at 80) the program holds at launch}}
  blkgpu.warp_specialize attributes {consumer_registers = 104 : i32, producer_registers = 40 : i32, producer_warps = 4 : i32} producer {
  } consumer {
  }
  return
}
