//===- NvJitLink.h - PTX to cubin in process ------------------*- C++ -*-===//
//
// Wraps libnvJitLink, opened with dlopen at first use so that blkc has no
// link-time or load-time dependency on CUDA (`--emit=ptx` works without it).
// The info log of ptxas (`-verbose`) is parsed into per-entry resource usage.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TARGET_NVJITLINK_H
#define BLK_TARGET_NVJITLINK_H

#include "blk/Target/Arch.h"
#include "blk/Target/CudaToolkit.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace blk::target {

/// What ptxas reports for one kernel entry on one architecture.
struct EntryResources {
  std::string entry;
  unsigned registers = 0;
  unsigned stackFrame = 0;  ///< Bytes of local memory per thread (spills included).
  unsigned spillStores = 0; ///< Bytes.
  unsigned spillLoads = 0;  ///< Bytes.
  unsigned sharedBytes = 0; ///< Static shared memory per program.
  unsigned barriers = 0;
  bool spillsKnown = false; ///< From ptxas's report (a cubin alone lacks them).
};

/// Parses the ptxas part of an nvJitLink `-verbose` info log (spillsKnown set).
std::vector<EntryResources> parsePtxasInfoLog(llvm::StringRef log);

/// One compiled architecture.
struct Cubin {
  std::vector<uint8_t> image;
  std::string infoLog;
  std::vector<EntryResources> resources;
};

/// A loaded libnvJitLink. Not thread-safe per instance (one link at a time).
/// The toolkit's `ptxas` executable in whole-program mode, for a PTX module
/// nvJitLink would compile wrongly: nvJitLink compiles PTX as relocatable
/// code, where ptxas ignores `setmaxnreg` when it allocates registers, so a
/// warp-specialised kernel's consumers would spill at the launch's cap
/// (168 per thread for 384 threads) instead of using the registers the
/// producer warpgroup gave them. Same report as NvJitLink::compile.
llvm::Expected<Cubin> compileWholeProgram(const CudaToolkit &toolkit, llvm::StringRef ptx,
                                          const GpuArch &arch, unsigned optLevel,
                                          bool lineInfo = false);

class NvJitLink {
public:
  ~NvJitLink();
  NvJitLink(const NvJitLink &) = delete;
  NvJitLink &operator=(const NvJitLink &) = delete;

  /// Opens libnvJitLink from the toolkit, or fails naming every path tried.
  static llvm::Expected<std::unique_ptr<NvJitLink>> load(const CudaToolkit &toolkit);

  /// Compiles PTX text for `arch` at blkc's optimisation level `optLevel`
  /// (0..3; nvJitLink accepts only -O0 and -O3, so 1 and 2 reach it as -O3),
  /// on up to `threads` threads (ptxas's split compilation: the
  /// functions are compiled apart; 1 is serial), with `-lineinfo` when
  /// `lineInfo` (the PTX's `.loc` lines kept for profilers). A ptxas error
  /// comes back with its error log.
  llvm::Expected<Cubin> compile(llvm::StringRef ptx, const GpuArch &arch, unsigned optLevel,
                                unsigned threads = 1, bool lineInfo = false) const;
  /// The same for several PTX modules, each compiled by ptxas on its own
  /// and linked into one cubin (none may reference another's symbols).
  llvm::Expected<Cubin> compileModules(llvm::ArrayRef<std::string> modules,
                                       const GpuArch &arch, unsigned optLevel,
                                       unsigned threads = 1, bool lineInfo = false) const;

  /// The library file that was opened.
  const std::string &libraryPath() const { return path; }

  struct Api; // Function pointers resolved with dlsym.

private:
  NvJitLink() = default;
  void *handle = nullptr;
  std::string path;
  std::unique_ptr<Api> api;
};

} // namespace blk::target

#endif // BLK_TARGET_NVJITLINK_H
