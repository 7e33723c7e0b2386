//===- Literals.h - Decoding of literal spellings --------------*- C++ -*-===//
//
// Pure functions shared by the AST builder and its unit tests: integer
// literals (decimal, 0x, 0b, `_` separators), float literals and the
// escapes of string literals.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_PARSE_LITERALS_H
#define BLK_PARSE_LITERALS_H

#include <cstdint>
#include <string>
#include <string_view>

namespace blk {

enum class IntLiteralStatus { Ok, Malformed, TooLarge };

/// Parses an integer literal spelling into `value`.
IntLiteralStatus parseIntLiteral(std::string_view spelling, uint64_t &value);

/// Parses a float literal spelling (`1.0`, `1e-5`, `.5`, `1_000.5`).
/// Returns false when the spelling is malformed (e.g. `1._5`... is accepted;
/// only a spelling strtod cannot read fully is refused).
bool parseFloatLiteral(std::string_view spelling, double &value);

/// Decodes the escapes of a string literal's body (without the quotes):
/// \n \t \r \0 \\ \" \'. On an unknown escape returns false and sets
/// `badOffset` to the offset of its backslash in `body`.
bool decodeStringLiteral(std::string_view body, std::string &out,
                         size_t &badOffset);

} // namespace blk

#endif // BLK_PARSE_LITERALS_H
