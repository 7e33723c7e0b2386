//===- CudaToolkit.cpp - Locating the CUDA pieces blkc uses --------------===//
#include "blk/Target/CudaToolkit.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <cstdlib>

namespace blk::target {

static constexpr const char *kDefaultRoot = "/usr/local/cuda";

CudaToolkit CudaToolkit::fromCudaHome(const char *cudaHome) {
  if (cudaHome && *cudaHome)
    return {cudaHome, "CUDA_HOME"};
  return {kDefaultRoot, "default"};
}

CudaToolkit CudaToolkit::fromEnvironment() {
  return fromCudaHome(std::getenv("CUDA_HOME"));
}

static std::string joinPath(llvm::StringRef a, llvm::StringRef b, llvm::StringRef c) {
  llvm::SmallString<256> path(a);
  llvm::sys::path::append(path, b, c);
  return std::string(path);
}

std::vector<std::string> CudaToolkit::nvJitLinkCandidates() const {
  // CUDA 13 installs into lib64 (a link to lib on some layouts); 12.x keeps
  // the same soname scheme. The unversioned name is last: it exists only
  // with the development package.
  std::vector<std::string> paths;
  for (const char *dir : {"lib64", "lib"})
    for (const char *file : {"libnvJitLink.so.13", "libnvJitLink.so.12", "libnvJitLink.so"})
      paths.push_back(joinPath(root, dir, file));
  return paths;
}

llvm::Expected<std::string> CudaToolkit::findFatbinary() const {
  std::string path = joinPath(root, "bin", "fatbinary");
  if (llvm::sys::fs::can_execute(path))
    return path;
  return llvm::createStringError(
      "CUDA's `fatbinary` tool is needed to write a fatbin but was not found at `" +
      path + "` (CUDA toolkit root `" + root + "` from " + rootSource +
      "; set CUDA_HOME, or use --emit=ptx)");
}

std::string CudaToolkit::ptxasPath() const {
  std::string path = joinPath(root, "bin", "ptxas");
  return llvm::sys::fs::can_execute(path) ? path : std::string();
}

} // namespace blk::target
