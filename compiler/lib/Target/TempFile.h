//===- TempFile.h - temporary files for the toolkit's executables -*- C++ -*-===//
//
// The CUDA tools blkc runs as programs (fatbinary, ptxas) read and write
// files: these make them and remove them on every path out.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LIB_TARGET_TEMPFILE_H
#define BLK_LIB_TARGET_TEMPFILE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace blk::target {

/// Writes `bytes` to a new temporary file; its path goes into `path`.
llvm::Error writeTemp(llvm::StringRef suffix, llvm::ArrayRef<uint8_t> bytes,
                      llvm::SmallVectorImpl<char> &path);

/// Runs `tool` with `args` (args[0] is the tool) and stdout and stderr
/// into one log; an error with the log when it fails.
llvm::Expected<std::string> runTool(const std::string &tool, llvm::ArrayRef<std::string> args);

/// Temporary files removed when it goes out of scope.
struct TempFiles {
  std::vector<std::string> paths;
  ~TempFiles();
};

} // namespace blk::target

#endif // BLK_LIB_TARGET_TEMPFILE_H
