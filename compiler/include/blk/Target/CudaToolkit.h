//===- CudaToolkit.h - Locating the CUDA pieces blkc uses -----*- C++ -*-===//
//
// blkc needs two parts of the CUDA toolkit, and only to go past PTX:
// libnvJitLink (PTX -> cubin, loaded with dlopen so that blkc starts and emits
// PTX on a machine without CUDA) and the `fatbinary` tool. Both are found
// through CUDA_HOME (default /usr/local/cuda); every failure names each path
// that was tried.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TARGET_CUDATOOLKIT_H
#define BLK_TARGET_CUDATOOLKIT_H

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace blk::target {

/// Where the CUDA toolkit is, and how it was chosen.
struct CudaToolkit {
  std::string root;       ///< $CUDA_HOME, else /usr/local/cuda.
  std::string rootSource; ///< "CUDA_HOME" or "default", for messages.

  /// The toolkit named by `cudaHome` (the value of $CUDA_HOME, may be empty).
  static CudaToolkit fromCudaHome(const char *cudaHome);
  /// The toolkit named by the environment of this process.
  static CudaToolkit fromEnvironment();

  /// Candidate files for libnvJitLink, most specific first.
  std::vector<std::string> nvJitLinkCandidates() const;
  /// Path of the `fatbinary` executable, or an error naming where it looked.
  llvm::Expected<std::string> findFatbinary() const;
  /// Path of `ptxas` (used by tests and `blkc build -v` only), if present.
  std::string ptxasPath() const;
};

} // namespace blk::target

#endif // BLK_TARGET_CUDATOOLKIT_H
