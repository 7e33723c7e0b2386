//===- EditDistance.cpp - the closest of a set of names -------------------===//
#include "blk/Support/EditDistance.h"

#include <algorithm>

namespace blk {

unsigned editDistance(std::string_view a, std::string_view b) {
  const size_t n = a.size(), m = b.size();
  std::vector<std::vector<unsigned>> d(n + 1, std::vector<unsigned>(m + 1));
  for (size_t i = 0; i <= n; ++i)
    d[i][0] = unsigned(i);
  for (size_t j = 0; j <= m; ++j)
    d[0][j] = unsigned(j);
  for (size_t i = 1; i <= n; ++i)
    for (size_t j = 1; j <= m; ++j) {
      unsigned cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

std::optional<std::string> closestName(std::string_view word,
                                       const std::vector<std::string> &candidates) {
  unsigned limit = std::max<unsigned>(1, unsigned(word.size()) / 3);
  std::optional<std::string> best;
  unsigned bestDistance = limit + 1;
  for (const std::string &c : candidates) {
    if (c == word)
      return std::nullopt;
    // Cheap bound first: lengths alone differ by more than the limit.
    size_t gap = c.size() > word.size() ? c.size() - word.size() : word.size() - c.size();
    if (gap > limit)
      continue;
    unsigned d = editDistance(word, c);
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return best;
}

} // namespace blk
