//===- PrefixMap.h - `--prefix-map OLD=NEW` path rewriting -------*- C++ -*-===//
//
// What `blkc build --prefix-map` does to the paths an artifact records (the
// manifest's `source`, line-info file names, the launcher header's fatbin
// path), as clang's -ffile-prefix-map does, so the same source built in two
// checkouts gives the same bytes. Paths are compared as text, whole
// components only (`/a/b` maps `/a/b/x.blk`, not `/a/bc/x.blk`); the longest
// matching OLD wins, and of equal ones the first given. Test:
// tests/unit/Support/PrefixMapTest.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_SUPPORT_PREFIXMAP_H
#define BLK_SUPPORT_PREFIXMAP_H

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace blk {

/// An ordered list of OLD=NEW prefix rules.
class PrefixMap {
public:
  /// Adds the rule `spec` (`OLD=NEW`, split at the first `=`; NEW may be
  /// empty). Returns an error message (the flag's diagnostic), or empty.
  std::string add(std::string_view spec);

  /// `path` with the longest matching OLD replaced by its NEW; unchanged
  /// when no rule matches. An empty NEW drops the separator after OLD.
  std::string apply(std::string_view path) const;

  bool empty() const { return rules.empty(); }

private:
  std::vector<std::pair<std::string, std::string>> rules;
};

} // namespace blk

#endif // BLK_SUPPORT_PREFIXMAP_H
