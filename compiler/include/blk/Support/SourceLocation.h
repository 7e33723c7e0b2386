//===- SourceLocation.h - Positions in source buffers ----------*- C++ -*-===//
//
// A SourceLoc is a byte offset into one buffer of a SourceManager; a
// SourceRange is a half-open byte range [begin, end) inside one buffer.
// Both are plain values (no pointers), so AST nodes and diagnostics can copy
// them freely. Line/column lookup lives in SourceManager.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_SUPPORT_SOURCELOCATION_H
#define BLK_SUPPORT_SOURCELOCATION_H

#include <cstdint>

namespace blk {

/// Identifies one buffer owned by a SourceManager. 0 means "no file".
using FileId = uint32_t;

/// A byte offset into one source buffer.
struct SourceLoc {
  FileId file = 0;
  uint32_t offset = 0;

  bool isValid() const { return file != 0; }
  friend bool operator==(const SourceLoc &, const SourceLoc &) = default;
};

/// A half-open byte range [begin, end) inside one source buffer.
struct SourceRange {
  SourceLoc begin;
  SourceLoc end;

  SourceRange() = default;
  SourceRange(SourceLoc b, SourceLoc e) : begin(b), end(e) {}
  /// A range of `length` bytes starting at `offset` in `file`.
  SourceRange(FileId file, uint32_t offset, uint32_t length)
      : begin{file, offset}, end{file, offset + length} {}

  bool isValid() const { return begin.isValid(); }
  uint32_t length() const { return end.offset - begin.offset; }
  /// The smallest range covering both `a` and `b` (same file assumed).
  static SourceRange join(SourceRange a, SourceRange b) {
    if (!a.isValid())
      return b;
    if (!b.isValid())
      return a;
    SourceRange r = a;
    if (b.begin.offset < r.begin.offset)
      r.begin = b.begin;
    if (b.end.offset > r.end.offset)
      r.end = b.end;
    return r;
  }
  friend bool operator==(const SourceRange &, const SourceRange &) = default;
};

} // namespace blk

#endif // BLK_SUPPORT_SOURCELOCATION_H
