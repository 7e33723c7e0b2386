//===- Utf8.h - Strict UTF-8 decoding and repair ----------------*- C++ -*-===//
//
// The strict reading of UTF-8 (RFC 3629) that JSON parsers apply: overlong
// forms, surrogates and values above U+10FFFF are invalid. The language
// server repairs client text with it before its JSON parser sees the text,
// so a buffer holding stray bytes still reaches the lexer, whose diagnostic
// then points at them; the parser's lexical check rejects the same bytes.
// Tests: tests/unit/Lsp/Utf8Test.cpp, tests/lit/parse (invalid UTF-8).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_SUPPORT_UTF8_H
#define BLK_SUPPORT_UTF8_H

#include <cstdint>
#include <string>
#include <string_view>

namespace blk {

/// Length of the valid UTF-8 sequence at `s[i]` (1 to 4) and its code point
/// in `cp`; 0 when the bytes there are not valid UTF-8.
inline size_t utf8SequenceLength(std::string_view s, size_t i, uint32_t &cp) {
  auto b = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  unsigned char c = b(0);
  size_t n = c < 0x80             ? 1
             : (c & 0xE0) == 0xC0 ? 2
             : (c & 0xF0) == 0xE0 ? 3
             : (c & 0xF8) == 0xF0 ? 4
                                  : 0;
  if (n == 0 || i + n > s.size())
    return 0;
  cp = n == 1 ? c : n == 2 ? (c & 0x1F) : n == 3 ? (c & 0x0F) : (c & 0x07);
  for (size_t k = 1; k < n; ++k) {
    if ((b(k) & 0xC0) != 0x80)
      return 0;
    cp = (cp << 6) | (b(k) & 0x3F);
  }
  static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return n;
}

/// `s` with each byte that starts no valid sequence replaced by U+FFFD.
/// Returns the number of replacements in `replaced` when given.
inline std::string repairUtf8(std::string_view s, size_t *replaced = nullptr) {
  static constexpr std::string_view kReplacement = "\xEF\xBF\xBD";
  std::string out;
  out.reserve(s.size());
  size_t count = 0;
  for (size_t i = 0; i < s.size();) {
    uint32_t cp = 0;
    size_t n = utf8SequenceLength(s, i, cp);
    if (n == 0) {
      out += kReplacement;
      ++count;
      ++i;
      continue;
    }
    out.append(s.substr(i, n));
    i += n;
  }
  if (replaced)
    *replaced = count;
  return out;
}

} // namespace blk

#endif // BLK_SUPPORT_UTF8_H
