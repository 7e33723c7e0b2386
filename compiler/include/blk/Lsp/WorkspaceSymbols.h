//===- WorkspaceSymbols.h - workspace/symbol --------------------*- C++ -*-===//
//
// The top-level declarations (kernels, fns, module consts, imports) of every
// open document and of every .blk file under the workspace folders, matched
// against a query. Open documents are read from their latest analysis; files
// on disk are only parsed (no Sema) and their symbols kept until the file's
// size or modification time changes.
// Test: tests/lit/lsp/workspace-symbols.test.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LSP_WORKSPACESYMBOLS_H
#define BLK_LSP_WORKSPACESYMBOLS_H

#include "blk/Lsp/Analysis.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

namespace blk::lsp {

/// One top-level declaration as workspace/symbol reports it.
struct WorkspaceSymbol {
  std::string name;
  int kind = 0;          ///< LSP SymbolKind
  std::string container; ///< the module (file stem)
  std::string uri;
  Position begin, end; ///< the declaration's name
};

/// Does `query` match `name`? Case-insensitive subsequence: every
/// character of the query appears in the name in order ("ldk" matches
/// `load_kernel`). Returns 0 for an exact match, 1 for a prefix, 2 for any
/// other subsequence, -1 for no match (an empty query matches everything
/// as a prefix).
int matchSymbol(std::string_view query, std::string_view name);

/// workspace/symbol for one server session.
class WorkspaceSymbols {
public:
  /// Directories searched (recursively) for .blk files.
  void setRoots(std::vector<std::string> roots) { this->roots = std::move(roots); }

  /// `SymbolInformation[]` matching `query`, best matches first, then by
  /// file and position. `open` are the analyses of the open documents; a
  /// file open in the editor is never read from disk (its canonical path
  /// is in `openKeys`).
  nlohmann::json query(std::string_view query,
                       const std::vector<const Analysis *> &open,
                       const std::vector<std::string> &openKeys);

private:
  struct DiskEntry {
    std::filesystem::file_time_type mtime;
    uintmax_t size = 0;
    std::vector<WorkspaceSymbol> symbols;
  };
  const std::vector<WorkspaceSymbol> &diskSymbols(const std::string &path);

  std::vector<std::string> roots;
  std::map<std::string, DiskEntry> disk; ///< by canonical path
};

} // namespace blk::lsp

#endif // BLK_LSP_WORKSPACESYMBOLS_H
