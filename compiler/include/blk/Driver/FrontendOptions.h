//===- FrontendOptions.h - Options of one front-end run --------*- C++ -*-===//
#ifndef BLK_DRIVER_FRONTENDOPTIONS_H
#define BLK_DRIVER_FRONTENDOPTIONS_H

#include "blk/Parse/Parser.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace blk {

/// What a tool (blkc check/build/run, the language server) asks of the
/// front end. Filled from command-line flags; passed on to Sema.
struct FrontendOptions {
  /// `-D NAME=VALUE`, in command-line order.
  std::vector<std::pair<std::string, std::string>> defines;
  /// `-I DIR`, in command-line order (import search path).
  std::vector<std::string> includeDirs;
  /// Standard library directories; empty means
  /// sema::defaultStdlibDirs(binDir) (see `binDir`).
  std::vector<std::string> stdlibDirs;
  /// Directory of the running compiler binary (for the stdlib lookup).
  std::string binDir;
  /// `--max-errors=N` (0: no limit).
  unsigned maxErrors = 20;
  /// `-Werror`.
  bool warningsAsErrors = false;
  /// The oldest `--arch` of a build (`sm_80`) and its SM version (80); empty
  /// and 0 when not building (check, run, the language server): what needs
  /// a newer GPU (fp8) is then reported at the source.
  std::string oldestArch;
  unsigned oldestSm = 0;
  /// Run Sema after parsing (off: parse only).
  bool runSema = true;
  /// Parser limits.
  ParseOptions parse;
  /// The text of an imported file when it is not the file on disk (the
  /// language server's open, unsaved buffers); nullopt reads the disk.
  std::function<std::optional<std::string>(const std::string &path)>
      readImport;
  /// The language server's kernel cache, passed to Sema (SemaOptions has
  /// the contract of both).
  std::function<const std::vector<Diagnostic> *(const ast::FunctionDecl &kernel)>
      keptKernelDiagnostics;
  std::function<void(const ast::FunctionDecl &kernel, std::vector<Diagnostic> diags)>
      kernelAnalyzed;
};

} // namespace blk

#endif // BLK_DRIVER_FRONTENDOPTIONS_H
