//===- PtxLink.h - one PTX module from kernels compiled apart ---*- C++ -*-===//
//
// The back end compiles each kernel as its own job (its own LLVMContext and
// LLVM module, on a worker thread), so each job's PTX defines one entry.
// linkPtx puts them together into the one PTX module per arch that the
// manifest and nvJitLink expect. It expects pieces from the same NVPTX
// target (identical `.version`/`.target`/`.address_size` directives) whose
// local symbols do not clash (the back end prefixes them with the entry);
// it guarantees every piece's definitions in order, each `.extern`
// declaration once. Tests: tests/unit/Target/PtxLinkTest.cpp,
// tests/lit/target/build-jobs.test (ptxas accepts the result).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TARGET_PTXLINK_H
#define BLK_TARGET_PTXLINK_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace blk::target {

/// One PTX module holding every definition of `pieces` (non-empty), in
/// order. Fails when the pieces' module directives differ, a piece has none,
/// or two pieces define the same symbol.
llvm::Expected<std::string> linkPtx(llvm::ArrayRef<std::string> pieces);

/// The banner and module directives of `ptx`, up to its `.address_size`
/// line: a module with nothing in it, for globals to be added to.
llvm::Expected<std::string> ptxModuleHead(llvm::StringRef ptx);

} // namespace blk::target

#endif // BLK_TARGET_PTXLINK_H
