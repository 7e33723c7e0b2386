//===- EditMap.h - Offsets across the edits of a document -------*- C++ -*-===//
//
// Maps byte offsets between an old version of a document and a newer one
// after any number of edits. It keeps the runs of text that no edit has
// touched (spans, in order in both versions) and is updated edit by edit:
// each edit is the region left between the common prefix and suffix of
// two consecutive versions, so edits at several places stay precise.
// An offset in a run maps exactly; one in edited text maps to the nearest
// untouched place: a position to where the edited text begins, a range end
// to where it ends, so a mapped range keeps covering the edit.
// The language server maps requests on a half-typed declaration into the
// last version that parsed, and the answers back.
// Tests: tests/unit/Lsp/EditMapTest.cpp, tests/lit/lsp/lsp_e2e.py.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LSP_EDITMAP_H
#define BLK_LSP_EDITMAP_H

#include <cstdint>
#include <string_view>
#include <vector>

namespace blk::lsp {

/// Maps byte offsets between an old and a new version of a text.
class EditMap {
public:
  /// No edit yet: the identity on a text of `length` bytes.
  explicit EditMap(uint32_t length = 0);

  /// Adds one more edit: the map went old -> `before`; it now goes old ->
  /// `after`. `before` must be the map's current new text.
  void apply(std::string_view before, std::string_view after);

  /// The old offset of `newOffset`.
  uint32_t toOld(uint32_t newOffset) const;
  /// The new offset of `oldOffset`; `atEnd` when it ends a range.
  uint32_t toNew(uint32_t oldOffset, bool atEnd = false) const;

  /// Number of untouched runs (one per edit, plus one).
  size_t numSpans() const { return spans.size(); }

private:
  /// `length` bytes equal in both versions, at `oldBegin` and `newBegin`.
  struct Span {
    uint32_t oldBegin;
    uint32_t newBegin;
    uint32_t length;
  };
  std::vector<Span> spans;
  uint32_t oldLength = 0;
  uint32_t newLength = 0;
};

} // namespace blk::lsp

#endif // BLK_LSP_EDITMAP_H
