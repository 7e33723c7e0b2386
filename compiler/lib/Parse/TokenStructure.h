//===- TokenStructure.h - Brackets and statements of a token stream -*- C++ -*-===//
//
// Private to the parser library. What the syntax-error reporter and the
// error strategy need to know about the tokens, from the tokens alone (not
// from the parser's view, which recovery may have confused):
//  - statement units: a syntax error is reported at most once per unit, so
//    a unit is a statement-sized piece (ends after `;` or `{`; a `}` is one
//    alone), and 50 bad statements give 50 diagnostics, not one;
//  - the brace depth of each token and the `{` that are never closed, with a
//    guess from indentation at which one lost its `}`;
//  - `)`, `]`, `}` without their opener.
// Tests: tests/lit/parse/fail_missing_brace*.blk, fail_many_statements.test.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LIB_PARSE_TOKENSTRUCTURE_H
#define BLK_LIB_PARSE_TOKENSTRUCTURE_H

#include "antlr4-runtime.h"

#include <cstdint>
#include <string_view>
#include <vector>

namespace blk::parse {

class TokenStructure {
public:
  static constexpr size_t kNone = static_cast<size_t>(-1);

  TokenStructure(std::string_view text,
                 const std::vector<antlr4::Token *> &tokens);

  /// The statement unit of token `index` (the last unit past the end).
  uint32_t unitOf(size_t index) const;
  /// `{` nesting at token `index` (a `{` counts itself, a `}` does not).
  unsigned braceDepth(size_t index) const;
  /// Whether token `index` is a `)`, `]` or `}` without its opener.
  bool isUnmatchedCloser(size_t index) const;

  /// The `{` tokens never closed, outermost first.
  const std::vector<size_t> &unclosedBraces() const { return unclosed; }
  bool hasUnclosedBrace() const { return !unclosed.empty(); }
  /// With exactly one unclosed `{`: a `}` that is indented less than the
  /// line of the `{` it closes, so it probably belongs to an outer block and
  /// the `{` it closes is the one that lost its `}` (kNone when there is no
  /// such `}`). The first one in the file.
  size_t misindentedCloser() const { return misindented; }
  /// The `{` that `}` token `closer` closes (kNone if none).
  size_t openerOf(size_t closer) const;
  /// The `}` that closes `{` token `opener` (kNone if none).
  size_t closerOf(size_t opener) const;

  /// Whether `t` is the first token on its line.
  bool startsLine(const antlr4::Token *t) const;

private:
  std::string_view indentOfLine(size_t offset) const;

  std::string_view text;
  const std::vector<antlr4::Token *> &tokens;
  std::vector<uint32_t> units;
  std::vector<unsigned> depth;
  std::vector<bool> unmatchedCloser;
  std::vector<size_t> opener; // token index -> index of its `{` (for `}`)
  std::vector<size_t> closer; // token index -> index of its `}` (for `{`)
  std::vector<size_t> unclosed;
  size_t misindented = kNone;
};

} // namespace blk::parse

#endif // BLK_LIB_PARSE_TOKENSTRUCTURE_H
