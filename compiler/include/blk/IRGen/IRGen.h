//===- IRGen.h - checked AST to blk IR --------------------------*- C++ -*-===//
//
// Lowers Sema's result to the blk dialect (docs/ir.md): one func.func per
// error-free specialisation, fn calls inlined, `var`s as scf iter_args /
// results, explicit broadcasting, a FileLineColLoc on every op, and the
// attributes the manifest is built from. IRGen reports no user errors:
// Sema has checked everything; a broken invariant is an internal compiler
// error naming the "IRGen" stage.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_IRGEN_IRGEN_H
#define BLK_IRGEN_IRGEN_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OwningOpRef.h"

#include <string>

namespace blk {
class SourceManager;
namespace sema {
class SemaResult;
} // namespace sema

/// What IRGen records on the module besides the kernels.
struct IRGenOptions {
  /// `blk.source`: the path of the main file as given to the compiler.
  std::string sourcePath;
  /// `blk.source_hash`, e.g. "fnv1a64:0123456789abcdef".
  std::string sourceHash;
};

/// Lowers every specialisation without errors of every kernel in `result`
/// into a new module. Loads the dialects it needs into `context`.
mlir::OwningOpRef<mlir::ModuleOp> generateIR(mlir::MLIRContext &context,
                                             const sema::SemaResult &result,
                                             const SourceManager &sm,
                                             const IRGenOptions &options);

/// "fnv1a64:<16 hex digits>" of `text` (the manifest's source_hash).
std::string hashSource(std::string_view text);

} // namespace blk

#endif // BLK_IRGEN_IRGEN_H
