//===- SourceManager.cpp - Owns source buffers ----------------------------===//
#include "blk/Support/SourceManager.h"

#include "blk/Support/InternalError.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace blk;

FileId SourceManager::addBuffer(std::string path, std::string text) {
  auto buf = std::make_unique<Buffer>();
  buf->path = std::move(path);
  buf->text = std::move(text);
  buf->lineStarts.push_back(0);
  const std::string &t = buf->text;
  for (size_t i = 0, e = t.size(); i < e; ++i)
    if (t[i] == '\n')
      buf->lineStarts.push_back(static_cast<uint32_t>(i + 1));
  buffers.push_back(std::move(buf));
  return static_cast<FileId>(buffers.size());
}

FileId SourceManager::loadFile(const std::string &path, std::string &error) {
  // Refuse huge files before reading them (offsets are 32-bit).
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec) &&
      std::filesystem::file_size(path, ec) > kMaxBufferSize && !ec) {
    error = "`" + path + "` is too large (the limit is 1 GiB)";
    return 0;
  }
  if (std::filesystem::is_directory(path, ec)) {
    error = "`" + path + "` is a directory";
    return 0;
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    error = "cannot open `" + path + "`: " + std::strerror(errno);
    return 0;
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) {
    error = "cannot read `" + path + "`";
    return 0;
  }
  return addBuffer(path, ss.str());
}

FileId SourceManager::findFile(std::string_view path) const {
  for (size_t i = 0; i < buffers.size(); ++i)
    if (buffers[i]->path == path)
      return static_cast<FileId>(i + 1);
  return 0;
}

const SourceManager::Buffer &SourceManager::get(FileId file) const {
  if (file == 0 || file > buffers.size())
    internalError("source manager", "invalid file id " + std::to_string(file));
  return *buffers[file - 1];
}

std::string_view SourceManager::getText(FileId file) const {
  return get(file).text;
}

const std::string &SourceManager::getPath(FileId file) const {
  return get(file).path;
}

LineCol SourceManager::getLineCol(SourceLoc loc) const {
  const Buffer &b = get(loc.file);
  uint32_t off =
      std::min<uint32_t>(loc.offset, static_cast<uint32_t>(b.text.size()));
  auto it = std::upper_bound(b.lineStarts.begin(), b.lineStarts.end(), off);
  unsigned line = static_cast<unsigned>(it - b.lineStarts.begin());
  return {line, off - b.lineStarts[line - 1] + 1};
}

std::string_view SourceManager::getLineText(FileId file, unsigned line) const {
  const Buffer &b = get(file);
  if (line == 0 || line > b.lineStarts.size())
    return {};
  size_t begin = b.lineStarts[line - 1];
  size_t end =
      line < b.lineStarts.size() ? b.lineStarts[line] - 1 : b.text.size();
  std::string_view text(b.text.data() + begin, end - begin);
  if (!text.empty() && text.back() == '\r')
    text.remove_suffix(1);
  return text;
}

unsigned SourceManager::numLines(FileId file) const {
  const Buffer &b = get(file);
  unsigned n = static_cast<unsigned>(b.lineStarts.size());
  // A trailing '\n' starts an empty last "line" that nobody counts.
  if (n > 1 && b.lineStarts.back() == b.text.size())
    --n;
  return n;
}

SourceLoc SourceManager::getLoc(FileId file, unsigned line,
                                unsigned col) const {
  const Buffer &b = get(file);
  line =
      std::clamp<unsigned>(line, 1, static_cast<unsigned>(b.lineStarts.size()));
  uint32_t off = b.lineStarts[line - 1] + (col > 0 ? col - 1 : 0);
  return {file, std::min<uint32_t>(off, static_cast<uint32_t>(b.text.size()))};
}
