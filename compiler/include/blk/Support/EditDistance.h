//===- EditDistance.h - the closest of a set of names ------------*- C++ -*-===//
//
// For "did you mean" notes (Sema's Suggest.h, the parser's keyword typos):
// edit distance with adjacent swaps counting one (optimal string
// alignment), and the closest candidate within a third of the word's
// length (at least 1); among equals the first candidate wins.
// Tests: tests/unit/Sema/SuggestTest.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_SUPPORT_EDITDISTANCE_H
#define BLK_SUPPORT_EDITDISTANCE_H

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blk {

/// Edit distance with adjacent swaps counting one.
unsigned editDistance(std::string_view a, std::string_view b);

/// The closest candidate to `word` within the distance above; nullopt if
/// none is close or `word` is itself a candidate.
std::optional<std::string> closestName(std::string_view word,
                                       const std::vector<std::string> &candidates);

} // namespace blk

#endif // BLK_SUPPORT_EDITDISTANCE_H
