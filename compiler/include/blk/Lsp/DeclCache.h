//===- DeclCache.h - What a document's earlier checks leave behind -*- C++ -*-===//
//
// Per-declaration caching in the language server (docs/architecture.md,
// "Language server"). A document is checked piece by piece
// (splitTopLevelDecls): a piece whose text an earlier version had is not
// parsed again; its AST is taken from here and moved to its new offset
// (Module::shift). A kernel whose piece and whose surroundings (every
// other declaration's text, the names of the kernels, the imports) are
// unchanged is not analysed again; its diagnostics are taken from here.
//
// Pieces come back when the analysis that owns them is destroyed, which
// happens once it is neither the current nor the last good one (the last
// good one is still read at its own offsets, so pieces are never shared).
// Tests: tests/unit/Lsp/IncrementalTest.cpp, bench/lsp_latency.py.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LSP_DECLCACHE_H
#define BLK_LSP_DECLCACHE_H

#include "blk/AST/AST.h"
#include "blk/Support/Diagnostic.h"

#include <deque>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace blk::lsp {

class DeclCache {
public:
  /// The AST of a kept piece whose text is `text`, moved so that it starts
  /// at `begin` of `file`; nullptr when none is kept.
  std::unique_ptr<ast::Module> takePiece(std::string_view text, FileId file, uint32_t begin);
  /// Keeps `piece`, parsed from `text` without any diagnostic.
  void keepPiece(std::string text, std::unique_ptr<ast::Module> piece);
  /// Forgets the pieces not taken since the last call: texts the current
  /// version no longer has.
  void dropUntakenPieces();
  /// True when no piece is kept.
  bool noPieces() const { return pieces.empty(); }

  /// The diagnostics of the kernel analysed under `key` (its piece's text
  /// and what it can see), moved to a piece starting at `begin`; nullptr
  /// when there are none. Valid until finishAnalysis().
  const std::vector<Diagnostic> *keptKernel(const std::string &key, uint32_t begin);
  /// Keeps what the kernel under `key`, whose piece starts at `begin`,
  /// reported. Only diagnostics whose ranges all lie in that piece (or
  /// have none) can be moved: the caller checks.
  void keepKernel(std::string key, uint32_t begin, std::vector<Diagnostic> diags);
  /// Ends one analysis: kernels neither reused nor analysed in it are
  /// forgotten.
  void finishAnalysis();
  /// Forgets every kernel (an import changed: its text is not in the key).
  void forgetKernels();

  /// What the last analysis reused (tests, the bench).
  struct Stats {
    unsigned piecesReused = 0;
    unsigned kernelsReused = 0;
  };
  Stats takeStats();

private:
  struct KeptKernel {
    uint32_t begin = 0;
    std::vector<Diagnostic> diags;
  };
  std::unordered_multimap<std::string, std::unique_ptr<ast::Module>> pieces;
  std::unordered_map<std::string, KeptKernel> kernels, nextKernels;
  std::deque<std::vector<Diagnostic>> moved; // what keptKernel handed out
  Stats stats;
};

/// `diag` with every valid range moved by `delta` bytes.
Diagnostic shiftDiagnostic(Diagnostic diag, int64_t delta);

} // namespace blk::lsp

#endif // BLK_LSP_DECLCACHE_H
