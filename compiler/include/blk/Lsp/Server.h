//===- Server.h - The blk language server (blkc lsp) ------------*- C++ -*-===//
//
// LSP 3.17 over a pair of streams. Implements exactly what `initialize`
// advertises: full document sync, publishDiagnostics (with the document
// version), hover, definition, documentSymbol, completion, inlay hints and
// workspace/symbol (open documents and the workspace folders' .blk files). Every open
// document is re-checked from memory on each change, synchronously, so
// diagnostics always match the latest version.
//
// Imports read open documents before the disk (AnalysisOptions::readImport),
// and a reverse-import map (`importers`) re-checks every open document that
// imports a file, directly or not, when that file is opened, changed, saved,
// closed or changed on disk (workspace/didChangeWatchedFiles). While a
// declaration does not parse, cursor requests inside it and the outline use
// the document's last analysis without syntax errors (Fallback.h).
//
// Robustness contract: no input ends the process except `exit` or the end
// of input. Malformed frames get a ParseError response, unknown requests
// MethodNotFound, requests on unknown documents an error response, and an
// exception in a handler an InternalError response.
// Tests: tests/lit/lsp/lsp_e2e.py, bench/lsp_latency.py.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LSP_SERVER_H
#define BLK_LSP_SERVER_H

#include "blk/Lsp/Analysis.h"
#include "blk/Lsp/EditMap.h"
#include "blk/Lsp/WorkspaceSymbols.h"

#include <nlohmann/json.hpp>

#include <istream>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <string>

namespace blk::lsp {

/// Options of one server session.
struct ServerOptions {
  AnalysisOptions analysis;
};

/// One language-server session writing its messages to `out`.
class Server {
public:
  Server(std::ostream &out, ServerOptions options);
  ~Server();

  /// Reads and handles messages until `exit` or the end of `in`. Returns
  /// the process exit code: 0 when `shutdown` came before `exit`, else 1.
  int run(std::istream &in);

  /// Handles one decoded message. Returns false once `exit` was received.
  bool handle(const nlohmann::json &message);

private:
  struct Document {
    std::string uri;
    std::string path; ///< as the URI names it (diagnostics print it)
    std::string key;  ///< canonicalPath(path): how imports find it
    int64_t version = 0;
    std::string text;
    std::shared_ptr<Analysis> analysis; ///< of `text`
    /// The latest analysis without syntax errors (may be `analysis`).
    std::shared_ptr<Analysis> lastGood;
    /// Offsets of lastGood's text -> `text`, updated on every change.
    EditMap sinceLastGood;
    /// Pieces and kernel diagnostics earlier versions leave (DeclCache.h).
    std::shared_ptr<DeclCache> cache = std::make_shared<DeclCache>();
    /// Hash of the texts of what the check before the last one imported,
    /// taken before the last one read them: when it changes, the kept
    /// kernel diagnostics are forgotten.
    uint64_t importsHash = 0;
  };

  void dispatchRequest(const nlohmann::json &id, const std::string &method,
                       const nlohmann::json &params);
  void dispatchNotification(const std::string &method,
                            const nlohmann::json &params);

  nlohmann::json initialize(const nlohmann::json &params);
  void didOpen(const nlohmann::json &params);
  void didChange(const nlohmann::json &params);
  void didClose(const nlohmann::json &params);
  void didSave(const nlohmann::json &params);
  void didChangeWatchedFiles(const nlohmann::json &params);
  void reanalyze(Document &doc);
  /// Sema's facts for the kernels bytes [begin, end] of `doc` touch (the
  /// diagnostics came from a check that may have skipped kernels).
  void needSema(Document &doc, uint32_t begin, uint32_t end);
  /// Hash of the current texts of `paths` (open buffers first, else disk).
  uint64_t importsHash(const std::vector<std::string> &paths) const;
  /// Marks every open document that imports `key` (transitively) stale.
  void markImportersStale(const std::string &key);
  /// The text of the open document at canonical path `key`, if any.
  std::optional<std::string> openText(const std::string &key) const;
  /// Checks every document changed since its last check and publishes.
  void analyzeStale();
  void publishDiagnostics(const Document &doc);
  Document &documentFor(const nlohmann::json &params);
  /// The byte offset of `params.position`, of a Position object, and of
  /// `params.range` (ordered).
  uint32_t offsetFor(const Document &doc, const nlohmann::json &params) const;
  uint32_t offsetOf(const Document &doc, const nlohmann::json &pos) const;
  std::pair<uint32_t, uint32_t> rangeFor(const Document &doc,
                                         const nlohmann::json &params) const;

  void reply(const nlohmann::json &id, nlohmann::json result);
  void replyError(const nlohmann::json &id, int code,
                  const std::string &message);
  void notify(const std::string &method, nlohmann::json params);

  std::ostream &out;
  ServerOptions options;
  std::map<std::string, Document> documents;
  /// Canonical path of a file -> URIs of the open documents whose last
  /// check read it (the reverse-import map).
  std::map<std::string, std::set<std::string>> importers;
  bool initialized = false;
  bool shutdownRequested = false;
  bool exitReceived = false;
  /// Documents whose text changed since their last check.
  std::set<std::string> stale;
  /// Set by run(): checking waits until no input is buffered.
  bool deferAnalysis = false;
  /// workspace/symbol over the folders given at initialize.
  WorkspaceSymbols workspaceSymbols;
};

} // namespace blk::lsp

#endif // BLK_LSP_SERVER_H
