//===- LineIndex.h - LSP positions <-> byte offsets ------------*- C++ -*-===//
//
// LSP positions are 0-based lines and 0-based columns counted in UTF-16 code
// units; the compiler counts bytes of UTF-8. A LineIndex over one text
// converts both ways. Invalid UTF-8 bytes count as one unit each, and
// positions past a line's end clamp to it, so no input can make a
// conversion fail. Tests: tests/lit/lsp/lsp_e2e.py (non-ASCII line).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LSP_LINEINDEX_H
#define BLK_LSP_LINEINDEX_H

#include <cstdint>
#include <string_view>
#include <vector>

namespace blk::lsp {

/// A 0-based line and UTF-16 column.
struct Position {
  unsigned line = 0;
  unsigned character = 0;
  friend bool operator==(const Position &, const Position &) = default;
};

/// Maps byte offsets of one text to LSP positions and back. Keeps a view of
/// the text: the text must outlive the index.
class LineIndex {
public:
  explicit LineIndex(std::string_view text);

  /// The position of byte `offset` (clamped to the text's end).
  Position position(uint32_t offset) const;
  /// The byte offset of `pos` (line and column clamped).
  uint32_t offset(Position pos) const;
  unsigned numLines() const { return unsigned(lineStarts.size()); }

private:
  std::string_view text;
  std::vector<uint32_t> lineStarts;
  /// End of line `line` (before its "\n" or "\r\n").
  uint32_t lineEnd(unsigned line) const;
};

} // namespace blk::lsp

#endif // BLK_LSP_LINEINDEX_H
