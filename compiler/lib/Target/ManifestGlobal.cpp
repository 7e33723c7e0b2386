//===- ManifestGlobal.cpp - Embedding the manifest in the LLVM module ----===//
//
// The manifest becomes `.visible .global .align 1 .b8 __blk_manifest[N]` in
// the PTX. External linkage plus llvm.used keep LLVM from dropping it, and a
// visible symbol keeps ptxas/nvJitLink from dropping it from the cubin, where
// runtime/src/FatbinReader.cpp looks for it (docs/manifest.md).
//
//===----------------------------------------------------------------------===//
#include "blk/Target/Manifest.h"

#include "llvm/IR/Constants.h"
#include "llvm/IR/GlobalVariable.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

namespace blk::target {

// NVPTX address space of global memory.
static constexpr unsigned kGlobalAddressSpace = 1;

llvm::GlobalVariable *addManifestGlobal(llvm::Module &module, llvm::StringRef json) {
  llvm::Constant *bytes = llvm::ConstantDataArray::getString(
      module.getContext(), json, /*AddNull=*/false);
  auto *global = new llvm::GlobalVariable(
      module, bytes->getType(), /*isConstant=*/true, llvm::GlobalValue::ExternalLinkage,
      bytes, kManifestSymbol, /*InsertBefore=*/nullptr,
      llvm::GlobalValue::NotThreadLocal, kGlobalAddressSpace);
  global->setAlignment(llvm::Align(1));
  llvm::appendToUsed(module, {global});
  return global;
}

} // namespace blk::target
