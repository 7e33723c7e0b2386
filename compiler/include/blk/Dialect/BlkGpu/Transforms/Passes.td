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

def AnnotateAccessHints : Pass<"blkgpu-annotate-access-hints", "mlir::func::FuncOp"> {
  let summary = "Record axis-info facts on every block memory op";
  let description = [{
    Expects layout-free blk IR. Runs `blk::AxisInfoAnalysis` and records on
    each load/store/atomic whose pointer is a block: `blkgpu.contiguity`,
    `blkgpu.align` (bytes) and `blkgpu.mask_constancy`, one entry per dim,
    so that coalescing and the emitter use the same proven facts after
    layouts make the analysis inapplicable.
  }];
}

def Coalesce : Pass<"blkgpu-coalesce", "mlir::func::FuncOp"> {
  let summary = "Choose the coalesced, vectorised layout of each memory op";
  let description = [{
    Expects access hints. Gives each block load/store/atomic a
    `blkgpu.layout` attribute: a blocked layout whose order starts at the
    most contiguous dim, with up to 16 bytes per thread there (contiguity
    permitting, and no idle threads). Atomics stay scalar. The IR's types
    are not changed: assign-layouts applies the choice.
  }];
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
