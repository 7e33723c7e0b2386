// Warp specialisation (blkgpu.warp_specialize, mbarrier_arrive): the ops
// round-trip and verify (Inputs/warp-specialize-invalid.mlir), and
// blkgpu-pipeline-loops splits a `blk.warp_specialize` kernel.
// RUN: blk-opt %s --split-input-file | blk-opt --split-input-file | FileCheck %s
// RUN: blk-opt %S/Inputs/warp-specialize-invalid.mlir --split-input-file --verify-diagnostics
//
// The tutorial GEMM (Inputs/ws_tutorial.mlir, versioned on its `% M` / `% N`
// boxes): before the split, a "full" and an "empty" mbarrier per slot
// (counts 1 and the 4 consumer warps) and both rings; the producer, under
// the versioning condition, loops over every iteration: from the fourth
// on it waits for its slot's release (phase (i / 3 + 1) % 2), arms the
// full barrier with both tiles' 24 KiB and issues the two copies of
// iteration i (K at i * 64). The consumers' TMA loop waits on the full
// barrier, runs the wgmma on (pending = 1) and then releases the slot of
// iteration i - 1 (from i = 1); no copy, expect_tx or barrier is left in
// it; the other version keeps its cp.async ring and its barriers, its ring
// reusing the TMA rings' bytes (a use in a branch ends at the use).
// A persistent kernel (Inputs/ws_persistent.mlir: the same GEMM inside a
// loop over tiles): both sides carry the number of TMA iterations run so
// far through the tile loop (from 0, plus the K loop's trip count after
// each tile whose branch condition holds), iteration i of a tile fills and
// waits for slot (count + i) % 3, and the consumers release the tile's
// last slot after its final wgmma wait, so the producer fills the next
// tile's first slots meanwhile. The other version (edge tiles) is not
// pipelined: its buffers sit after the TMA rings (75776), not on them.
// RUN: blk-opt %S/Inputs/ws_persistent.mlir --blkgpu-pipeline-loops --blkgpu-remove-layout-conversions --blkgpu-choose-shared-layouts --blkgpu-allocate-shared --blkgpu-insert-barriers --blkgpu-defer-wgmma-waits | FileCheck %s --check-prefix=TILES
// TILES-LABEL: func.func @ws_persistent
// TILES: blkgpu.warp_specialize
// TILES: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[PBASE:.*]] = %c0_i32{{.*}}) -> (i32)
// TILES: %[[PTRIP:.*]] = arith.select %{{.*}}, %{{.*}}, %{{.*}} : i32
// TILES-NEXT: %[[PNEXT:.*]] = arith.addi %[[PBASE]], %[[PTRIP]] : i32
// TILES: scf.if
// TILES: scf.for
// TILES: %[[L:.*]] = arith.divsi
// TILES-NEXT: %[[G:.*]] = arith.addi %[[PBASE]], %[[L]] : i32
// TILES: arith.remsi %[[G]], %c3
// TILES: arith.cmpi sge, %[[G]], %c3
// TILES: blkgpu.mbarrier_wait
// TILES: blkgpu.mbarrier_expect
// TILES: blkgpu.tma_load
// TILES: blkgpu.tma_load
// TILES: scf.yield %[[PNEXT]] : i32
// TILES: } consumer {
// TILES: scf.for %{{.*}} iter_args(%[[CBASE:.*]] = %c0_i32{{.*}}) -> (i32)
// TILES: scf.if
// TILES: scf.for
// TILES: %[[CL:.*]] = arith.divsi
// TILES-NEXT: arith.addi %[[CBASE]], %[[CL]] : i32
// TILES: blkgpu.mbarrier_wait
// TILES: blkgpu.wgmma %{{.*}}, %{{.*}}, %{{.*}} {pending = 1 : i32}
// TILES: blkgpu.mbarrier_arrive
// TILES: blkgpu.wgmma_wait %{{.*}} {pending = 0 : i32}
// TILES: %[[END:.*]] = arith.addi %[[CBASE]], %{{.*}} : i32
// TILES-NEXT: %[[LASTC:.*]] = arith.subi %[[END]], %c1
// TILES: %[[LAST:.*]] = arith.remsi %[[LASTC]], %c3
// TILES: %[[E:.*]] = blkgpu.memdesc_index %{{.*}}[%[[LAST]]]
// TILES-NEXT: blkgpu.mbarrier_arrive %[[E]]
// TILES: } else {
// TILES-NOT: blkgpu.async
// TILES: blkgpu.local_alloc %{{.*}} {blkgpu.buffer_offset = 75776 : i64}
// TILES-NOT: blkgpu.async
// TILES: scf.yield %{{.*}} : i32
//
// RUN: blk-opt %S/Inputs/ws_tutorial.mlir --blkgpu-pipeline-loops --blkgpu-remove-layout-conversions --blkgpu-choose-shared-layouts --blkgpu-allocate-shared --blkgpu-insert-barriers --blkgpu-defer-wgmma-waits | FileCheck %s --check-prefix=SPLIT
// SPLIT-LABEL: func.func @ws_tutorial
// SPLIT: %[[FULL:.*]] = blkgpu.local_alloc {blkgpu.buffer_offset = 0 : i64} -> !blkgpu.memdesc<3x1xi64
// SPLIT-NEXT: blkgpu.mbarrier_init %[[FULL]] {count = 1 : i32}
// SPLIT-NEXT: %[[EMPTY:.*]] = blkgpu.local_alloc {blkgpu.buffer_offset = 1024 : i64} -> !blkgpu.memdesc<3x1xi64
// SPLIT-NEXT: blkgpu.mbarrier_init %[[EMPTY]] {count = 4 : i32}
// SPLIT-NEXT: %[[A:.*]] = blkgpu.local_alloc {blkgpu.buffer_offset = 2048 : i64} -> !blkgpu.memdesc<3x128x64xf16
// SPLIT-NEXT: %[[B:.*]] = blkgpu.local_alloc {blkgpu.buffer_offset = 51200 : i64} -> !blkgpu.memdesc<3x64x64xf16
// SPLIT-NEXT: blkgpu.warp_specialize attributes {consumer_registers = 232 : i32, producer_registers = 40 : i32, producer_warps = 4 : i32} producer {
// SPLIT-NOT: blkgpu.barrier
// SPLIT: scf.if
// SPLIT: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step
// SPLIT: %[[SLOT:.*]] = arith.remsi %[[IT:.*]], %c3
// SPLIT: %[[ROUND:.*]] = arith.divsi %[[IT]], %c3
// SPLIT: %[[REUSED:.*]] = arith.cmpi sge, %[[IT]], %c3
// SPLIT: scf.if %[[REUSED]] {
// SPLIT: %[[NEXT:.*]] = arith.addi %[[ROUND]], %c1
// SPLIT: %[[PARITY:.*]] = arith.remsi %[[NEXT]], %c2
// SPLIT: %[[E:.*]] = blkgpu.memdesc_index %[[EMPTY]][%[[SLOT]]]
// SPLIT: blkgpu.mbarrier_wait %[[E]], %[[PARITY]]
// SPLIT: %[[F:.*]] = blkgpu.memdesc_index %[[FULL]][%[[SLOT]]]
// SPLIT-NEXT: blkgpu.mbarrier_expect %[[F]] {bytes = 24576 : i32}
// SPLIT-NEXT: %[[SA:.*]] = blkgpu.memdesc_index %[[A]][%[[SLOT]]]
// SPLIT: %[[KA:.*]] = arith.muli %[[I]], %c64
// SPLIT-NEXT: blkgpu.tma_load %{{.*}}[%{{.*}}, %[[KA]]], %[[SA]], %[[F]] :
// SPLIT-NEXT: %[[SB:.*]] = blkgpu.memdesc_index %[[B]][%[[SLOT]]]
// SPLIT: %[[KB:.*]] = arith.muli %[[I]], %c64
// SPLIT: blkgpu.tma_load %{{.*}}[%[[KB]], %{{.*}}], %[[SB]], %[[F]] :
// SPLIT-NOT: blkgpu.barrier
// SPLIT: } consumer {
// SPLIT: scf.if %{{.*}} -> (tensor<128x64xf32
// SPLIT: scf.for
// SPLIT-NOT: blkgpu.barrier
// SPLIT-NOT: blkgpu.tma_load
// SPLIT-NOT: blkgpu.mbarrier_expect
// SPLIT: %[[CF:.*]] = blkgpu.memdesc_index %[[FULL]]
// SPLIT-NEXT: blkgpu.mbarrier_wait %[[CF]],
// SPLIT-NOT: blkgpu.barrier
// SPLIT: blkgpu.wgmma %{{.*}}, %{{.*}}, %{{.*}} {pending = 1 : i32}
// SPLIT-NOT: blkgpu.barrier
// SPLIT: %[[PREV:.*]] = arith.remsi
// SPLIT: %[[NOTFIRST:.*]] = arith.cmpi sge, %{{.*}}, %c1
// SPLIT: %[[CE:.*]] = blkgpu.memdesc_index %[[EMPTY]][%{{.*}}]
// SPLIT-NEXT: blkgpu.mbarrier_arrive %[[CE]], %[[NOTFIRST]]
// SPLIT-NOT: blkgpu.barrier
// SPLIT: scf.yield
// SPLIT: blkgpu.wgmma_wait %{{.*}} {pending = 0 : i32}
// SPLIT: } else {
// SPLIT-NEXT: blkgpu.local_alloc {blkgpu.buffer_offset = 2048 : i64} -> !blkgpu.memdesc<3x128x64xf16
// SPLIT: blkgpu.async_copy
// SPLIT: blkgpu.barrier
// SPLIT: blkgpu.wgmma
// SPLIT: blk.store

