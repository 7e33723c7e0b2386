//===- Analysis.cpp - One check of an open document -----------------------===//
//
// Runs the Driver's Frontend (the same parse + Sema as `blkc check`) on the
// buffer's text through Frontend::addBuffer, and keeps the Frontend alive so
// hover, definition and completion can read its AST and Sema facts.
//
//===----------------------------------------------------------------------===//

#include "blk/Lsp/Analysis.h"

#include "blk/Driver/Frontend.h"
#include "blk/Lsp/Uri.h"

namespace blk::lsp {

struct Analysis::Impl {
  explicit Impl(FrontendOptions options) : frontend(std::move(options)) {}
  Frontend frontend;
};

Analysis::~Analysis() = default;

const SourceManager &Analysis::sourceManager() const {
  return impl->frontend.getSourceManager();
}

std::string_view Analysis::text() const {
  return sourceManager().getText(mainFile);
}

const LineIndex &Analysis::lineIndex(FileId file) const {
  if (file == 0 || file > sourceManager().numFiles())
    file = mainFile;
  if (indexes.size() < file)
    indexes.resize(file);
  std::unique_ptr<LineIndex> &slot = indexes[file - 1];
  if (!slot)
    slot = std::make_unique<LineIndex>(sourceManager().getText(file));
  return *slot;
}

std::vector<std::string> Analysis::importedPaths() const {
  std::vector<std::string> paths;
  const SourceManager &sm = sourceManager();
  for (FileId file = 1; file <= sm.numFiles(); ++file)
    if (file != mainFile)
      paths.push_back(canonicalPath(sm.getPath(file)));
  return paths;
}

std::unique_ptr<Analysis> analyzeBuffer(const std::string &path,
                                        std::string text,
                                        const AnalysisOptions &options) {
  FrontendOptions feOptions;
  feOptions.defines = options.defines;
  feOptions.includeDirs = options.includeDirs;
  feOptions.stdlibDirs = options.stdlibDirs;
  feOptions.binDir = options.binDir;
  feOptions.readImport = options.readImport;
  // An editor shows every problem, not the first 20.
  feOptions.maxErrors = 0;
  // Hover and definition keep working in the declarations that parse while
  // another one is half-typed.
  feOptions.parse.keepValidDecls = true;

  auto analysis = std::make_unique<Analysis>();
  analysis->impl = std::make_unique<Analysis::Impl>(std::move(feOptions));
  Frontend &fe = analysis->impl->frontend;
  analysis->mainFile = fe.addBuffer(path, std::move(text));
  fe.process(analysis->mainFile);
  analysis->module = fe.getModule(analysis->mainFile);
  analysis->sema = fe.getSemaResult(analysis->mainFile);
  analysis->diagnostics = fe.getDiagnostics().getDiagnostics();
  return analysis;
}

} // namespace blk::lsp
