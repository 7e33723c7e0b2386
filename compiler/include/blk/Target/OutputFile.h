//===- OutputFile.h - write a build output only when it changes -*- C++ -*-===//
//
// blkc leaves an output whose bytes are already on disk untouched, mtime
// included: a build system that compares times (Ninja's restat, which CMake
// turns on for custom commands) then does not recompile the host code that
// includes an unchanged launcher header. Test:
// tests/lit/target/build-unchanged-output.test.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TARGET_OUTPUTFILE_H
#define BLK_TARGET_OUTPUTFILE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

namespace blk::target {

/// Writes `bytes` to `path` unless the file already holds exactly them.
/// Errors read `cannot write `PATH`: REASON`.
llvm::Error writeFileIfChanged(llvm::StringRef path, llvm::StringRef bytes);

} // namespace blk::target

#endif // BLK_TARGET_OUTPUTFILE_H
