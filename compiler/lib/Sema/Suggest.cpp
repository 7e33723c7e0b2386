//===- Suggest.cpp - "did you mean" by edit distance ----------------------===//
#include "blk/Sema/Suggest.h"

#include <algorithm>
#include <utility>

namespace blk::sema {

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

std::optional<std::string> blkTypeFor(std::string_view foreign) {
  static const std::pair<std::string_view, std::string_view> kAliases[] = {
      {"float", "f32"},   {"float32", "f32"}, {"fp32", "f32"},     {"double", "f64"},
      {"float64", "f64"}, {"fp64", "f64"},    {"half", "f16"},     {"float16", "f16"},
      {"fp16", "f16"},    {"bfloat16", "bf16"}, {"bfloat", "bf16"}, {"int", "i32"},
      {"int32", "i32"},   {"long", "i64"},    {"int64", "i64"},    {"short", "i16"},
      {"int16", "i16"},   {"char", "i8"},     {"int8", "i8"},      {"uint8", "u8"},
      {"uint16", "u16"},  {"uint32", "u32"},  {"unsigned", "u32"}, {"uint64", "u64"},
      {"int1", "i1"},     {"f8", "f8e4m3` or `f8e5m2"}, {"fp8", "f8e4m3` or `f8e5m2"},
      {"float8", "f8e4m3` or `f8e5m2"}, {"float8e4nv", "f8e4m3"}, {"float8_e4m3fn", "f8e4m3"},
      {"float8e5", "f8e5m2"}, {"float8_e5m2", "f8e5m2"}};
  for (auto [from, to] : kAliases)
    if (from == foreign)
      return std::string(to);
  return std::nullopt;
}

std::string didYouMean(const std::string &name) { return "did you mean `" + name + "`?"; }

} // namespace blk::sema
