//===- Passes.h - blk passes ------------------------------------*- C++ -*-===//
#ifndef BLK_TRANSFORMS_PASSES_H
#define BLK_TRANSFORMS_PASSES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

#include <memory>

namespace blk {

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "blk/Transforms/Passes.h.inc"

/// Registers the blk passes, the standard passes the pipeline uses
/// (inline, canonicalize, cse, sccp, loop-invariant-code-motion,
/// symbol-dce) and the `blk-optimize` pipeline with the global registry.
void registerBlkPasses();

} // namespace blk

#endif // BLK_TRANSFORMS_PASSES_H
