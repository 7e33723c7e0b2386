//===- ModuleSearch.h - finding imported modules on disk --------*- C++ -*-===//
//
// `import a.b;` names the file `a/b.blk`, looked up in order in:
//   1. the directory of the importing file,
//   2. each `-I DIR`, in command-line order,
//   3. the standard library directories: `<bindir>/../share/blk/stdlib`
//      (installed) and `<bindir>/../../stdlib` (run from a build tree).
// A missing module's error lists every path tried.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_SEMA_MODULESEARCH_H
#define BLK_SEMA_MODULESEARCH_H

#include <optional>
#include <string>
#include <vector>

namespace blk::sema {

/// The stdlib directories for a compiler binary living in `binDir`.
std::vector<std::string> defaultStdlibDirs(const std::string &binDir);

/// Outcome of a lookup: the file found (absolute, normalised) and every
/// candidate path tried, in order.
struct ModuleLookup {
  std::optional<std::string> path;
  std::vector<std::string> searched;
};

/// Looks for `segments[0]/…/segments[n-1].blk` in each directory of `dirs`.
ModuleLookup findModule(const std::vector<std::string> &segments,
                        const std::vector<std::string> &dirs);

} // namespace blk::sema

#endif // BLK_SEMA_MODULESEARCH_H
