//===- NativeArch.h - `--arch native`: the archs of this machine's GPUs -*- C++ -*-===//
//
// `blkc build --arch native` asks the CUDA driver (libcuda.so.1, opened with
// dlopen: blkc never links it) for each GPU's compute capability and builds
// for the archs those GPUs load (archForCapability). Without a driver or a
// GPU it builds for kNativeFallbackArchs and says so on stderr, so that a
// build machine without a GPU still produces a fatbin for common GPUs.
// Tests: tests/unit/Target/ArchTest.cpp (the mapping),
// tests/lit/target/build-arch-native.test (the fallback, the fake driver).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TARGET_NATIVEARCH_H
#define BLK_TARGET_NATIVEARCH_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace blk::target {

/// The `--arch` value that `native` stands for, and why.
struct NativeArchs {
  std::string archs;              ///< An --arch list: `sm_90a`, `sm_80,sm_90`.
  std::vector<std::string> notes; ///< What the user should know (a fallback, a GPU left out).
};

/// The archs the GPUs that `driverLibrary` reports need. Without the driver
/// or a GPU: kNativeFallbackArchs and a note saying why. Fails only when
/// every GPU is older than the oldest arch blk supports.
llvm::Expected<NativeArchs> queryNativeArchs(const std::string &driverLibrary);

/// Replaces `arch` by what it stands for when it is `native`, printing the
/// notes as `blkc: note: ...` to `notes`; any other value is left alone.
llvm::Error resolveNativeArch(std::string &arch, const std::string &driverLibrary,
                              llvm::raw_ostream &notes);

} // namespace blk::target

#endif // BLK_TARGET_NATIVEARCH_H