#bar = #blkgpu.shared<{vec = 1, perPhase = 1, maxPhase = 1, order = [0], pad = 0}>

// CHECK-LABEL: func.func @split
// CHECK: blkgpu.warp_specialize attributes {consumer_registers = 232 : i32, producer_registers = 40 : i32, producer_warps = 4 : i32} producer {
// CHECK: blkgpu.mbarrier_wait
// CHECK: } consumer {
// CHECK: blkgpu.mbarrier_arrive %{{.*}}, %{{.*}} : !blkgpu.memdesc<1xi64, #{{shared[0-9]*}}>
// CHECK: blkgpu.mbarrier_arrive %{{.*}} : !blkgpu.memdesc<1xi64, #{{shared[0-9]*}}>
// CHECK: blkgpu.turn_wait {skip = 0 : i32, warpgroups = 2 : i32}
// CHECK: blkgpu.turn_pass {warpgroups = 2 : i32}
func.func @split(%p: i1, %phase: i32, %i: i32) attributes {blkgpu.num_warps = 8 : i32, blk.warp_specialize} {
  %bars = blkgpu.local_alloc -> !blkgpu.memdesc<3x1xi64, #bar>
  blkgpu.mbarrier_init %bars {count = 8 : i32} : !blkgpu.memdesc<3x1xi64, #bar>
  blkgpu.warp_specialize attributes {consumer_registers = 232 : i32, producer_registers = 40 : i32, producer_warps = 4 : i32} producer {
    %b = blkgpu.memdesc_index %bars[%i] : !blkgpu.memdesc<3x1xi64, #bar> -> !blkgpu.memdesc<1xi64, #bar>
    blkgpu.mbarrier_wait %b, %phase : !blkgpu.memdesc<1xi64, #bar>
  } consumer {
    %b = blkgpu.memdesc_index %bars[%i] : !blkgpu.memdesc<3x1xi64, #bar> -> !blkgpu.memdesc<1xi64, #bar>
    blkgpu.mbarrier_arrive %b, %p : !blkgpu.memdesc<1xi64, #bar>
    blkgpu.mbarrier_arrive %b : !blkgpu.memdesc<1xi64, #bar>
    blkgpu.turn_wait {skip = 0 : i32, warpgroups = 2 : i32}
    blkgpu.turn_pass {warpgroups = 2 : i32}
  }
  return
}

