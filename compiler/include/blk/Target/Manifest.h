//===- Manifest.h - The artifact manifest from the blk IR -----*- C++ -*-===//
//
// Builds the manifest JSON of docs/manifest.md (schema 1) from the module and
// func attributes that IRGen attaches (docs/ir.md, "Kernels"), plus the shared
// memory per entry that only the backend knows. The manifest travels in every
// device image as the global byte array `__blk_manifest`.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TARGET_MANIFEST_H
#define BLK_TARGET_MANIFEST_H

#include "blk/Support/PrefixMap.h"
#include "blk/Target/Tuning.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace mlir {
class ModuleOp;
} // namespace mlir

namespace blk::target {

/// Version of the manifest schema written by this compiler.
constexpr int kManifestSchema = 1;

/// Name of the global holding the manifest in every device image.
constexpr llvm::StringLiteral kManifestSymbol = "__blk_manifest";

/// One tensor map of an entry (docs/manifest.md, "Tensor maps"): a
/// hidden kernel parameter libblkrt encodes at launch. Dims, strides and
/// box innermost first, as cuTensorMapEncodeTiled takes them.
struct TensorMapEntry {
  unsigned param = 0;   ///< the base pointer's parameter
  std::string elem;     ///< its element type name ("f16")
  std::vector<std::string> dims, strides; ///< grid expressions (JSON text)
  std::vector<int64_t> box;
  unsigned swizzle = 0;
  bool operator==(const TensorMapEntry &) const = default;
};

/// Shared memory of one specialisation, in bytes per program.
struct EntrySharedMemory {
  unsigned staticBytes = 0;
  unsigned dynamicBytes = 0;
};

/// What the manifest needs besides the IR.
struct ManifestOptions {
  std::vector<std::string> archs;  ///< `--arch` names, oldest first.
  std::string compiler;            ///< "blkc 0.1.0"; empty means this build's.
  llvm::StringMap<EntrySharedMemory> shared; ///< Per mangled entry; absent = 0.
  /// Per mangled entry, its tensor maps; absent = none.
  llvm::StringMap<std::vector<TensorMapEntry>> tensorMaps;
  /// Entries left out of the artifact (ResourceLimits.h); the manifest does
  /// not list them. A value variant must be left out with its specialisation.
  llvm::StringSet<> omit;
  /// `--prefix-map`: rewrites `source` (the main file as given).
  PrefixMap prefixMap;
  /// Per mangled entry, its PTX for every arch (oldest first): each
  /// specialisation's `code_hash` hashes its entries' code. Empty: no
  /// `code_hash` (a manifest built without the backend, as in unit tests).
  llvm::StringMap<std::string> entryCode;
  /// `--tuning` tables, checked against the kernels and embedded as
  /// `tuning` (Tuning.h): an entry that does not fit fails the build.
  std::vector<TuningTable> tuning;
  /// Where a table's warnings go (a timing measured on other code); null:
  /// dropped.
  std::vector<std::string> *warnings = nullptr;
};

/// Builds the manifest of every `blk.kernel` func in `module` (the blk-level
/// module, after the blk passes) but those in `options.omit`. Fails when
/// IRGen's attributes are missing or malformed, naming the func and the
/// attribute, or when a tuning table's entry does not fit the kernels,
/// naming the table and the entry.
llvm::Expected<std::string> buildManifest(mlir::ModuleOp module,
                                          const ManifestOptions &options);

/// Returns `ptx` with the manifest defined right after its module
/// directives (`.version`, `.target`, `.address_size`) as
///   .visible .global .align 1 .b8 __blk_manifest[N] = {...};
/// (docs/manifest.md). It is added to the PTX text, not the LLVM module,
/// because the per-entry shared memory it records is known only once the
/// backend has produced the PTX. Fails when `ptx` has no `.address_size`.
llvm::Expected<std::string> embedManifestInPtx(llvm::StringRef ptx, llvm::StringRef json);

/// Like embedManifestInPtx for any byte array `symbol` (after a `// comment`).
llvm::Expected<std::string> embedByteArrayInPtx(llvm::StringRef ptx, llvm::StringRef symbol,
                                                llvm::StringRef bytes, llvm::StringRef comment);

/// The version string of this compiler ("blkc 0.1.0").
std::string compilerVersion();

} // namespace blk::target

#endif // BLK_TARGET_MANIFEST_H
