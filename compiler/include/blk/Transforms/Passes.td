//===- Passes.td - blk passes -------------------------------*- tablegen -*-===//
//
// The blk-specific passes. The optimisation pipeline itself reuses MLIR's
// inline, canonicalize, cse, sccp, loop-invariant-code-motion and
// symbol-dce (see Pipeline.h).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TRANSFORMS_PASSES_TD
#define BLK_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TestPrintAxisInfo : Pass<"blk-test-print-axis-info", "mlir::ModuleOp"> {
  let summary = "Print the axis info lattice of every integer and pointer value";
  let description = [{
    Runs `blk::AxisInfoAnalysis` over the module and emits one remark per
    integer or pointer result (and per kernel argument, on the function):
    `contiguity = [..], divisibility = [..], constancy = [..]`, plus
    `constant = c` when known. Tests check the remarks with
    `--verify-diagnostics`.
  }];
}

def TestPrintPointerAccess : Pass<"blk-test-print-pointer-access", "mlir::ModuleOp"> {
  let summary = "Print what each kernel does to each pointer argument's memory";
  let description = [{
    Runs `blk::analyzePointerAccess` on every func and emits one remark per
    pointer argument, on the function: `arg N: none|read|write|readwrite|atomic`
    (the manifest's `access`). Tests check the remarks with
    `--verify-diagnostics`.
  }];
}

def UnrollStaticLoops : Pass<"blk-unroll-static-loops", "mlir::ModuleOp"> {
  let summary = "Fully unroll the loops of `for … in static_range(…)`";
  let description = [{
    IRGen marks the scf.for of a `static_range` loop with `blk.unroll`; this
    pass replaces each such loop by one copy of its body per iteration (the
    bounds are compile-time constants, checked by Sema), so every copy sees
    its induction variable as a constant. Loops with `break`/`continue`
    become scf.while and are not marked.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::scf::SCFDialect"];
}

def MakePersistent : Pass<"blk-make-persistent", "mlir::ModuleOp"> {
  let summary = "Make each program of a `persistent` config walk the `@grid`'s programs";
  let description = [{
    A func marked `blk.persistent` (a `@config(…, persistent = true)`,
    blk/Support/Persistent.h) is launched with fewer programs than its
    one-axis `@grid` (`blk.grid`) asks for. This pass computes that count
    from the arguments at the start of the body, as the runtime does, and
    puts the body in `scf.for %pid = program_id(0) to count step
    num_programs(0)`; in it, `program_id(0)` is %pid and `num_programs(0)`
    the count, so the body computes what the program %pid of the full grid
    would. A `return` of the kernel has already become structured control
    flow (IRGen): it ends this iteration.
  }];
  let dependentDialects = ["mlir::arith::ArithDialect", "mlir::scf::SCFDialect"];
}

#endif // BLK_TRANSFORMS_PASSES_TD