// -----

// A kernel whose loop TMA cannot fill (here: one stage) still keeps its
// producer warps out of the body: everything but the return goes into the
// consumer region, the producer region stays empty.
// RUN: blk-opt %s --split-input-file --blkgpu-pipeline-loops | FileCheck %s --check-prefix=WRAP
// WRAP-LABEL: func.func @wrapped
// WRAP-NEXT: blkgpu.warp_specialize attributes {{.*}} producer {
// WRAP-NEXT: } consumer {
// WRAP-NEXT: blk.program_id 0
// WRAP: blk.store
// WRAP-NEXT: }
// WRAP-NEXT: return
#blocked = #blkgpu.blocked<{sizePerThread = [1], threadsPerWarp = [32], warpsPerCTA = [4], order = [0]}>
func.func @wrapped(%out: !blk.ptr<i32>) attributes {blkgpu.num_warps = 4 : i32, blk.num_warps = 4 : i32, blk.num_stages = 1 : i32, blk.warp_specialize} {
  %pid = blk.program_id 0
  %ptrs = blk.splat %out : !blk.ptr<i32> -> tensor<128x!blk.ptr<i32>, #blocked>
  %v = blk.splat %pid : i32 -> tensor<128xi32, #blocked>
  blk.store %ptrs, %v : tensor<128x!blk.ptr<i32>, #blocked>
  return
}

