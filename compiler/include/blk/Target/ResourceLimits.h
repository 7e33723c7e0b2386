//===- ResourceLimits.h - configs left out of an artifact -------*- C++ -*-===//
//
// An autotuning sweep lists configs of which some may not fit the target
// (shared memory over the per-block limit, registers x threads over one
// SM's register file, an entry ptxas rejects). `blkc build` leaves those out
// of the PTX, the cubins and the manifest and warns, naming the kernel and
// the config; only a kernel with no config left is an error. One manifest
// serves every image, so an entry that does not fit one --arch is left out
// of all. Tests: tests/lit/target/build-resource-limits.test.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TARGET_RESOURCELIMITS_H
#define BLK_TARGET_RESOURCELIMITS_H

#include "blk/Target/GpuTarget.h"
#include "blk/Target/NvJitLink.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
namespace func {
class FuncOp;
} // namespace func
} // namespace mlir

namespace blk::target {

/// One entry left out, and why.
struct Omission {
  std::string entry;  ///< mangled func name
  std::string reason; ///< "needs N bytes of shared memory, sm_90 allows M"
};

/// "matmul BM=256 BN=256 num_warps=8" for a kernel func: its const
/// parameters in declaration order, then num_warps (and, for a value
/// variant, its entry), as messages and progress lines name configs.
std::string describeConfig(mlir::func::FuncOp func);

/// Whether `threads` threads using `registers` registers each fit the
/// register file of one SM (allocated per warp in units of 256).
bool fitsRegisterFile(unsigned registers, unsigned threads, const GpuTarget &target);

/// The entries among `kernels` (PTX each defining entry `entries[i]` alone)
/// that ptxas rejects for `arch`, each with ptxas's first error line: when
/// it rejects the PTX of every kernel together, the build goes on without
/// those.
std::vector<Omission> findRejectedEntries(const NvJitLink &jit,
                                          llvm::ArrayRef<std::string> entries,
                                          llvm::ArrayRef<std::string> kernels,
                                          const GpuArch &arch, unsigned optLevel);

/// The entries left out of one build, in the order they were found.
class OmittedEntries {
public:
  /// Records `entry` (once; a later reason for the same entry is dropped).
  void add(llvm::StringRef entry, const std::string &reason);
  bool contains(llvm::StringRef entry) const { return names.contains(entry); }
  bool empty() const { return list.empty(); }
  size_t size() const { return list.size(); }
  const llvm::StringSet<> &entries() const { return names; }

  /// Also leaves out the value variants (`blk.variant_of`) of every entry
  /// left out: they are listed under it in the manifest.
  void addVariants(mlir::ModuleOp module);

  /// One message per entry left out (value variants of an entry left out
  /// are not repeated): "kernel `matmul` config BM=256 BN=256 BK=128
  /// num_warps=8: needs 263168 bytes of shared memory, sm_90 allows 232448".
  std::vector<std::string> messages(mlir::ModuleOp module) const;

  /// Fails naming the first kernel all of whose configs were left out.
  llvm::Error checkEveryKernelKept(mlir::ModuleOp module) const;

private:
  llvm::StringSet<> names;
  std::vector<Omission> list;
};

} // namespace blk::target

#endif // BLK_TARGET_RESOURCELIMITS_H
