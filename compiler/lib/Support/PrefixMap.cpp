//===- PrefixMap.cpp - `--prefix-map OLD=NEW` path rewriting --------------===//
#include "blk/Support/PrefixMap.h"

namespace blk {

static bool isSeparator(char c) { return c == '/' || c == '\\'; }

/// `/a/b/` and `/a/b` are the same prefix; `/` stays `/`.
static std::string withoutTrailingSeparators(std::string_view path) {
  while (path.size() > 1 && isSeparator(path.back()))
    path.remove_suffix(1);
  return std::string(path);
}

std::string PrefixMap::add(std::string_view spec) {
  size_t eq = spec.find('=');
  if (eq == std::string_view::npos)
    return "--prefix-map `" + std::string(spec) + "` is not OLD=NEW";
  if (eq == 0)
    return "--prefix-map `" + std::string(spec) + "` has an empty OLD prefix";
  rules.emplace_back(withoutTrailingSeparators(spec.substr(0, eq)),
                     withoutTrailingSeparators(spec.substr(eq + 1)));
  return {};
}

/// The rest of `path` after `prefix` (starting at a separator, or empty),
/// or false when `prefix` does not end at a component boundary of `path`.
static bool matchPrefix(std::string_view path, std::string_view prefix, std::string_view &rest) {
  if (path.substr(0, prefix.size()) != prefix)
    return false;
  // Only `/` itself ends in a separator; keep it in the rest.
  rest = path.substr(isSeparator(prefix.back()) ? prefix.size() - 1 : prefix.size());
  return rest.empty() || isSeparator(rest.front());
}

std::string PrefixMap::apply(std::string_view path) const {
  const std::pair<std::string, std::string> *best = nullptr;
  std::string_view bestRest;
  for (const auto &rule : rules) {
    std::string_view rest;
    if (matchPrefix(path, rule.first, rest) && (!best || rule.first.size() > best->first.size())) {
      best = &rule;
      bestRest = rest;
    }
  }
  if (!best)
    return std::string(path);
  const std::string &replacement = best->second;
  // `OLD=` makes paths relative: `/src/k.blk` -> `k.blk` (and `/src` -> `.`).
  if (replacement.empty()) {
    while (!bestRest.empty() && isSeparator(bestRest.front()))
      bestRest.remove_prefix(1);
    return bestRest.empty() ? "." : std::string(bestRest);
  }
  if (isSeparator(replacement.back()) && !bestRest.empty() && isSeparator(bestRest.front()))
    bestRest.remove_prefix(1);
  return replacement + std::string(bestRest);
}

} // namespace blk
