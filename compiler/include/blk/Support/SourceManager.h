//===- SourceManager.h - Owns source buffers -------------------*- C++ -*-===//
//
// Owns the text of every file the compiler reads (the main file, imports,
// in-memory buffers from the language server) and maps byte offsets to
// 1-based line and column numbers. Columns count bytes, like GCC's default.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_SUPPORT_SOURCEMANAGER_H
#define BLK_SUPPORT_SOURCEMANAGER_H

#include "blk/Support/SourceLocation.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace blk {

/// A 1-based line and byte column.
struct LineCol {
  unsigned line = 0;
  unsigned col = 0;
};

/// Owns source buffers; FileIds are 1, 2, … in the order of addition.
class SourceManager {
public:
  /// Largest buffer accepted (offsets are 32-bit).
  static constexpr size_t kMaxBufferSize = size_t(1) << 30;

  /// Adds an in-memory buffer. `path` is the name diagnostics print.
  FileId addBuffer(std::string path, std::string text);
  /// Reads `path` from disk. Returns 0 and sets `error` (lowercase, no
  /// final period) when the file cannot be read or is too large.
  FileId loadFile(const std::string &path, std::string &error);
  /// The FileId of an already loaded `path`, or 0.
  FileId findFile(std::string_view path) const;

  std::string_view getText(FileId file) const;
  const std::string &getPath(FileId file) const;
  size_t numFiles() const { return buffers.size(); }

  /// 1-based line and byte column of `loc` (offsets past the end clamp).
  LineCol getLineCol(SourceLoc loc) const;
  /// Text of 1-based `line` without its line terminator.
  std::string_view getLineText(FileId file, unsigned line) const;
  /// Number of lines in `file` (a final line without '\n' counts).
  unsigned numLines(FileId file) const;
  /// Location of 1-based `line`/`col` in `file` (clamped to the buffer).
  SourceLoc getLoc(FileId file, unsigned line, unsigned col) const;

private:
  struct Buffer {
    std::string path;
    std::string text;
    std::vector<uint32_t> lineStarts; // offset of the first byte of each line
  };
  const Buffer &get(FileId file) const;
  std::vector<std::unique_ptr<Buffer>> buffers;
};

} // namespace blk

#endif // BLK_SUPPORT_SOURCEMANAGER_H
