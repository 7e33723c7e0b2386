//===- WorkspaceSymbols.cpp - workspace/symbol ----------------------------===//
//
// Lists the top-level declarations of the open documents (from their
// analysis) and of the .blk files under the workspace folders (parsed
// only, cached by size and modification time). Hidden directories and
// node_modules are not searched; at most kMaxFiles files are read and
// kMaxResults symbols returned, so a huge tree cannot stall the server.
//
//===----------------------------------------------------------------------===//

#include "blk/Lsp/WorkspaceSymbols.h"

#include "blk/Lsp/Uri.h"
#include "blk/Parse/Parser.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace blk::lsp {

using namespace blk::ast;
using nlohmann::json;
namespace fs = std::filesystem;

/// LSP SymbolKind values used here.
enum SymbolKind { kModule = 2, kFunction = 12, kConstant = 14 };
static constexpr size_t kMaxFiles = 5000;
static constexpr size_t kMaxResults = 1000;

int matchSymbol(std::string_view query, std::string_view name) {
  auto lower = [](char c) { return char(std::tolower((unsigned char)c)); };
  size_t i = 0;
  for (size_t j = 0; j < name.size() && i < query.size(); ++j)
    if (lower(name[j]) == lower(query[i]))
      ++i;
  if (i < query.size())
    return -1;
  bool prefix = true;
  for (size_t k = 0; prefix && k < query.size(); ++k)
    prefix = lower(query[k]) == lower(name[k]);
  if (!prefix)
    return 2;
  return query.size() == name.size() ? 0 : 1;
}

static std::vector<WorkspaceSymbol> symbolsOf(const Module &module,
                                              const LineIndex &index,
                                              const std::string &path) {
  std::vector<WorkspaceSymbol> out;
  std::string uri = pathToUri(path);
  std::string container = fs::path(path).stem().string();
  auto add = [&](std::string name, int kind, SourceRange range) {
    out.push_back({std::move(name), kind, container, uri,
                   index.position(range.begin.offset),
                   index.position(range.end.offset)});
  };
  for (const Decl *d : module.decls) {
    if (auto *fn = dyn_cast<FunctionDecl>(d))
      add(fn->name, kFunction, fn->nameRange);
    else if (auto *c = dyn_cast<ConstDecl>(d))
      add(c->name, kConstant, c->nameRange);
    else if (auto *imp = dyn_cast<ImportDecl>(d); imp && !imp->path.empty())
      add(imp->dottedName(), kModule,
          SourceRange(imp->pathRanges.front().begin,
                      imp->pathRanges.back().end));
  }
  return out;
}

const std::vector<WorkspaceSymbol> &
WorkspaceSymbols::diskSymbols(const std::string &path) {
  std::error_code ec;
  auto mtime = fs::last_write_time(path, ec);
  uintmax_t size = fs::file_size(path, ec);
  DiskEntry &entry = disk[path];
  if (!entry.symbols.empty() && entry.mtime == mtime && entry.size == size)
    return entry.symbols;
  entry.mtime = mtime;
  entry.size = size;
  entry.symbols.clear();
  SourceManager sm;
  DiagnosticEngine diags(sm);
  std::string error;
  FileId file = sm.loadFile(path, error);
  if (!file)
    return entry.symbols;
  ParseOptions options;
  options.keepValidDecls = true;
  std::unique_ptr<Module> module = parseModule(file, diags, options);
  if (module)
    entry.symbols = symbolsOf(*module, LineIndex(sm.getText(file)), path);
  return entry.symbols;
}

/// The .blk files under `roots`, sorted, without duplicates.
static std::vector<std::string> blkFiles(const std::vector<std::string> &roots) {
  std::set<std::string> files;
  for (const std::string &root : roots) {
    std::error_code ec;
    fs::recursive_directory_iterator it(
        root, fs::directory_options::skip_permission_denied, ec);
    for (; !ec && it != fs::recursive_directory_iterator();
         it.increment(ec)) {
      std::string name = it->path().filename().string();
      if (it->is_directory(ec)) {
        if (name.starts_with(".") || name == "node_modules")
          it.disable_recursion_pending();
        continue;
      }
      if (it->path().extension() == ".blk" && it->is_regular_file(ec))
        files.insert(canonicalPath(it->path().string()));
      if (files.size() >= kMaxFiles)
        return {files.begin(), files.end()};
    }
  }
  return {files.begin(), files.end()};
}

json WorkspaceSymbols::query(std::string_view query,
                             const std::vector<const Analysis *> &open,
                             const std::vector<std::string> &openKeys) {
  std::vector<std::pair<int, WorkspaceSymbol>> found;
  auto collect = [&](const std::vector<WorkspaceSymbol> &symbols) {
    for (const WorkspaceSymbol &s : symbols)
      if (int rank = matchSymbol(query, s.name); rank >= 0)
        found.emplace_back(rank, s);
  };
  for (const Analysis *analysis : open)
    if (analysis && analysis->module)
      collect(symbolsOf(*analysis->module,
                        analysis->lineIndex(analysis->mainFile),
                        analysis->sourceManager().getPath(analysis->mainFile)));
  std::set<std::string> isOpen(openKeys.begin(), openKeys.end());
  for (const std::string &path : blkFiles(roots))
    if (!isOpen.count(path))
      collect(diskSymbols(path));
  std::stable_sort(found.begin(), found.end(), [](auto &a, auto &b) {
    auto key = [](auto &x) {
      return std::tie(x.first, x.second.uri, x.second.begin.line,
                      x.second.begin.character);
    };
    return key(a) < key(b);
  });
  json out = json::array();
  for (auto &[rank, s] : found) {
    if (out.size() == kMaxResults)
      break;
    auto pos = [](Position p) {
      return json{{"line", p.line}, {"character", p.character}};
    };
    out.push_back(
        {{"name", s.name},
         {"kind", s.kind},
         {"containerName", s.container},
         {"location",
          {{"uri", s.uri},
           {"range", {{"start", pos(s.begin)}, {"end", pos(s.end)}}}}}});
  }
  return out;
}

} // namespace blk::lsp
