//===- Depfile.cpp - Make-style dependency files -------------------------===//
#include "blk/Target/Depfile.h"

#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

namespace blk::target {

/// Escapes one path for a Make rule (what GCC's -MD writes).
static std::string escapeForMake(llvm::StringRef path) {
  std::string out;
  for (size_t i = 0; i < path.size(); ++i) {
    char c = path[i];
    if (c == ' ' || c == '\t') {
      // Backslashes before a space are doubled so the space stays escaped.
      for (size_t j = i; j > 0 && path[j - 1] == '\\'; --j)
        out += '\\';
      out += '\\';
    } else if (c == '$') {
      out += '$';
    } else if (c == '#') {
      out += '\\';
    }
    out += c;
  }
  return out;
}

std::string formatDepfile(llvm::StringRef target, llvm::ArrayRef<std::string> deps) {
  std::string text = escapeForMake(target) + ":";
  llvm::StringSet<> seen;
  for (const std::string &dep : deps) {
    if (!seen.insert(dep).second)
      continue;
    text += " \\\n  " + escapeForMake(dep);
  }
  text += "\n";
  return text;
}

llvm::Error writeDepfile(llvm::StringRef path, llvm::StringRef target,
                         llvm::ArrayRef<std::string> deps) {
  std::error_code ec;
  llvm::raw_fd_ostream out(path, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return llvm::createStringError("cannot write depfile `" + path.str() + "`: " + ec.message());
  out << formatDepfile(target, deps);
  out.close();
  if (out.has_error())
    return llvm::createStringError("cannot write depfile `" + path.str() + "`");
  return llvm::Error::success();
}

} // namespace blk::target
