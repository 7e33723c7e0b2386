//===- Uri.h - file:// URIs <-> paths --------------------------*- C++ -*-===//
//
// The language server names documents by URI; the compiler by path. Only
// `file:` URIs map to real paths; any other URI (e.g. `untitled:x`) keeps
// its text as a pseudo-path, so such buffers still get diagnostics.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LSP_URI_H
#define BLK_LSP_URI_H

#include <string>

namespace blk::lsp {

/// `file:///a%20b/x.blk` -> `/a b/x.blk`; a non-file URI is returned as is.
std::string uriToPath(const std::string &uri);
/// `/a b/x.blk` -> `file:///a%20b/x.blk`.
std::string pathToUri(const std::string &path);
/// `path` absolute, with `.`, `..` and symbolic links resolved where they
/// exist: the key under which the server matches documents and imports
/// (Sema resolves import paths the same way).
std::string canonicalPath(const std::string &path);

} // namespace blk::lsp

#endif // BLK_LSP_URI_H
