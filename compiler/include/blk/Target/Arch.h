//===- Arch.h - GPU architectures accepted by --arch ----------*- C++ -*-===//
//
// blkc validates `--arch` itself because LLVM's NVPTX backend silently falls
// back to a default CPU on an unknown name (docs/ARCHITECTURE.md).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TARGET_ARCH_H
#define BLK_TARGET_ARCH_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace blk::target {

/// One NVIDIA GPU architecture, e.g. `sm_90a`.
struct GpuArch {
  std::string name;       ///< `sm_90a`: the spelling of --arch, nvJitLink and LLVM.
  unsigned smVersion = 0; ///< 90 for sm_90 and sm_90a.
  bool archSpecific = false; ///< The `a` suffix: features without forward compatibility.
  unsigned minPtxVersion = 0; ///< Lowest PTX ISA (x10) that supports it: 78 = PTX 7.8.

  /// The value of fatbinary's `sm=` keyword: `90` or `90a`.
  std::string fatbinSm() const { return name.substr(3); }
  /// The LLVM NVPTX feature string enabling the PTX ISA this arch needs.
  std::string ptxFeature() const { return "+ptx" + std::to_string(minPtxVersion); }
};

/// Every architecture blkc compiles for, oldest first.
llvm::ArrayRef<GpuArch> validArchs();

/// The architecture used when `--arch` is not given.
constexpr llvm::StringLiteral kDefaultArch = "sm_90";

/// What `--arch native` builds for when it finds no GPU: cubins that load on
/// every Ampere, Ada and Hopper GPU (sm_80's on 8.x, sm_90's on 9.0).
constexpr llvm::StringLiteral kNativeFallbackArchs = "sm_80,sm_90";

/// `sm_80, sm_86, sm_89, sm_90, sm_90a`: the accepted names, for messages.
std::string validArchNames();

/// Looks up one architecture by name; nullptr when it is not supported.
const GpuArch *lookupArch(llvm::StringRef name);

/// The arch whose cubin a GPU of compute capability `major.minor` runs best:
/// the newest one of the same major with a minor no higher (cubins run on
/// later minors: 8.7 gets sm_86), the `a` variant only on its exact
/// capability (9.0 gets sm_90a: wgmma tensor cores, docs/language.md 10.8).
/// A GPU newer than every arch gets the newest portable one (sm_90), whose
/// PTX the driver compiles at load; nullptr for one older than sm_80.
const GpuArch *archForCapability(unsigned major, unsigned minor);

/// Parses a comma-separated `--arch` list (`sm_80,sm_90`). Duplicates are
/// dropped; the result is sorted oldest first so that `back()` is the newest
/// (whose PTX goes into the fatbin). Fails with a message naming the bad
/// value and the valid ones.
llvm::Expected<std::vector<GpuArch>> parseArchList(llvm::StringRef list);

} // namespace blk::target

#endif // BLK_TARGET_ARCH_H
