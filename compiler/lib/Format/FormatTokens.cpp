//===- FormatTokens.cpp - The tokens blkc fmt lays out --------------------===//

#include "FormatTokens.h"

#include <array>
#include <cctype>

namespace blk::format {

static bool isIdentStart(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}
static bool isIdentChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}
static bool isDigit(char c) { return c >= '0' && c <= '9'; }

static bool isKeyword(std::string_view word) {
  static constexpr std::array<std::string_view, 19> kKeywords = {
      "kernel", "fn",   "let",   "var",    "const",        "if",       "else",
      "for",    "in",   "while", "return", "break",        "continue", "import",
      "as",     "true", "false", "None",   "static_assert"};
  for (std::string_view k : kKeywords)
    if (k == word)
      return true;
  return false;
}

/// Length of the operator or punctuation at `s` (longest first, as the
/// grammar's lexer matches).
static size_t punctLength(std::string_view s) {
  static constexpr std::array<std::string_view, 19> kMulti = {
      "<<=", ">>=", "->", "||", "&&", "==", "!=", "<=", ">=", "<<",
      ">>",  "+=",  "-=", "*=", "/=", "%=", "&=", "|=", "^="};
  for (std::string_view op : kMulti)
    if (s.substr(0, op.size()) == op)
      return op.size();
  return 1;
}

/// Length of the number at `s` (FLOAT or INT of the grammar).
static size_t numberLength(std::string_view s) {
  size_t i = 0;
  if (s.size() > 1 && s[0] == '0' &&
      (s[1] == 'x' || s[1] == 'X' || s[1] == 'b' || s[1] == 'B')) {
    i = 2;
    while (i < s.size() && isIdentChar(s[i]))
      ++i;
    return i;
  }
  while (i < s.size() && (isDigit(s[i]) || s[i] == '_'))
    ++i;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && (isDigit(s[i]) || s[i] == '_'))
      ++i;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    if (j < s.size() && (s[j] == '+' || s[j] == '-'))
      ++j;
    if (j < s.size() && isDigit(s[j])) {
      i = j;
      while (i < s.size() && isDigit(s[i]))
        ++i;
    }
  }
  // A malformed tail (`12ab`) stays in the token, as BAD_NUMBER would.
  while (i < s.size() && isIdentChar(s[i]))
    ++i;
  return i;
}

std::vector<Token> tokenize(std::string_view text) {
  std::vector<Token> tokens;
  unsigned newlines = 0;
  size_t i = 0;
  auto push = [&](TokenKind kind, size_t length) {
    tokens.push_back({kind, text.substr(i, length), newlines});
    newlines = 0;
    i += length;
  };
  while (i < text.size()) {
    char c = text[i];
    if (c == '\n') {
      ++newlines;
      ++i;
    } else if (c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v') {
      ++i;
    } else if (text.substr(i, 2) == "//") {
      size_t end = text.find('\n', i);
      end = end == std::string_view::npos ? text.size() : end;
      size_t length = end - i;
      while (length > 2 &&
             (text[i + length - 1] == ' ' || text[i + length - 1] == '\t' ||
              text[i + length - 1] == '\r'))
        --length;
      push(TokenKind::LineComment, length);
      i = end;
    } else if (text.substr(i, 2) == "/*") {
      size_t end = text.find("*/", i + 2);
      end = end == std::string_view::npos ? text.size() : end + 2;
      push(TokenKind::BlockComment, end - i);
    } else if (c == '"') {
      size_t j = i + 1;
      while (j < text.size() && text[j] != '"' && text[j] != '\n')
        j += text[j] == '\\' && j + 1 < text.size() ? 2 : 1;
      push(TokenKind::String, std::min(j + 1, text.size()) - i);
    } else if (isDigit(c) ||
               (c == '.' && i + 1 < text.size() && isDigit(text[i + 1]))) {
      push(TokenKind::Number, numberLength(text.substr(i)));
    } else if (isIdentStart(c)) {
      size_t j = i;
      while (j < text.size() && isIdentChar(text[j]))
        ++j;
      push(isKeyword(text.substr(i, j - i)) ? TokenKind::Keyword
                                            : TokenKind::Identifier,
           j - i);
    } else if (static_cast<unsigned char>(c) >= 0x80) {
      // Non-ASCII outside comments and strings (an error for the parser):
      // one token, so no space lands inside a character.
      size_t j = i;
      while (j < text.size() && static_cast<unsigned char>(text[j]) >= 0x80)
        ++j;
      push(TokenKind::Punct, j - i);
    } else {
      // Operators, punctuation, and any other byte (kept as it is).
      push(TokenKind::Punct, punctLength(text.substr(i)));
    }
  }
  return tokens;
}

} // namespace blk::format
