//===- Suggest.h - "did you mean" by edit distance --------------*- C++ -*-===//
//
// The closest of a set of names to a misspelt one, for the notes of unknown
// names, built-ins, keyword arguments, types, attributes, config parameters
// and modules. Close means an edit distance (insertions, deletions,
// substitutions and swaps of neighbours) of at most a third of the word's
// length, at least 1; among equals the first candidate wins. Also the
// spellings other languages use for blk's scalar types (`float32`, `int`).
// Tests: tests/unit/Sema/SuggestTest.cpp, tests/lit/sema/did-you-mean.blk.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_SEMA_SUGGEST_H
#define BLK_SEMA_SUGGEST_H

#include "blk/Support/EditDistance.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blk::sema {

// The edit distance and the closest name live in Support (the parser uses
// them too).
using blk::closestName;
using blk::editDistance;

/// blk's spelling of a type named the Python / C / Triton way (`float32`,
/// `tl.float16`'s `float16`, `int`, `double`, `uint8`); nullopt otherwise.
std::optional<std::string> blkTypeFor(std::string_view foreign);

/// "did you mean `x`?" for a note.
std::string didYouMean(const std::string &name);

} // namespace blk::sema

#endif // BLK_SEMA_SUGGEST_H
