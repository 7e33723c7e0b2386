//===- Server.cpp - The blk language server (blkc lsp) --------------------===//

#include "blk/Lsp/Server.h"

#include "Fallback.h"
#include "blk/Lsp/Features.h"
#include "blk/Lsp/Transport.h"
#include "blk/Lsp/Uri.h"

#include "blk/Support/Fnv1a.h"

#include <fstream>
#include <iostream>
#include <sstream>

namespace blk::lsp {

using nlohmann::json;

namespace {
/// Thrown by a handler to answer its request with an error.
struct RequestError {
  int code;
  std::string message;
};

/// `params[key]` as a string, or an InvalidParams error.
const std::string &requireString(const json &params, const char *key) {
  auto it = params.find(key);
  if (it == params.end() || !it->is_string())
    throw RequestError{kInvalidParams,
                       std::string("missing string `") + key + "`"};
  return it->get_ref<const std::string &>();
}

const json &requireObject(const json &params, const char *key) {
  auto it = params.find(key);
  if (it == params.end() || !it->is_object())
    throw RequestError{kInvalidParams,
                       std::string("missing object `") + key + "`"};
  return *it;
}

unsigned requireUnsigned(const json &params, const char *key) {
  auto it = params.find(key);
  if (it == params.end() || !it->is_number_integer() || it->get<int64_t>() < 0)
    throw RequestError{kInvalidParams,
                       std::string("missing non-negative integer `") + key +
                           "`"};
  return unsigned(std::min<int64_t>(it->get<int64_t>(), UINT32_MAX));
}
} // namespace

Server::Server(std::ostream &out, ServerOptions options)
    : out(out), options(std::move(options)) {
  // Imports see the editor's unsaved buffers.
  this->options.analysis.readImport = [this](const std::string &path) {
    return openText(canonicalPath(path));
  };
}

Server::~Server() = default;

int Server::run(std::istream &in) {
  // While more input is already buffered (fast typing sends a burst of
  // didChange), defer checking: only the last version of a burst is
  // analysed. Requests always see an up-to-date analysis.
  deferAnalysis = true;
  MessageReader reader(in);
  while (!exitReceived) {
    ReadResult r = reader.next();
    if (r.status == ReadResult::Status::Eof)
      break;
    if (r.status == ReadResult::Status::Malformed)
      replyError(nullptr, kParseError, r.error);
    else
      handle(r.message);
    if (in.rdbuf()->in_avail() <= 0)
      analyzeStale();
  }
  deferAnalysis = false;
  return exitReceived && shutdownRequested ? 0 : 1;
}

void Server::analyzeStale() {
  std::set<std::string> uris;
  uris.swap(stale);
  for (const std::string &uri : uris) {
    auto it = documents.find(uri);
    if (it == documents.end())
      continue;
    try {
      reanalyze(it->second);
    } catch (const std::exception &e) {
      // Keep serving; the client sees no new diagnostics for this version.
      std::cerr << "blkc lsp: checking " << uri << " failed: " << e.what()
                << "\n";
    }
  }
}

bool Server::handle(const json &message) {
  if (!message.is_object()) {
    replyError(nullptr, kInvalidRequest, "a message must be a JSON object");
    return !exitReceived;
  }
  auto idIt = message.find("id");
  bool hasId =
      idIt != message.end() && (idIt->is_number_integer() || idIt->is_string());
  json id = hasId ? *idIt : json(nullptr);
  auto methodIt = message.find("method");
  if (methodIt == message.end() || !methodIt->is_string()) {
    // A response to a server request (we send none) needs no answer.
    if (idIt != message.end() &&
        (message.contains("result") || message.contains("error")))
      return !exitReceived;
    replyError(id, kInvalidRequest, "missing `method`");
    return !exitReceived;
  }
  const std::string &method = methodIt->get_ref<const std::string &>();
  json params = message.value("params", json::object());
  if (idIt != message.end() && !hasId) {
    replyError(nullptr, kInvalidRequest, "`id` must be an integer or a string");
    return !exitReceived;
  }
  try {
    if (hasId)
      dispatchRequest(id, method, params);
    else
      dispatchNotification(method, params);
  } catch (const RequestError &e) {
    if (hasId)
      replyError(id, e.code, e.message);
  } catch (const std::exception &e) {
    if (hasId)
      replyError(id, kInternalError,
                 std::string("internal error: ") + e.what());
  }
  if (!deferAnalysis)
    analyzeStale();
  return !exitReceived;
}

void Server::dispatchRequest(const json &id, const std::string &method,
                             const json &params) {
  if (method == "initialize") {
    if (initialized)
      throw RequestError{kInvalidRequest, "initialize was already received"};
    reply(id, initialize(params));
    return;
  }
  if (!initialized)
    throw RequestError{kServerNotInitialized, "the server is not initialized"};
  if (shutdownRequested)
    throw RequestError{kInvalidRequest, "the server is shutting down"};
  analyzeStale();
  if (method == "shutdown") {
    shutdownRequested = true;
    reply(id, nullptr);
    return;
  }
  if (!params.is_object())
    throw RequestError{kInvalidParams, "`params` must be an object"};
  if (method == "textDocument/hover" || method == "textDocument/definition") {
    Document &doc = documentFor(params);
    uint32_t offset = offsetFor(doc, params);
    needSema(doc, offset, offset);
    // Inside a declaration that does not parse now: its last good version.
    CursorTarget target =
        cursorTarget(*doc.analysis, doc.lastGood.get(), doc.sinceLastGood, offset);
    json result = method == "textDocument/hover"
                      ? hoverAt(*target.analysis, target.offset)
                      : definitionAt(*target.analysis, target.offset);
    mapToCurrent(result, target, *doc.analysis);
    reply(id, std::move(result));
  } else if (method == "textDocument/documentSymbol") {
    Document &doc = documentFor(params);
    reply(id, symbolsWithFallback(*doc.analysis, doc.lastGood.get(),
                                  doc.sinceLastGood));
  } else if (method == "workspace/symbol") {
    std::vector<const Analysis *> open;
    std::vector<std::string> keys;
    for (auto &[uri, doc] : documents) {
      if (!doc.analysis)
        reanalyze(doc);
      open.push_back(doc.analysis.get());
      keys.push_back(doc.key);
    }
    auto query = params.find("query");
    reply(id, workspaceSymbols.query(
                  query != params.end() && query->is_string()
                      ? query->get_ref<const std::string &>()
                      : std::string(),
                  open, keys));
  } else if (method == "textDocument/completion") {
    Document &doc = documentFor(params);
    uint32_t offset = offsetFor(doc, params);
    CursorTarget target = cursorTarget(*doc.analysis, doc.lastGood.get(),
                                       doc.sinceLastGood, offset);
    reply(id, json{{"isIncomplete", false},
                   {"items", completionAt(target.analysis, doc.text, offset,
                                          target.offset)}});
  } else if (method == "textDocument/references") {
    Document &doc = documentFor(params);
    bool withDecl = params.contains("context") &&
                    params["context"].is_object() &&
                    params["context"].value("includeDeclaration", false);
    doc.analysis->completeSema(); // uses in every kernel
    reply(id, referencesAt(*doc.analysis, offsetFor(doc, params), withDecl));
  } else if (method == "textDocument/prepareRename" ||
             method == "textDocument/rename") {
    Document &doc = documentFor(params);
    doc.analysis->completeSema(); // uses in every kernel
    std::string error;
    json result =
        method == "textDocument/rename"
            ? renameAt(*doc.analysis, offsetFor(doc, params),
                       requireString(params, "newName"), error)
            : prepareRenameAt(*doc.analysis, offsetFor(doc, params), error);
    if (result.is_null())
      throw RequestError{kRequestFailed, error};
    reply(id, std::move(result));
  } else if (method == "textDocument/signatureHelp") {
    Document &doc = documentFor(params);
    reply(id, signatureHelpAt(doc.analysis.get(), doc.lastGood.get(), doc.text,
                              offsetFor(doc, params)));
  } else if (method == "textDocument/codeAction") {
    Document &doc = documentFor(params);
    auto [begin, end] = rangeFor(doc, params);
    reply(id, codeActions(*doc.analysis, begin, end));
  } else if (method == "textDocument/semanticTokens/full") {
    Document &doc = documentFor(params);
    reply(id, semanticTokens(*doc.analysis));
  } else if (method == "textDocument/formatting") {
    Document &doc = documentFor(params);
    std::string error;
    json edits = formattingEdits(*doc.analysis, error);
    if (edits.is_null())
      throw RequestError{kRequestFailed, error};
    reply(id, std::move(edits));
  } else if (method == "textDocument/inlayHint") {
    Document &doc = documentFor(params);
    auto [begin, end] = rangeFor(doc, params);
    needSema(doc, begin, end);
    reply(id, inlayHints(*doc.analysis, begin, end));
  } else {
    throw RequestError{kMethodNotFound, "method not found: " + method};
  }
}

void Server::dispatchNotification(const std::string &method,
                                  const json &params) {
  if (method == "exit") {
    exitReceived = true;
    return;
  }
  // Before initialize, notifications other than exit are dropped (LSP).
  if (!initialized || !params.is_object())
    return;
  if (method == "textDocument/didOpen")
    didOpen(params);
  else if (method == "textDocument/didChange")
    didChange(params);
  else if (method == "textDocument/didClose")
    didClose(params);
  else if (method == "textDocument/didSave")
    didSave(params);
  else if (method == "workspace/didChangeWatchedFiles")
    didChangeWatchedFiles(params);
  // initialized, $/cancelRequest, $/setTrace, ...: nothing to do.
}

json Server::initialize(const json &params) {
  initialized = true;
  // Imports resolve against the workspace root (then -I, then the stdlib).
  std::string root;
  if (params.is_object()) {
    if (auto it = params.find("rootUri"); it != params.end() && it->is_string())
      root = uriToPath(it->get<std::string>());
    else if (auto it2 = params.find("rootPath");
             it2 != params.end() && it2->is_string())
      root = it2->get<std::string>();
  }
  if (!root.empty() && root[0] == '/')
    options.analysis.includeDirs.insert(options.analysis.includeDirs.begin(),
                                        root);
  // workspace/symbol searches every workspace folder (else the root).
  std::vector<std::string> folders;
  if (params.is_object())
    if (auto it = params.find("workspaceFolders"); it != params.end() &&
                                                    it->is_array())
      for (const json &folder : *it)
        if (folder.is_object() && folder.contains("uri") &&
            folder["uri"].is_string())
          folders.push_back(uriToPath(folder["uri"].get<std::string>()));
  if (folders.empty() && !root.empty())
    folders.push_back(root);
  std::erase_if(folders,
                [](const std::string &f) { return f.empty() || f[0] != '/'; });
  workspaceSymbols.setRoots(std::move(folders));
  json capabilities = {
      {"positionEncoding", "utf-16"},
      {"textDocumentSync", {{"openClose", true}, {"change", 1}}},
      {"hoverProvider", true},
      {"definitionProvider", true},
      {"documentSymbolProvider", true},
      {"workspaceSymbolProvider", true},
      {"completionProvider",
       {{"triggerCharacters", {".", "@"}}, {"resolveProvider", false}}},
      {"inlayHintProvider", true},
      {"documentFormattingProvider", true},
      {"semanticTokensProvider",
       {{"legend", semanticTokensLegend()}, {"full", true}}},
      {"codeActionProvider", {{"codeActionKinds", {"quickfix"}}}},
      {"referencesProvider", true},
      {"renameProvider", {{"prepareProvider", true}}},
      {"signatureHelpProvider",
       {{"triggerCharacters", {"(", ","}}, {"retriggerCharacters", {":"}}}},
  };
  return {{"capabilities", capabilities},
          {"serverInfo", {{"name", "blkc"}, {"version", "0.1.0"}}}};
}

void Server::didOpen(const json &params) {
  const json &item = requireObject(params, "textDocument");
  const std::string &uri = requireString(item, "uri");
  const std::string &text = requireString(item, "text");
  // Validated before the document exists: no half-opened documents.
  Document &doc = documents[uri];
  doc.uri = uri;
  doc.path = uriToPath(uri);
  doc.key = canonicalPath(doc.path);
  auto version = item.find("version");
  doc.version = version != item.end() && version->is_number_integer()
                    ? version->get<int64_t>()
                    : 0;
  doc.text = text;
  doc.analysis.reset();
  doc.lastGood.reset();
  doc.sinceLastGood = EditMap(uint32_t(doc.text.size()));
  stale.insert(doc.uri);
  // Importers switch from the file on disk to this buffer.
  markImportersStale(doc.key);
}

void Server::didChange(const json &params) {
  const json &item = requireObject(params, "textDocument");
  auto it = documents.find(requireString(item, "uri"));
  if (it == documents.end())
    return; // a change to a document never opened: nothing to update
  Document &doc = it->second;
  auto changes = params.find("contentChanges");
  if (changes == params.end() || !changes->is_array())
    return;
  for (const json &change : *changes) {
    if (!change.is_object() || !change.contains("text") ||
        !change["text"].is_string())
      continue;
    const std::string &text = change["text"].get_ref<const std::string &>();
    auto range = change.find("range");
    if (range == change.end()) {
      doc.sinceLastGood.apply(doc.text, text);
      doc.text = text;
      continue;
    }
    // Incremental edit (not advertised, accepted anyway).
    LineIndex index(doc.text);
    const json &start = requireObject(*range, "start");
    const json &end = requireObject(*range, "end");
    uint32_t b = index.offset(
        {requireUnsigned(start, "line"), requireUnsigned(start, "character")});
    uint32_t e = index.offset(
        {requireUnsigned(end, "line"), requireUnsigned(end, "character")});
    if (e < b)
      std::swap(b, e);
    std::string before = doc.text;
    doc.text.replace(b, e - b, text);
    doc.sinceLastGood.apply(before, doc.text);
  }
  if (auto v = item.find("version"); v != item.end() && v->is_number_integer())
    doc.version = v->get<int64_t>();
  stale.insert(doc.uri);
  markImportersStale(doc.key);
}

void Server::didClose(const json &params) {
  const json &item = requireObject(params, "textDocument");
  const std::string &uri = requireString(item, "uri");
  auto it = documents.find(uri);
  if (it == documents.end())
    return;
  std::string key = it->second.key;
  documents.erase(it);
  stale.erase(uri);
  for (auto &entry : importers)
    entry.second.erase(uri);
  notify("textDocument/publishDiagnostics",
         {{"uri", uri}, {"diagnostics", json::array()}});
  // Importers go back to the file on disk.
  markImportersStale(key);
}

void Server::didSave(const json &params) {
  const json &item = requireObject(params, "textDocument");
  auto it = documents.find(requireString(item, "uri"));
  if (it != documents.end())
    markImportersStale(it->second.key);
}

void Server::didChangeWatchedFiles(const json &params) {
  auto changes = params.find("changes");
  if (changes == params.end() || !changes->is_array())
    return;
  for (const json &change : *changes)
    if (change.is_object() && change.contains("uri") &&
        change["uri"].is_string())
      markImportersStale(canonicalPath(uriToPath(change["uri"])));
}

void Server::markImportersStale(const std::string &key) {
  auto it = importers.find(key);
  if (it == importers.end())
    return;
  for (const std::string &uri : it->second)
    if (documents.count(uri))
      stale.insert(uri);
}

std::optional<std::string> Server::openText(const std::string &key) const {
  for (const auto &[uri, doc] : documents)
    if (doc.key == key)
      return doc.text;
  return std::nullopt;
}

uint64_t Server::importsHash(const std::vector<std::string> &paths) const {
  uint64_t hash = kFnv1a64Basis;
  for (const std::string &path : paths) {
    hash = fnv1a64(path + '\0', hash);
    if (std::optional<std::string> text = openText(path)) {
      hash = fnv1a64(*text, fnv1a64("open\0", hash));
    } else {
      std::ifstream in(path, std::ios::binary);
      std::ostringstream bytes;
      bytes << in.rdbuf();
      hash = fnv1a64(bytes.str(), fnv1a64("disk\0", hash));
    }
  }
  return hash;
}

void Server::reanalyze(Document &doc) {
  // What the last check imported may have changed (the kept kernel
  // diagnostics do not know): hash its texts before this check reads them,
  // so a change made while it runs is seen next time. (The first check
  // has nothing to compare with: the second forgets what the first kept.)
  if (doc.analysis) {
    uint64_t hash = importsHash(doc.analysis->importedPaths());
    if (hash != doc.importsHash)
      doc.cache->forgetKernels();
    doc.importsHash = hash;
  }
  // The analyses this one replaces give their pieces back to the cache
  // when destroyed: after the diagnostics are out (destroying costs time).
  std::vector<std::shared_ptr<Analysis>> replaced = {doc.analysis, doc.lastGood};
  doc.analysis = analyzeBuffer(doc.path, doc.text, options.analysis, doc.cache);
  if (!hasSyntaxErrors(*doc.analysis)) {
    doc.lastGood = doc.analysis;
    doc.sinceLastGood = EditMap(uint32_t(doc.text.size()));
  }
  // The reverse-import map: this document now depends on what it read.
  for (auto &entry : importers)
    entry.second.erase(doc.uri);
  for (const std::string &path : doc.analysis->importedPaths())
    importers[path].insert(doc.uri);
  publishDiagnostics(doc);
  replaced.clear();
  // Nothing came back (the first check of this document, which stays the
  // last good one): parse its pieces once more so the next edit has them.
  if (doc.cache->noPieces() && doc.lastGood == doc.analysis)
    doc.analysis->warmCache();
}

void Server::publishDiagnostics(const Document &doc) {
  notify("textDocument/publishDiagnostics",
         {{"uri", doc.uri},
          {"version", doc.version},
          {"diagnostics", lspDiagnostics(*doc.analysis)}});
}

Server::Document &Server::documentFor(const json &params) {
  const json &item = requireObject(params, "textDocument");
  const std::string &uri = requireString(item, "uri");
  auto it = documents.find(uri);
  if (it == documents.end())
    throw RequestError{kInvalidParams,
                       "unknown document: " + uri + " (not opened)"};
  Document &doc = it->second;
  if (!doc.analysis)
    reanalyze(doc);
  return doc;
}

void Server::needSema(Document &doc, uint32_t begin, uint32_t end) {
  doc.analysis->completeSema(begin, end);
  // The last good version is read at mapped offsets: all of it.
  if (doc.lastGood && doc.lastGood != doc.analysis)
    doc.lastGood->completeSema();
}

uint32_t Server::offsetFor(const Document &doc, const json &params) const {
  return offsetOf(doc, requireObject(params, "position"));
}

uint32_t Server::offsetOf(const Document &doc, const json &pos) const {
  if (!pos.is_object())
    throw RequestError{kInvalidParams, "a position must be an object"};
  return doc.analysis->lineIndex(doc.analysis->mainFile)
      .offset(
          {requireUnsigned(pos, "line"), requireUnsigned(pos, "character")});
}

std::pair<uint32_t, uint32_t> Server::rangeFor(const Document &doc,
                                               const json &params) const {
  const json &range = requireObject(params, "range");
  uint32_t b = offsetOf(doc, requireObject(range, "start"));
  uint32_t e = offsetOf(doc, requireObject(range, "end"));
  return {std::min(b, e), std::max(b, e)};
}

void Server::reply(const json &id, json result) {
  writeMessage(out,
               {{"jsonrpc", "2.0"}, {"id", id}, {"result", std::move(result)}});
}

void Server::replyError(const json &id, int code, const std::string &message) {
  writeMessage(out, {{"jsonrpc", "2.0"},
                     {"id", id},
                     {"error", {{"code", code}, {"message", message}}}});
}

void Server::notify(const std::string &method, json params) {
  writeMessage(
      out,
      {{"jsonrpc", "2.0"}, {"method", method}, {"params", std::move(params)}});
}

} // namespace blk::lsp
