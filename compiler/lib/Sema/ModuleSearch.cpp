//===- ModuleSearch.cpp - finding imported modules on disk ----------------===//
#include "blk/Sema/ModuleSearch.h"

#include <filesystem>
#include <system_error>

namespace fs = std::filesystem;

namespace blk::sema {

std::vector<std::string> defaultStdlibDirs(const std::string &binDir) {
  fs::path bin(binDir.empty() ? "." : binDir);
  return {(bin / ".." / "share" / "blk" / "stdlib").lexically_normal().string(),
          (bin / ".." / ".." / "stdlib").lexically_normal().string()};
}

ModuleLookup findModule(const std::vector<std::string> &segments,
                        const std::vector<std::string> &dirs) {
  ModuleLookup result;
  if (segments.empty())
    return result;
  fs::path rel;
  for (size_t i = 0; i + 1 < segments.size(); ++i)
    rel /= segments[i];
  rel /= segments.back() + ".blk";
  for (const std::string &dir : dirs) {
    fs::path candidate = (fs::path(dir.empty() ? "." : dir) / rel).lexically_normal();
    result.searched.push_back(candidate.string());
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec)) {
      fs::path abs = fs::absolute(candidate, ec);
      result.path = (ec ? candidate : abs.lexically_normal()).string();
      return result;
    }
  }
  return result;
}

} // namespace blk::sema
