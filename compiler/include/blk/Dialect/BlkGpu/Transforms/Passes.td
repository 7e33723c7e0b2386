//===- Passes.td - blkgpu passes ----------------------------*- tablegen -*-===//
//
// The GPU back end's passes, in pipeline order (buildGpuPipeline in
// Pipeline.cpp is the one list). Each runs alone in blk-opt under its flag
// and has tests/lit/blkgpu/<flag without the blkgpu- prefix>.mlir.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_DIALECT_BLKGPU_TRANSFORMS_PASSES_TD
#define BLK_DIALECT_BLKGPU_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def AutoSpecialize : Pass<"blkgpu-auto-specialize", "mlir::ModuleOp"> {
  let summary = "Add a variant of each kernel entry for the common case of its arguments";
  let description = [{
    Expects optimised blk IR. After each kernel entry without `@specialize`,
    adds `<entry>__auto`: the entry compiled under assumptions about its
    arguments that widen some memory access (a stride equal to 1, integers
    multiples of 16, pointers 16-byte aligned), only those that change an
    access's axis-info facts. The variant carries `blk.variant_of` and
    `blk.variant_assume` (argument, kind, value) triples, kind 0 = aligned,
    1 = equals, 2 = multiple of; the runtime launches it when every
    assumption holds for the launch's arguments.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect"];
}

def AnnotateAccessHints : Pass<"blkgpu-annotate-access-hints", "mlir::func::FuncOp"> {
  let summary = "Record axis-info facts on every block memory op";
  let description = [{
    Expects layout-free blk IR. Runs `blk::AxisInfoAnalysis` and records on
    each load/store/atomic whose pointer is a block: `blkgpu.contiguity`,
    `blkgpu.align` (bytes) and `blkgpu.mask_constancy`, one entry per dim,
    so that coalescing and the emitter use the same proven facts after
    layouts make the analysis inapplicable. This pass, coalesce and
    assign-layouts make blkgpu IR from blk IR: on a func already marked
    `blkgpu.num_warps` (blkgpu IR, e.g. written by hand) they do nothing.
  }];
}

def Coalesce : Pass<"blkgpu-coalesce", "mlir::func::FuncOp"> {
  let summary = "Choose the coalesced, vectorised layout of each memory op";
  let description = [{
    Expects access hints. Gives each block load/store/atomic a
    `blkgpu.layout` attribute: a blocked layout whose order starts at the
    most contiguous dim, with up to 16 bytes per thread there (contiguity
    permitting, and no idle threads). Atomics stay scalar. The IR's types
    are not changed: assign-layouts applies the choice. On a target with
    wgmma, a load feeding a tf32 `dot` operand whose contiguous dim is not
    K gets one element per thread, 8 threads along that dim and 4 along K:
    its copy into the K-major buffer wgmma needs is then free of bank
    conflicts.
  }];
  let options = [
    Option<"arch", "arch", "std::string", "\"\"",
           "the target architecture (empty: no tensor-core rules)">,
  ];
  let dependentDialects = ["::blk::gpu::BlkGpuDialect"];
}

def AssignLayouts : Pass<"blkgpu-assign-layouts", "mlir::func::FuncOp"> {
  let summary = "Give every tensor a layout encoding";
  let description = [{
    Expects `blkgpu.layout` on block memory ops (from blkgpu-coalesce; a
    memory op without one gets the default layout). Guarantees: every tensor
    value has a #blkgpu.blocked or #blkgpu.slice encoding, each op's operands
    have the layouts its lowering needs, with blkgpu.convert_layout inserted
    after the producer where they differ. A shape's preferred layout is that
    of its first memory op, so index arithmetic usually needs no conversion.
    Fails with a diagnostic on an op with tensors and no layout rule.
  }];
  let dependentDialects = ["::blk::gpu::BlkGpuDialect"];
}

def AccelerateMatmul : Pass<"blkgpu-accelerate-matmul", "mlir::func::FuncOp"> {
  let summary = "Put each dot the target's tensor cores can run on them";
  let description = [{
    Expects blkgpu IR from blkgpu-assign-layouts. On a target with wgmma
    (sm_90a), a `blk.dot` with f16 or bf16 operands and an f32 accumulator
    (or f32 ones with precision "tf32", or i8 ones with an i32 accumulator;
    both K-major), M a multiple of 64 per warpgroup, N of 16, K of 32 bytes,
    and a multiple of 4 warps becomes: both operands stored into
    NVMMA-swizzled buffers
    (blkgpu.local_alloc), and `blkgpu.wgmma` on an accumulator in a
    #blkgpu.mma layout. An accumulator carried by an scf.for stays in the
    mma layout across the loop; conversions to the old layout are placed
    only where a consumer needs it. Other dots stay on CUDA cores.
  }];
  let options = [
    Option<"arch", "arch", "std::string", "\"sm_90a\"",
           "the target architecture (what tensor cores it has)">,
  ];
  let dependentDialects = ["::blk::gpu::BlkGpuDialect"];
}

def PipelineLoops : Pass<"blkgpu-pipeline-loops", "mlir::func::FuncOp"> {
  let summary = "Fetch tensor-core operands num_stages - 1 iterations ahead";
  let description = [{
    Expects blkgpu IR after blkgpu-accelerate-matmul and the kernel's
    `blk.num_stages` = S. With S >= 2 on a target with cp.async, each block
    load of an innermost loop that only fills a shared-memory buffer (and
    whose `other` is absent or zero) becomes an S-slot ring filled by
    blkgpu.async_copy S - 1 iterations ahead: prologue, one commit per
    iteration, async_wait of S - 2 pending groups before the reads, copies
    past the end masked off, async_wait 0 after the loop. With TMA (sm_90,
    `tma`), a loop whose loads are all boxes of 2-D tensors read by wgmma
    fills the rings with blkgpu.tma_load and per-slot mbarriers instead,
    versioned where the boxes depend on the arguments.
  }];
  let options = [
    Option<"arch", "arch", "std::string", "\"sm_90a\"",
           "the target architecture (whether it has cp.async)">,
    Option<"tma", "tma", "bool", "true",
           "fill rings with TMA where every prefetch is a box (sm_90a; not in "
           "kernels marked blk.no_tma, a `tma = false` config)">,
  ];
  let dependentDialects = ["::blk::gpu::BlkGpuDialect", "::mlir::arith::ArithDialect",
                           "::mlir::scf::SCFDialect"];
}

def PropagateMmaLayouts
    : Pass<"blkgpu-propagate-mma-layouts", "mlir::func::FuncOp"> {
  let summary = "Compute the users of a tensor-core accumulator in its layout";
  let description = [{
    Expects blkgpu IR after blkgpu-accelerate-matmul. A conversion out of an
    mma layout (or a slice of one) moves past the ops after it that can
    compute in that layout with their other operands free to have there:
    elementwise ops, reductions (results in the slice), expand_dims,
    broadcast, local_alloc, and the values an scf.for carries (argument,
    init and result retyped), and a store whose pointer and mask are index
    arithmetic (it writes from the accumulator's registers) with
    stores-from-registers. Conversions back are left for each user that
    cannot; blkgpu-remove-layout-conversions folds what cancels.
  }];
  let options = [
    Option<"storesFromRegisters", "stores-from-registers", "bool", "false",
           "Move a conversion past a store whose pointer and mask are index "
           "arithmetic (blkc --stores-from-registers; off: 16-byte vectors "
           "after a trip through shared memory)">,
  ];
}

def WgmmaRegisterA : Pass<"blkgpu-wgmma-register-a", "mlir::func::FuncOp"> {
  let summary = "Read a wgmma's (or mma_sync's) A from registers already in its fragment layout";
  let description = [{
    Expects blkgpu IR after blkgpu-propagate-mma-layouts. A wgmma (mma_sync)
    whose A buffer is a local_alloc (its only use) of an f16 / bf16 block in
    the version-3 (version-2) #blkgpu.mma layout of the accumulator's warps,
    with one warpgroup (warp) along N and K a whole number of that layout's
    instructions, takes the block itself as A; the buffer goes.
  }];
}

def RemoveLayoutConversions
    : Pass<"blkgpu-remove-layout-conversions", "mlir::func::FuncOp"> {
  let summary = "Drop layout conversions that are not needed";
  let description = [{
    Expects blkgpu IR. Guarantees: no convert_layout of a convert_layout,
    none to the same type, none of a value that is cheap to recompute (index
    arithmetic from make_range / splat / constants: recomputed in the target
    layout instead). Dead pure ops are erased.
  }];
}

def ChooseSharedLayouts
    : Pass<"blkgpu-choose-shared-layouts", "mlir::func::FuncOp"> {
  let summary = "Pick the shared-memory layout of each move that needs one";
  let description = [{
    Expects blkgpu IR. Each move (broadcast, expand_dims, reshape, trans,
    convert_layout) that cannot stay in registers gets
    `blkgpu.scratch_layout = #blkgpu.shared<…>`: the row dim, padding and
    XOR swizzle whose stores and loads take the fewest shared-memory
    wavefronts, simulated for warp 0 on the host (SharedMemory.h). Moves
    that stay in registers get none.
  }];
}

def AllocateShared : Pass<"blkgpu-allocate-shared", "mlir::func::FuncOp"> {
  let summary = "Give each shared-memory user its offset";
  let description = [{
    Expects blkgpu IR after choose-shared-layouts. Every scratch user (see
    SharedMemory.h) gets `blkgpu.scratch_offset` (bytes, 16-aligned) and the
    func `blkgpu.shared_bytes`: the largest scratch, rounded to 16 (twice
    that when it is at most 1 KiB). A scratch lives only during its op, so
    users share the buffer; consecutive users are placed at alternate ends
    of it, so that two small ones do not overlap and need no barrier
    between them.
  }];
}

def InsertBarriers : Pass<"blkgpu-insert-barriers", "mlir::func::FuncOp"> {
  let summary = "Put bar.sync only where shared memory has a hazard";
  let description = [{
    Expects blkgpu IR after allocate-shared. Tracks, in program order
    through scf.for / scf.if / scf.while (to a fixpoint around loops), the
    shared-memory bytes read or written since the last barrier; inserts a
    `blkgpu.barrier` before a scratch user whose writes overlap them (a
    write-after-read or write-after-write hazard). A user's own
    write-then-read barrier is part of its lowering and clears every
    access before it.
  }];
  let dependentDialects = ["::blk::gpu::BlkGpuDialect"];
}

def DeferWgmmaWaits : Pass<"blkgpu-defer-wgmma-waits", "mlir::func::FuncOp"> {
  let summary = "Wait for each synchronous wgmma right before what needs it";
  let description = [{
    Expects blkgpu IR after blkgpu-insert-barriers. A wgmma with pending = 0
    gets pending = -1 (no wait where it is issued) and a wgmma_wait before
    the first op of its block that reads its result, or that may write
    shared memory (a barrier, a scratch user, a buffer store, an async
    copy, a region holding one or a wgmma, the terminator); the wait's
    `pending` is the number of wgmma groups the block issued after it, so
    two wgmmas issued back to back overlap the ops between the first one's
    reader and the second one's.
  }];
  let dependentDialects = ["::blk::gpu::BlkGpuDialect"];
}

def WarpGroupTurns : Pass<"blkgpu-warpgroup-turns", "mlir::func::FuncOp"> {
  let summary = "Consumer warpgroups take turns at attention's wgmmas";
  let description = [{
    Expects blkgpu IR after blkgpu-defer-wgmma-waits. In the consumer
    region of a blkgpu.warp_specialize with two or more consumer
    warpgroups, a loop whose body issues exactly two wgmmas, the second
    running on into the next iteration (pending = 1, yielded: attention's
    P·V after its Q·Kᵀ), gets blkgpu.turn_wait right before the second,
    blkgpu.turn_pass right after the first, a turn_wait of every warpgroup
    but the first right before the loop and a turn_pass of every
    warpgroup but the last right after it. Left alone when an op of a turn
    (body start to the first wgmma, the second wgmma to the body's end)
    may meet the other consumers at a barrier: that would deadlock.
  }];
  let dependentDialects = ["::blk::gpu::BlkGpuDialect"];
}

def LoopUnrollHints : Pass<"blkgpu-loop-unroll-hints", "mlir::func::FuncOp"> {
  let summary = "Runtime unroll counts for loops that stream global memory";
  let description = [{
    Expects blkgpu IR. Marks each scf.for of run-time trip count whose body
    only streams memory (no nested loop, reduction, scan, dot, atomic,
    conversion or print/assert: those synchronise the program) with
    `blkgpu.unroll = N`, N sized so one unrolled body loads about 64 bytes
    per thread (at most 4). The emitter turns it into
    `llvm.loop.unroll.count`.
  }];
}

#endif // BLK_DIALECT_BLKGPU_TRANSFORMS_PASSES_TD
