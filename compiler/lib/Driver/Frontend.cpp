//===- Frontend.cpp - Load, parse and analyse blk sources -----------------===//
#include "blk/Driver/Frontend.h"

#include "blk/Parse/Parser.h"

#if BLK_HAVE_SEMA
#include "blk/Sema/ModuleSearch.h"
#include "blk/Sema/Sema.h"
#endif

using namespace blk;

#if !BLK_HAVE_SEMA
namespace blk::sema {
class SemaResult {};
} // namespace blk::sema
#endif

Frontend::Frontend(FrontendOptions opts) : options(std::move(opts)), diags(sm) {
  diags.setMaxErrors(options.maxErrors);
  diags.setWarningsAsErrors(options.warningsAsErrors);
}

Frontend::~Frontend() = default;

bool Frontend::hasSema() { return BLK_HAVE_SEMA; }

FileId Frontend::loadFile(const std::string &path, std::string &error) {
  return sm.loadFile(path, error);
}

FileId Frontend::addBuffer(std::string path, std::string text) {
  return sm.addBuffer(std::move(path), std::move(text));
}

const ast::Module *Frontend::parse(FileId file) {
  auto it = modules.find(file);
  if (it != modules.end())
    return it->second.get();
  std::unique_ptr<ast::Module> module = parseModule(file, diags, options.parse);
  const ast::Module *raw = module.get();
  modules[file] = std::move(module);
  return raw;
}

const ast::Module *Frontend::loadImport(const std::string &path) {
  FileId file = sm.findFile(path);
  if (!file && options.readImport)
    if (std::optional<std::string> text = options.readImport(path))
      file = sm.addBuffer(path, std::move(*text));
  if (!file) {
    std::string error;
    file = sm.loadFile(path, error);
    if (!file) {
      diags.report(DiagId::driver_cannot_read_import, SourceRange(), {error});
      return nullptr;
    }
  }
  return parse(file);
}

bool Frontend::process(FileId file) {
  unsigned errorsBefore = diags.getErrorCount();
  const ast::Module *module = parse(file);
  if (!module || !options.runSema)
    return diags.getErrorCount() == errorsBefore && module;
  runSema(file, *module, options.keptKernelDiagnostics, options.kernelAnalyzed);
  return diags.getErrorCount() == errorsBefore && !diags.limitReached();
}

void Frontend::runSema(FileId file, const ast::Module &module, KeptKernelFn kept,
                       KernelAnalyzedFn analysed) {
#if BLK_HAVE_SEMA
  sema::SemaOptions semaOptions;
  semaOptions.defines = options.defines;
  semaOptions.includeDirs = options.includeDirs;
  semaOptions.oldestArch = options.oldestArch;
  semaOptions.oldestSm = options.oldestSm;
  semaOptions.stdlibDirs = options.stdlibDirs.empty()
                               ? sema::defaultStdlibDirs(options.binDir)
                               : options.stdlibDirs;
  semaOptions.loadModule = [this](const std::string &path) {
    return loadImport(path);
  };
  semaOptions.keptKernelDiagnostics = std::move(kept);
  semaOptions.kernelAnalyzed = std::move(analysed);
  results[file] = sema::analyze(module, semaOptions, diags);
#else
  (void)file, (void)module, (void)kept, (void)analysed;
#endif
}

void Frontend::adoptModule(FileId file, std::unique_ptr<ast::Module> module) {
  modules[file] = std::move(module);
}

std::unique_ptr<ast::Module> Frontend::releaseModule(FileId file) {
  auto it = modules.find(file);
  if (it == modules.end())
    return nullptr;
  std::unique_ptr<ast::Module> module = std::move(it->second);
  modules.erase(it);
  return module;
}

void Frontend::rerunSema(FileId file,
                         std::function<bool(const ast::FunctionDecl &kernel)> analyseKernel) {
  const ast::Module *module = getModule(file);
  if (!module)
    return;
  KeptKernelFn kept;
  if (analyseKernel) {
    // A kernel left out is "kept" with no diagnostics: Sema skips it.
    static const std::vector<Diagnostic> kNone;
    kept = [&analyseKernel](const ast::FunctionDecl &kernel) -> const std::vector<Diagnostic> * {
      return analyseKernel(kernel) ? nullptr : &kNone;
    };
  }
  runSema(file, *module, std::move(kept), nullptr);
}

const ast::Module *Frontend::getModule(FileId file) const {
  auto it = modules.find(file);
  return it == modules.end() ? nullptr : it->second.get();
}

const sema::SemaResult *Frontend::getSemaResult(FileId file) const {
  auto it = results.find(file);
  return it == results.end() ? nullptr : it->second.get();
}