// -----

// setmaxnreg's split is what one program holds at launch (setmaxnreg.inc
// takes only what its own warps gave back): 64 K over the programs and
// threads, rounded down to 8 per thread. One program of 4 consumer
// warpgroups (640 threads at 96: 61440) would give the consumers
// (61440 - 128 * 40) / 512 = 110 -> 104, so the producer keeps 24 and they
// get (61440 - 128 * 24) / 512 = 114 -> 112 (the split 40 / 112 of the
// last session overdrew: the attention sample's 256 x 64 config passed at
// N <= 1000 and hung on the H100 at N = 4096, where the producer loops);
// two programs of two warpgroups (programs_per_sm = 2, 384 threads at 80:
// 30720) (30720 - 128 * 24) / 256 = 108 -> 104; at five programs the
// consumers would get fewer than 40, so nobody changes registers (both 0).
// WRAP-LABEL: func.func @sixteen_warps
// WRAP-NEXT: blkgpu.warp_specialize attributes {consumer_registers = 112 : i32, producer_registers = 24 : i32, producer_warps = 4 : i32} producer {
// WRAP-LABEL: func.func @two_programs
// WRAP-NEXT: blkgpu.warp_specialize attributes {consumer_registers = 104 : i32, producer_registers = 24 : i32, producer_warps = 4 : i32} producer {
// WRAP-LABEL: func.func @five_programs
// WRAP-NEXT: blkgpu.warp_specialize attributes {consumer_registers = 0 : i32, producer_registers = 0 : i32, producer_warps = 4 : i32} producer {
func.func @sixteen_warps() attributes {blkgpu.num_warps = 16 : i32, blk.num_warps = 16 : i32, blk.num_stages = 1 : i32, blk.warp_specialize} {
  return
}
func.func @two_programs() attributes {blkgpu.num_warps = 8 : i32, blk.num_warps = 8 : i32, blk.num_stages = 1 : i32, blk.programs_per_sm = 2 : i32, blk.warp_specialize} {
  return
}
func.func @five_programs() attributes {blkgpu.num_warps = 8 : i32, blk.num_warps = 8 : i32, blk.num_stages = 1 : i32, blk.programs_per_sm = 5 : i32, blk.warp_specialize} {
  return
}

// -----

