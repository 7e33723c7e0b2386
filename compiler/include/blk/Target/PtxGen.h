//===- PtxGen.h - LLVM module -> PTX ----------------------------*- C++ -*-===//
#ifndef BLK_TARGET_PTXGEN_H
#define BLK_TARGET_PTXGEN_H

#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>

namespace blk::gpu {

/// NVPTX TargetMachine for `arch` (e.g. sm_90) and PTX ISA `ptxVersion`
/// (80 = 8.0).
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createNvptxTargetMachine(const std::string &arch, unsigned ptxVersion,
                         unsigned optLevel);

/// Links libdevice when the module calls __nv_* functions, then internalizes
/// everything but the kernels and the module's external globals.
llvm::Error linkLibdevice(llvm::Module &module, const std::string &path);

/// LLVM's default O<optLevel> pipeline with the NVPTX callbacks (NVVMReflect…).
void optimizeModule(llvm::Module &module, llvm::TargetMachine &tm, unsigned optLevel);

/// PTX assembly of `module`.
llvm::Expected<std::string> emitPtx(llvm::Module &module, llvm::TargetMachine &tm);

} // namespace blk::gpu

#endif // BLK_TARGET_PTXGEN_H
