//===- LineIndex.cpp - LSP positions <-> byte offsets ---------------------===//

#include "blk/Lsp/LineIndex.h"

#include <algorithm>

namespace blk::lsp {

/// Length in bytes of the UTF-8 sequence starting with `lead`, and the
/// number of UTF-16 units it encodes. Invalid lead bytes count as 1/1.
static void utf8Step(unsigned char lead, unsigned &bytes, unsigned &units) {
  units = 1;
  if (lead < 0x80)
    bytes = 1;
  else if ((lead & 0xE0) == 0xC0)
    bytes = 2;
  else if ((lead & 0xF0) == 0xE0)
    bytes = 3;
  else if ((lead & 0xF8) == 0xF0) {
    bytes = 4;
    units = 2; // outside the BMP: a surrogate pair
  } else
    bytes = 1;
}

LineIndex::LineIndex(std::string_view text) : text(text) {
  lineStarts.push_back(0);
  for (size_t i = 0; i < text.size(); ++i)
    if (text[i] == '\n')
      lineStarts.push_back(uint32_t(i + 1));
}

uint32_t LineIndex::lineEnd(unsigned line) const {
  uint32_t end = line + 1 < lineStarts.size() ? lineStarts[line + 1] - 1
                                              : uint32_t(text.size());
  if (end > lineStarts[line] && text[end - 1] == '\r')
    --end;
  return end;
}

Position LineIndex::position(uint32_t offset) const {
  offset = std::min<uint32_t>(offset, uint32_t(text.size()));
  auto it = std::upper_bound(lineStarts.begin(), lineStarts.end(), offset);
  unsigned line = unsigned(it - lineStarts.begin()) - 1;
  unsigned units = 0;
  uint32_t i = lineStarts[line];
  while (i < offset) {
    unsigned bytes, n;
    utf8Step(static_cast<unsigned char>(text[i]), bytes, n);
    // A sequence cut by `offset` counts as far as it goes.
    if (i + bytes > offset)
      bytes = offset - i;
    i += bytes;
    units += n;
  }
  return {line, units};
}

uint32_t LineIndex::offset(Position pos) const {
  if (pos.line >= lineStarts.size())
    return uint32_t(text.size());
  uint32_t i = lineStarts[pos.line];
  uint32_t end = lineEnd(pos.line);
  unsigned units = 0;
  while (i < end && units < pos.character) {
    unsigned bytes, n;
    utf8Step(static_cast<unsigned char>(text[i]), bytes, n);
    i = std::min<uint32_t>(i + bytes, end);
    units += n;
  }
  return i;
}

} // namespace blk::lsp
