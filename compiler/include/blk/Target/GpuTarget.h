//===- GpuTarget.h - what the back end may use on one GPU -------*- C++ -*-===//
//
// One object per compilation, built from the validated --arch and handed to
// the blkgpu passes and the emitter, so that no pass re-parses an arch
// string to decide what the hardware has.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TARGET_GPUTARGET_H
#define BLK_TARGET_GPUTARGET_H

#include "llvm/ADT/StringRef.h"

#include <string>

namespace blk {

/// The facts about a target GPU that code generation depends on.
struct GpuTarget {
  std::string arch = "sm_90"; ///< LLVM CPU / ptxas name, e.g. `sm_90a`
  unsigned smVersion = 90;    ///< 90 for sm_90 and sm_90a
  bool archSpecific = false;  ///< the `a` suffix (wgmma, setmaxnreg)
  unsigned ptxVersion = 80;   ///< PTX ISA as a number: 80 = `.version 8.0`
  /// Shared memory one program may use with the opt-in (bytes).
  unsigned maxSharedPerBlock = 227 * 1024;
  /// Largest static shared allocation; above it the kernel uses dynamic
  /// shared memory and the launch opts in.
  unsigned maxStaticShared = 48 * 1024;
  /// 32-bit registers of one SM, and the most one thread may use.
  unsigned registersPerSm = 64 * 1024;
  unsigned maxRegistersPerThread = 255;

  bool hasCpAsync() const { return smVersion >= 80; }
  bool hasMmaSync() const { return smVersion >= 80; }
  bool hasTma() const { return smVersion >= 90; }
  bool hasWgmma() const { return smVersion == 90 && archSpecific; }
  /// setmaxnreg (warp specialisation's register split): sm_90a.
  bool hasSetMaxNReg() const { return smVersion == 90 && archSpecific; }
  /// `cvt` to and from e4m3x2 / e5m2x2. sm_89 has it too, but only from
  /// PTX 8.1, newer than the ISA blk targets there (ptxas rejects it).
  bool hasFp8Convert() const { return smVersion >= 90; }

  /// The target for an --arch name blkc has already validated (see
  /// target::lookupArch); unknown names get sm_90's limits.
  static GpuTarget fromArch(llvm::StringRef arch, unsigned ptxVersion);
};

} // namespace blk

#endif // BLK_TARGET_GPUTARGET_H
