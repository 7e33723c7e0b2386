//===- Inspect.h - `blkc inspect`: describe a blk artifact ----*- C++ -*-===//
//
// Reads a fatbin with the runtime's driver-free reader (blkrt_artifact:
// runtime/include/blk/runtime/FatbinReader.h, Manifest.h) and prints its
// manifest, the device images it holds and, per cubin, the registers, local
// memory (stack, spills included) and shared memory of every entry.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TARGET_INSPECT_H
#define BLK_TARGET_INSPECT_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

namespace blk::target {

/// Options of inspectArtifact.
struct InspectOptions {
  bool rawJson = false; ///< Print the manifest JSON as stored, nothing else.
};

/// Describes the artifact at `path` on `out`. A file that cannot be read, is
/// not a fatbin, is truncated or has no (valid) manifest is an error naming
/// the file and the problem; nothing is printed then.
llvm::Error inspectArtifact(llvm::StringRef path, llvm::raw_ostream &out,
                            const InspectOptions &options = {});

/// inspectArtifact on the artifact's bytes, already in memory; `path` only
/// names it in the output and in errors (the artifact fuzzer's entry point:
/// fuzz/ArtifactCheck.cpp).
llvm::Error inspectArtifactBytes(llvm::ArrayRef<uint8_t> bytes, llvm::StringRef path,
                                 llvm::raw_ostream &out, const InspectOptions &options = {});

} // namespace blk::target

#endif // BLK_TARGET_INSPECT_H
