//===- GpuTarget.cpp - the facts of one target GPU ------------------------===//
#include "blk/Target/GpuTarget.h"

#include "blk/Target/Arch.h"

namespace blk {

/// Shared memory per program with the opt-in, from the CUDA programming
/// guide's table of compute capabilities.
static unsigned maxSharedFor(unsigned sm) {
  if (sm >= 90)
    return 227 * 1024;
  if (sm == 80 || sm == 87)
    return 163 * 1024;
  return 99 * 1024; // sm_86, sm_89
}

GpuTarget GpuTarget::fromArch(llvm::StringRef arch, unsigned ptxVersion) {
  GpuTarget t;
  t.arch = arch.str();
  t.ptxVersion = ptxVersion;
  if (const target::GpuArch *known = target::lookupArch(arch)) {
    t.smVersion = known->smVersion;
    t.archSpecific = known->archSpecific;
  }
  t.maxSharedPerBlock = maxSharedFor(t.smVersion);
  return t;
}

} // namespace blk
