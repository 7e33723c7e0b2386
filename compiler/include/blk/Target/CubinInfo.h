//===- CubinInfo.h - Resource usage read back from a cubin ----*- C++ -*-===//
//
// `blkc inspect` reports registers, stack and shared memory per entry for
// each architecture of a fatbin. ptxas records them in the cubin itself (the
// `.nv.info` attribute section and `.nv.shared.<entry>` sections), so they
// are read from there rather than stored twice.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TARGET_CUBININFO_H
#define BLK_TARGET_CUBININFO_H

#include "blk/Target/NvJitLink.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <vector>

namespace blk::target {

/// Resource usage of every function of a cubin that has a register count:
/// registers, stackFrame (per-thread local memory, spills included) and
/// sharedBytes (static). Spill byte counts are not recorded in a cubin and
/// stay 0. Fails on a malformed ELF.
llvm::Expected<std::vector<EntryResources>> readCubinResources(llvm::ArrayRef<uint8_t> cubin);

} // namespace blk::target

#endif // BLK_TARGET_CUBININFO_H
