//===- Frontend.h - Load, parse and analyse blk sources --------*- C++ -*-===//
//
// The front-end entry point shared by every tool: owns the SourceManager,
// the DiagnosticEngine, the parsed modules (main files and imports) and
// Sema's results. Typical use:
//
//   blk::Frontend fe(options);
//   std::string error;
//   FileId file = fe.loadFile(path, error);   // 0: usage error, see `error`
//   bool ok = fe.process(file);                // parse + Sema
//   blk::renderText(fe.getDiagnostics().getDiagnostics(),
//   fe.getSourceManager(), std::cerr); const sema::SemaResult *result =
//   fe.getSemaResult(file);
//
//===----------------------------------------------------------------------===//
#ifndef BLK_DRIVER_FRONTEND_H
#define BLK_DRIVER_FRONTEND_H

#include "blk/AST/AST.h"
#include "blk/Driver/FrontendOptions.h"
#include "blk/Support/Diagnostic.h"
#include "blk/Support/SourceManager.h"

#include <functional>
#include <map>
#include <memory>
#include <string>

namespace blk::sema {
class SemaResult;
}

namespace blk {

/// One front-end session; files processed in it share diagnostics.
class Frontend {
public:
  explicit Frontend(FrontendOptions options = {});
  ~Frontend();
  Frontend(const Frontend &) = delete;
  Frontend &operator=(const Frontend &) = delete;

  SourceManager &getSourceManager() { return sm; }
  DiagnosticEngine &getDiagnostics() { return diags; }
  const FrontendOptions &getOptions() const { return options; }

  /// Reads `path` into the SourceManager. Returns 0 and sets `error` when
  /// it cannot be read (a usage error: there is no source to point at).
  FileId loadFile(const std::string &path, std::string &error);
  /// Adds an in-memory buffer (language server, tests, fuzzer).
  FileId addBuffer(std::string path, std::string text);

  /// Parses `file`, then (unless parsing failed or options.runSema is off)
  /// runs Sema on it. Returns false when any error has been reported.
  bool process(FileId file);

  /// Makes `module` the AST of `file`: process(file) then runs Sema on it
  /// without parsing (the language server parses pieces itself).
  void adoptModule(FileId file, std::unique_ptr<ast::Module> module);
  /// Takes the AST of `file` back (nullptr if none); Sema's results must
  /// not be read afterwards.
  std::unique_ptr<ast::Module> releaseModule(FileId file);
  /// Runs Sema on `file`'s AST again without the kernel-cache hooks, so
  /// every kernel gets its facts (only those `analyseKernel` accepts, when
  /// given); replaces getSemaResult(file). Its diagnostics are those of the
  /// first run (they are appended again).
  void rerunSema(FileId file,
                 std::function<bool(const ast::FunctionDecl &kernel)> analyseKernel = nullptr);

  /// The AST of `file` (main file or import); nullptr if not parsed or if
  /// parsing failed.
  const ast::Module *getModule(FileId file) const;
  /// Sema's result for main file `file`; nullptr if Sema did not run.
  const sema::SemaResult *getSemaResult(FileId file) const;
  /// True when this build of the compiler contains Sema.
  static bool hasSema();

private:
  const ast::Module *parse(FileId file);
  const ast::Module *loadImport(const std::string &path);
  using KeptKernelFn = decltype(FrontendOptions::keptKernelDiagnostics);
  using KernelAnalyzedFn = decltype(FrontendOptions::kernelAnalyzed);
  /// Sema on `module` with the kernel-cache hooks given (null: none).
  void runSema(FileId file, const ast::Module &module, KeptKernelFn kept,
               KernelAnalyzedFn analysed);

  FrontendOptions options;
  SourceManager sm;
  DiagnosticEngine diags;
  std::map<FileId, std::unique_ptr<ast::Module>> modules;
  std::map<FileId, std::unique_ptr<sema::SemaResult>> results;
};

} // namespace blk

#endif // BLK_DRIVER_FRONTEND_H
