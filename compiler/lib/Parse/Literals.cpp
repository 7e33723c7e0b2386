//===- Literals.cpp - Decoding of literal spellings -----------------------===//
#include "blk/Parse/Literals.h"

#include <cstdlib>

using namespace blk;

static int digitValue(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return 99;
}

IntLiteralStatus blk::parseIntLiteral(std::string_view s, uint64_t &value) {
  unsigned base = 10;
  if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
    base = 16, s.remove_prefix(2);
  else if (s.size() >= 2 && s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
    base = 2, s.remove_prefix(2);
  value = 0;
  bool anyDigit = false, tooLarge = false;
  for (char c : s) {
    if (c == '_')
      continue;
    int d = digitValue(c);
    if (d >= static_cast<int>(base))
      return IntLiteralStatus::Malformed;
    anyDigit = true;
    if (value > (UINT64_MAX - static_cast<uint64_t>(d)) / base)
      tooLarge = true;
    value = value * base + static_cast<uint64_t>(d);
  }
  if (!anyDigit)
    return IntLiteralStatus::Malformed;
  return tooLarge ? IntLiteralStatus::TooLarge : IntLiteralStatus::Ok;
}

bool blk::parseFloatLiteral(std::string_view s, double &value) {
  std::string clean;
  for (char c : s)
    if (c != '_')
      clean += c;
  if (clean.empty())
    return false;
  char *end = nullptr;
  value = std::strtod(clean.c_str(), &end);
  return end == clean.c_str() + clean.size();
}

bool blk::decodeStringLiteral(std::string_view body, std::string &out,
                              size_t &badOffset) {
  out.clear();
  for (size_t i = 0; i < body.size(); ++i) {
    char c = body[i];
    if (c != '\\') {
      out += c;
      continue;
    }
    char e = i + 1 < body.size() ? body[i + 1] : '\0';
    switch (e) {
    case 'n':
      out += '\n';
      break;
    case 't':
      out += '\t';
      break;
    case 'r':
      out += '\r';
      break;
    case '0':
      out += '\0';
      break;
    case '\\':
      out += '\\';
      break;
    case '"':
      out += '"';
      break;
    case '\'':
      out += '\'';
      break;
    default:
      badOffset = i;
      return false;
    }
    ++i;
  }
  return true;
}