// Attention (Inputs/ws_attention.mlir): the P·V wgmma runs on into the
// next iteration (pending = 1) as it does without warp specialisation; the
// next iteration waits for it just before rescaling its accumulator and
// only then releases the previous iteration's slot (i - 1, from i = 1: its
// V is what the running wgmma read). The consumers' loop has no barrier:
// the Q tile, written once before it, is waited for before the loop.
// After blkgpu-warpgroup-turns the two consumer warpgroups take turns: a turn is
// the P·V of one iteration with the Q·Kᵀ of the next, so the wait goes
// right before P·V (after its accumulator's rescale) and the pass right
// after Q·Kᵀ (before its wait); warpgroup 1 waits once before the loop for
// its first turn, and warpgroup 0 passes once after it.
// RUN: blk-opt %S/Inputs/ws_attention.mlir --blkgpu-pipeline-loops --blkgpu-remove-layout-conversions --blkgpu-choose-shared-layouts --blkgpu-allocate-shared --blkgpu-insert-barriers --blkgpu-defer-wgmma-waits --blkgpu-warpgroup-turns | FileCheck %s --check-prefix=ATTN
// ATTN-LABEL: func.func @ws_attention
// ATTN: } consumer {
// ATTN: blkgpu.barrier
// ATTN-NEXT: blkgpu.turn_wait {skip = 0 : i32, warpgroups = 2 : i32}
// ATTN-NEXT: scf.for %[[I:.*]] = %{{.*}} to %{{.*}} step %[[STEP:.*]] iter_args(%{{.*}} = %{{.*}}, %[[ACC:.*]] = %{{.*}}, %{{.*}} = %{{.*}})
// ATTN-NOT: blkgpu.barrier
// ATTN: blkgpu.mbarrier_wait
// ATTN: blkgpu.wgmma {{.*}}pending = -1
// ATTN-NEXT: blkgpu.turn_pass {warpgroups = 2 : i32}
// ATTN-NEXT: blkgpu.wgmma_wait %{{.*}} {pending = 0 : i32}
// ATTN-NOT: blkgpu.barrier
// ATTN: %[[DONE:.*]] = blkgpu.wgmma_wait %[[ACC]] {pending = 0 : i32}
// ATTN-NEXT: %[[REL:.*]] = arith.subi %[[I]], %{{.*}} : i32
// ATTN-NEXT: %[[ITER:.*]] = arith.divsi %[[REL]], %[[STEP]] : i32
// ATTN: %[[NEXT:.*]] = arith.addi %[[ITER]], %{{.*}} : i32
// ATTN-NEXT: %[[PREV:.*]] = arith.remsi %[[NEXT]], %{{.*}} : i32
// ATTN: %[[NOTFIRST:.*]] = arith.cmpi sge, %[[ITER]], %{{.*}} : i32
// ATTN-NEXT: %[[EMPTY:.*]] = blkgpu.memdesc_index %{{.*}}[%[[PREV]]]
// ATTN-NEXT: blkgpu.mbarrier_arrive %[[EMPTY]], %[[NOTFIRST]]
// ATTN-NEXT: arith.mulf %[[DONE]]
// ATTN-NEXT: blkgpu.turn_wait {warpgroups = 2 : i32}
// ATTN-NEXT: blkgpu.wgmma {{.*}}pending = 1
// ATTN-NEXT: scf.yield
// ATTN-NEXT: }
// ATTN-NEXT: blkgpu.turn_pass {skip = 1 : i32, warpgroups = 2 : i32}
// ATTN-NEXT: blkgpu.wgmma_wait %{{.*}}#1 {pending = 0 : i32}

