//===- Uri.cpp - file:// URIs <-> paths -----------------------------------===//

#include "blk/Lsp/Uri.h"

#include <cctype>
#include <filesystem>

namespace blk::lsp {

static int hexValue(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return -1;
}

std::string uriToPath(const std::string &uri) {
  const std::string kScheme = "file://";
  if (uri.compare(0, kScheme.size(), kScheme) != 0)
    return uri;
  std::string rest = uri.substr(kScheme.size());
  // Skip an authority ("localhost") up to the path's first '/'.
  size_t slash = rest.find('/');
  rest = slash == std::string::npos ? "/" : rest.substr(slash);
  std::string path;
  for (size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == '%' && i + 2 < rest.size() && hexValue(rest[i + 1]) >= 0 &&
        hexValue(rest[i + 2]) >= 0) {
      path += char(hexValue(rest[i + 1]) * 16 + hexValue(rest[i + 2]));
      i += 2;
      continue;
    }
    path += rest[i];
  }
  return path;
}

std::string pathToUri(const std::string &path) {
  // A pseudo-path from a non-file URI goes back unchanged.
  if (path.empty() || path[0] != '/')
    return path;
  static const char kHex[] = "0123456789ABCDEF";
  std::string uri = "file://";
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '/' || c == '-' || c == '_' || c == '.' ||
        c == '~') {
      uri += char(c);
      continue;
    }
    uri += '%';
    uri += kHex[c >> 4];
    uri += kHex[c & 15];
  }
  return uri;
}

std::string canonicalPath(const std::string &path) {
  // Pseudo-paths of non-file URIs (`untitled:x`) stay as they are.
  if (path.empty() || path[0] != '/')
    return path;
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path p = fs::weakly_canonical(fs::path(path), ec);
  return ec ? fs::path(path).lexically_normal().string() : p.string();
}

} // namespace blk::lsp
