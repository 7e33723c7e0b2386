//===- Analysis.h - One check of an open document ---------------*- C++ -*-===//
//
// The language server's view of a compilation of one in-memory buffer: the
// same front end as `blkc check` (parse, imports, Sema for every
// specialisation), with everything kept alive for hover, definition and
// completion. Built from the buffer's text, never from the file on disk.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LSP_ANALYSIS_H
#define BLK_LSP_ANALYSIS_H

#include "blk/AST/AST.h"
#include "blk/Lsp/DeclCache.h"
#include "blk/Lsp/LineIndex.h"
#include "blk/Support/Diagnostic.h"
#include "blk/Support/SourceManager.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace blk::sema {
class SemaResult;
} // namespace blk::sema

namespace blk::lsp {

/// Options shared by every analysis of a server session.
struct AnalysisOptions {
  /// `-D NAME=VALUE` given to `blkc lsp`, in order.
  std::vector<std::pair<std::string, std::string>> defines;
  std::vector<std::string> includeDirs; ///< `-I` (the workspace root first)
  std::vector<std::string> stdlibDirs;  ///< searched after includeDirs
  /// Directory of the blkc binary (default stdlib lookup when stdlibDirs
  /// is empty).
  std::string binDir;
  /// The text of an imported file that is open in the editor (by its
  /// canonical path, see canonicalPath); nullopt reads the disk.
  std::function<std::optional<std::string>(const std::string &path)>
      readImport;
};

/// The result of checking one buffer. Owns the compilation (sources, AST,
/// Sema facts) so the features can read it until the next change.
class Analysis {
public:
  ~Analysis();
  /// The document's own buffer.
  FileId mainFile = 0;
  /// The parsed document; nullptr when it did not parse.
  const ast::Module *module = nullptr;
  /// Sema facts; nullptr when the document did not parse. Lacks the
  /// kernels whose diagnostics came from the cache until completeSema().
  const sema::SemaResult *sema = nullptr;
  /// Every diagnostic of the check, in order.
  std::vector<Diagnostic> diagnostics;

  const SourceManager &sourceManager() const;
  /// Position conversion for `file` (built on first use).
  const LineIndex &lineIndex(FileId file) const;
  /// The text of the document.
  std::string_view text() const;
  /// Canonical paths of every file this check read besides the document:
  /// its imports, transitively. A change to any of them invalidates it.
  std::vector<std::string> importedPaths() const;
  /// True while `sema` lacks kernels (their diagnostics were kept).
  bool semaIsPartial() const;
  /// Analyses every kernel (features other than diagnostics need their
  /// facts); `diagnostics` does not change.
  void completeSema();
  /// Makes `sema` hold the facts of every kernel that bytes [begin, end]
  /// of the document touch: a hover or inlay hints need only those. All
  /// kernels when they touch another declaration (a fn's facts come from
  /// the kernels calling it). Other kernels' facts may go.
  void completeSema(uint32_t begin, uint32_t end);
  /// Parses this version's pieces again into the cache, for the next
  /// version to take: the first check of a document has nothing to reuse
  /// from, and stays the last good one (its own pieces are not given back).
  void warmCache() const;

  /// Owner of the sources, ASTs and Sema facts (the Driver's state).
  struct Impl;
  std::unique_ptr<Impl> impl;

private:
  mutable std::vector<std::unique_ptr<LineIndex>> indexes; // by FileId - 1
  friend std::unique_ptr<Analysis> analyzeBuffer(const std::string &, std::string,
                                                 const AnalysisOptions &,
                                                 std::shared_ptr<DeclCache>);
  /// Where this analysis's pieces go back when it is destroyed (may be null).
  std::shared_ptr<DeclCache> cache;
  /// Pieces parsed without a diagnostic (or taken from the cache): the ones
  /// that may be kept. Index = Module::parts index.
  std::vector<bool> keepablePieces;
};

/// Checks `text` as the file `path` (imports resolve against its directory,
/// then `options`). Never fails: errors are in `diagnostics`.
/// With a `cache`, the text is parsed and analysed piece by piece and what
/// an earlier version had is reused (DeclCache.h); the diagnostics are the
/// same, except that a syntax error is contained in its declaration.
std::unique_ptr<Analysis> analyzeBuffer(const std::string &path,
                                        std::string text,
                                        const AnalysisOptions &options,
                                        std::shared_ptr<DeclCache> cache = nullptr);

} // namespace blk::lsp

#endif // BLK_LSP_ANALYSIS_H
