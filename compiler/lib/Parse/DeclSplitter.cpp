//===- DeclSplitter.cpp - Top-level declarations without parsing ----------===//
//
// Mirrors the lexer's rules for what hides brackets (grammar/Blk.g4):
// `//` to the end of the line, `/* … */` (unterminated: to the end), and
// strings `"…"` with backslash escapes, ending at the line's end when
// unterminated. Tests: tests/unit/Parse/DeclSplitterTest.cpp.
//
//===----------------------------------------------------------------------===//
#include "blk/Parse/DeclSplitter.h"

namespace blk {

std::vector<ByteSpan> splitTopLevelDecls(std::string_view text) {
  std::vector<ByteSpan> pieces;
  const size_t n = text.size();
  size_t start = 0;
  long depth = 0; // `(`, `[` and `{` together; a stray closer stays at 0
  auto cut = [&](size_t end) {
    pieces.push_back({static_cast<uint32_t>(start), static_cast<uint32_t>(end)});
    start = end;
  };
  for (size_t i = 0; i < n; ++i) {
    char c = text[i];
    if (c == '/' && i + 1 < n && text[i + 1] == '/') {
      while (i < n && text[i] != '\n' && text[i] != '\r')
        ++i;
      continue;
    }
    if (c == '/' && i + 1 < n && text[i + 1] == '*') {
      size_t close = text.find("*/", i + 2);
      i = close == std::string_view::npos ? n : close + 1;
      continue;
    }
    if (c == '"') {
      for (++i; i < n && text[i] != '"' && text[i] != '\n' && text[i] != '\r'; ++i)
        if (text[i] == '\\' && i + 1 < n && text[i + 1] != '\n' && text[i + 1] != '\r')
          ++i;
      continue;
    }
    switch (c) {
    case '(':
    case '[':
    case '{':
      ++depth;
      break;
    case ')':
    case ']':
      if (depth > 0)
        --depth;
      break;
    case '}':
      if (depth > 0)
        --depth;
      if (depth == 0)
        cut(i + 1);
      break;
    case ';':
      if (depth == 0)
        cut(i + 1);
      break;
    default:
      break;
    }
  }
  if (start < n)
    cut(n);
  return pieces;
}

} // namespace blk
