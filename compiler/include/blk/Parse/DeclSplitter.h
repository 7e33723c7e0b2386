//===- DeclSplitter.h - Top-level declarations without parsing -*- C++ -*-===//
//
// The language server re-parses only the declarations an edit touched
// (docs/architecture.md, "Language server"). It finds them with this byte
// scanner, which knows no grammar: it skips comments and strings and counts
// brackets, and a piece ends after a `;` or `}` that leaves it at depth 0.
// Every declaration of a file that parses ends so (`import …;`,
// `const …;`, `fn …{…}`, `kernel …{…}`, attributes included), so the pieces
// of such a file are its declarations, each with the comments and blank
// lines before it. A file that does not parse still splits somewhere, and
// each piece is parsed (and its errors reported) on its own.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_PARSE_DECLSPLITTER_H
#define BLK_PARSE_DECLSPLITTER_H

#include <cstdint>
#include <string_view>
#include <vector>

namespace blk {

/// A half-open byte range [begin, end) of a buffer.
struct ByteSpan {
  uint32_t begin = 0;
  uint32_t end = 0;
  friend bool operator==(const ByteSpan &, const ByteSpan &) = default;
};

/// Consecutive pieces covering all of `text` (none when it is empty): each
/// ends after a top-level `;` or a `}` that closes depth 0, the last one at
/// the end of the text. An unclosed `{` makes its piece run to the end.
std::vector<ByteSpan> splitTopLevelDecls(std::string_view text);

} // namespace blk

#endif // BLK_PARSE_DECLSPLITTER_H
