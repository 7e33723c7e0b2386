//===- EditMap.cpp - Offsets across the edits of a document ---------------===//

#include "blk/Lsp/EditMap.h"

#include <algorithm>

namespace blk::lsp {

EditMap::EditMap(uint32_t length) : oldLength(length), newLength(length) {
  if (length)
    spans.push_back({0, 0, length});
}

void EditMap::apply(std::string_view before, std::string_view after) {
  uint32_t lenB = uint32_t(before.size()), lenA = uint32_t(after.size());
  uint32_t limit = std::min(lenB, lenA);
  uint32_t prefix = 0;
  while (prefix < limit && before[prefix] == after[prefix])
    ++prefix;
  // The suffix never overlaps the prefix in either text.
  uint32_t suffix = 0;
  while (suffix < limit - prefix &&
         before[lenB - 1 - suffix] == after[lenA - 1 - suffix])
    ++suffix;
  uint32_t editEnd = lenB - suffix; // in `before`
  int64_t delta = int64_t(lenA) - int64_t(lenB);

  std::vector<Span> next;
  for (const Span &s : spans) {
    uint32_t end = s.newBegin + s.length;
    if (s.newBegin < prefix)
      next.push_back(
          {s.oldBegin, s.newBegin, std::min(end, prefix) - s.newBegin});
    uint32_t from = std::max(s.newBegin, editEnd);
    if (from < end)
      next.push_back({s.oldBegin + (from - s.newBegin),
                      uint32_t(int64_t(from) + delta), end - from});
  }
  spans = std::move(next);
  newLength = lenA;
}

uint32_t EditMap::toOld(uint32_t newOffset) const {
  uint32_t gapStart = 0; // old offset where the edited text around it began
  for (const Span &s : spans) {
    if (newOffset < s.newBegin)
      break;
    if (newOffset < s.newBegin + s.length)
      return s.oldBegin + (newOffset - s.newBegin);
    gapStart = s.oldBegin + s.length;
  }
  return std::min(gapStart, oldLength);
}

uint32_t EditMap::toNew(uint32_t oldOffset, bool atEnd) const {
  uint32_t gapStart = 0; // new offset where the edit around it begins
  for (const Span &s : spans) {
    // A position belongs to the run it starts; a range end to the one it
    // closes.
    bool inside =
        atEnd ? s.oldBegin < oldOffset && oldOffset <= s.oldBegin + s.length
              : s.oldBegin <= oldOffset && oldOffset < s.oldBegin + s.length;
    if (inside)
      return s.newBegin + (oldOffset - s.oldBegin);
    if (oldOffset < s.oldBegin + (atEnd ? 1 : 0))
      return atEnd ? s.newBegin : gapStart;
    gapStart = s.newBegin + s.length;
  }
  return atEnd ? newLength : gapStart;
}

} // namespace blk::lsp