// A box coordinate that is a scalar function of the induction variable
// (Inputs/ws_attention_shifted.mlir: V's rows at max(start_n - 64, 0), as
// the attention sample's hand-overlapped form reads V of the block
// before) is recomputed inside the producer's loop, from its own
// induction variable: the loop is still warp-specialised.
// RUN: blk-opt %S/Inputs/ws_attention_shifted.mlir --blkgpu-pipeline-loops | FileCheck %s --check-prefix=SHIFTED
// SHIFTED-LABEL: func.func @ws_attention_shifted
// SHIFTED: blkgpu.warp_specialize
// SHIFTED-SAME: producer {
// SHIFTED: scf.for %[[IV:.+]] = %{{.+}} to %{{.+}} step %{{.+}} : i32 {
// SHIFTED: blkgpu.mbarrier_expect
// SHIFTED: blkgpu.tma_load %{{.+}}[%[[IV]], %{{.+}}]
// SHIFTED: %[[BACK:.+]] = arith.subi %[[IV]], %{{.+}} : i32
// SHIFTED-NEXT: %[[ROW:.+]] = arith.maxsi %[[BACK]], %{{.+}} : i32
// SHIFTED: blkgpu.tma_load %{{.+}}[%[[ROW]], %{{.+}}]
// SHIFTED-NEXT: }
// SHIFTED-NEXT: } consumer {
// SHIFTED-NOT: blkgpu.tma_load
// SHIFTED: blkgpu.mbarrier_wait

// The hand-overlapped form (Inputs/ws_attention_overlapped.mlir: Q·Kᵀ_i,
// then P·V_i-1, whose result the rescale reads later in the same
// iteration): the producer loads V of the block before at
// max(start_n - 128, 0); the consumers release the slot right after the
// rescale, the first reader of P·V's result, so Q·Kᵀ is waited for with
// P·V in flight (pending = 1) and P·V only before the rescale, with the
// softmax in between. blkgpu-warpgroup-turns then makes the two consumer
// warpgroups take turns: a turn is the two wgmmas, passed on right after
// P·V's issue; the wait for the next turn ends the body.
// RUN: blk-opt %S/Inputs/ws_attention_overlapped.mlir --blkgpu-pipeline-loops --blkgpu-remove-layout-conversions --blkgpu-choose-shared-layouts --blkgpu-allocate-shared --blkgpu-insert-barriers --blkgpu-defer-wgmma-waits --blkgpu-warpgroup-turns | FileCheck %s --check-prefix=OVERLAP
// OVERLAP-LABEL: func.func @ws_attention_overlapped
// OVERLAP: producer {
// OVERLAP: scf.for %[[IV:.+]] = %{{.+}} to %{{.+}} step %{{.+}} : i32 {
// OVERLAP: blkgpu.tma_load
// OVERLAP: %[[BACK:.+]] = arith.subi %[[IV]], %{{.+}} : i32
// OVERLAP-NEXT: %[[ROW:.+]] = arith.maxsi %[[BACK]], %{{.+}} : i32
// OVERLAP: blkgpu.tma_load %{{.+}}[%{{.+}}, %{{.+}}]
// OVERLAP: } consumer {
// OVERLAP: blkgpu.turn_wait {skip = 0 : i32, warpgroups = 2 : i32}
// OVERLAP-NEXT: scf.for
// OVERLAP: blkgpu.mbarrier_wait
// OVERLAP: %[[QK:.+]] = blkgpu.wgmma {{.*}}{pending = -1 : i32}
// OVERLAP-NEXT: %[[PV:.+]] = blkgpu.wgmma {{.*}}{pending = -1 : i32}
// OVERLAP-NEXT: blkgpu.turn_pass {warpgroups = 2 : i32}
// OVERLAP-NEXT: blkgpu.wgmma_wait %[[QK]] {pending = 1 : i32}
// OVERLAP-NOT: blkgpu.mbarrier_arrive
// OVERLAP: math.exp2
// OVERLAP-NOT: blkgpu.mbarrier_arrive
// OVERLAP: %[[PVW:.+]] = blkgpu.wgmma_wait %[[PV]] {pending = 0 : i32}
// OVERLAP-NEXT: arith.mulf %[[PVW]]
// OVERLAP: blkgpu.mbarrier_arrive
// OVERLAP: blkgpu.turn_wait {warpgroups = 2 : i32}
// OVERLAP-NEXT: scf.yield
// OVERLAP-NEXT: }
// OVERLAP-NEXT: blkgpu.turn_pass {skip = 1 : i32, warpgroups = 2 : i32}
