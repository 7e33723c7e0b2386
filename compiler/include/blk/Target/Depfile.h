//===- Depfile.h - Make-style dependency files ----------------*- C++ -*-===//
#ifndef BLK_TARGET_DEPFILE_H
#define BLK_TARGET_DEPFILE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace blk::target {

/// The text of a Make-style depfile: `target: dep1 dep2 ...`, one dependency
/// per continuation line, with spaces, `#` and `$` escaped the way GNU Make
/// and Ninja read them. Duplicate dependencies are listed once.
std::string formatDepfile(llvm::StringRef target, llvm::ArrayRef<std::string> deps);

/// Writes formatDepfile() to `path`.
llvm::Error writeDepfile(llvm::StringRef path, llvm::StringRef target,
                         llvm::ArrayRef<std::string> deps);

} // namespace blk::target

#endif // BLK_TARGET_DEPFILE_H
