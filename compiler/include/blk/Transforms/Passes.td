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

#endif // BLK_TRANSFORMS_PASSES_TD
