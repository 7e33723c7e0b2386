//===- FormatTokens.h - The tokens blkc fmt lays out ------------*- C++ -*-===//
//
// A tokenizer that follows grammar/Blk.g4's lexer rules (maximal munch;
// comments kept as tokens) and records how many line breaks preceded each
// token: all the formatter needs. It never fails: a character no rule
// matches becomes a one-character token, so even unexpected input keeps
// every byte (callers format only text that parsed).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LIB_FORMAT_FORMATTOKENS_H
#define BLK_LIB_FORMAT_FORMATTOKENS_H

#include <string_view>
#include <vector>

namespace blk::format {

enum class TokenKind {
  Identifier,
  Keyword, ///< kernel, fn, let, …, true, false, None
  Number,
  String,
  LineComment,
  BlockComment,
  Punct, ///< operators and punctuation, one token each (`<<=`, `->`)
};

struct Token {
  TokenKind kind;
  std::string_view text;
  unsigned newlinesBefore = 0;
};

/// The tokens of `text`, in order.
std::vector<Token> tokenize(std::string_view text);

} // namespace blk::format

#endif // BLK_LIB_FORMAT_FORMATTOKENS_H
