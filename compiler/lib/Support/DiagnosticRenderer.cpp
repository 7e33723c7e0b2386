//===- DiagnosticRenderer.cpp - Text and JSON output of diagnostics -------===//
//
// The text renderer sanitises each source line it prints (control bytes and
// invalid UTF-8 become `?`) and maps byte columns to display columns, so
// carets stay aligned under tabs and multi-byte characters; very long lines
// are shown as a window around the primary range.
//
//===----------------------------------------------------------------------===//
#include "blk/Support/DiagnosticRenderer.h"

#include "blk/Support/SourceManager.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>

using namespace blk;

namespace {

/// Length of the valid UTF-8 sequence starting at s[i], or 0.
size_t utf8Length(std::string_view s, size_t i) {
  auto c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80           ? 1
             : (c >> 5) == 0x6  ? 2
             : (c >> 4) == 0xE  ? 3
             : (c >> 3) == 0x1E ? 4
                                : 0;
  if (n == 0 || i + n > s.size())
    return 0;
  for (size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80)
      return 0;
  return n;
}

/// A source line made printable, with the display column of each byte.
struct ShownLine {
  std::string text;
  std::vector<size_t> column; // column[b]: display column of byte b; size+1
  std::vector<char> isTab;    // per display column
};

constexpr size_t kWindow = 200;

ShownLine showLine(std::string_view line, size_t windowBegin) {
  ShownLine out;
  out.column.assign(line.size() + 1, 0);
  size_t col = 0;
  if (windowBegin > 0) {
    out.text = "...";
    out.isTab.assign(3, 0);
    col = 3;
  }
  size_t windowEnd = std::min(line.size(), windowBegin + kWindow);
  for (size_t i = 0; i < line.size();) {
    if (i < windowBegin || i >= windowEnd) {
      out.column[i] = col;
      ++i;
      continue;
    }
    size_t n = utf8Length(line, i);
    auto c = static_cast<unsigned char>(line[i]);
    for (size_t k = 0; k < std::max<size_t>(n, 1); ++k)
      out.column[i + k] = col;
    if (c == '\t') {
      out.text += '\t';
      out.isTab.push_back(1);
    } else if (n == 0 || (n == 1 && (c < 0x20 || c == 0x7F))) {
      out.text += '?';
      out.isTab.push_back(0);
    } else {
      out.text.append(line.substr(i, n));
      out.isTab.push_back(0);
    }
    ++col;
    i += std::max<size_t>(n, 1);
  }
  out.column[line.size()] = col;
  if (windowEnd < line.size())
    out.text += "...";
  return out;
}

/// One line of marks, built column by column.
struct MarkLine {
  std::string marks;
  const ShownLine &shown;
  explicit MarkLine(const ShownLine &s) : shown(s) {}
  void put(size_t from, size_t to, char first, char rest) {
    if (to <= from)
      to = from + 1;
    for (size_t c = from; c < to; ++c) {
      while (marks.size() < c)
        marks +=
            (marks.size() < shown.isTab.size() && shown.isTab[marks.size()])
                ? '\t'
                : ' ';
      char m = c == from ? first : rest;
      if (marks.size() == c)
        marks += m;
      else if (marks[c] == ' ' || marks[c] == '\t' || m == '^')
        marks[c] = m;
    }
  }
  std::string pad(size_t to) const {
    std::string s;
    for (size_t c = 0; c < to; ++c)
      s += (c < shown.isTab.size() && shown.isTab[c]) ? '\t' : ' ';
    return s;
  }
};

std::string location(const SourceManager &sm, SourceLoc loc) {
  LineCol lc = sm.getLineCol(loc);
  return sm.getPath(loc.file) + ":" + std::to_string(lc.line) + ":" +
         std::to_string(lc.col);
}

std::string gutter(unsigned line) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%5u | ", line);
  return buf;
}
const char *kEmptyGutter = "      | ";

/// Byte offsets of `range` clipped to the line [lineBegin, lineEnd].
std::pair<size_t, size_t> clip(SourceRange range, size_t lineBegin,
                               size_t lineEnd) {
  size_t b =
      std::clamp<size_t>(range.begin.offset, lineBegin, lineEnd) - lineBegin;
  size_t e =
      std::clamp<size_t>(range.end.offset, lineBegin, lineEnd) - lineBegin;
  return {b, std::max(b, e)};
}

/// Prints the line of `primary` with carets, the labels on that line, the
/// fix-its on that line; labels on other lines get their own snippet.
void renderSnippets(const SourceManager &sm, SourceRange primary,
                    const std::vector<DiagnosticLabel> &labels,
                    const std::vector<FixIt> &fixIts, std::ostream &os) {
  FileId file = primary.begin.file;
  LineCol lc = sm.getLineCol(primary.begin);
  std::string_view line = sm.getLineText(file, lc.line);
  size_t lineBegin = primary.begin.offset - (lc.col - 1);
  size_t lineEnd = lineBegin + line.size();
  size_t windowBegin = 0;
  if (line.size() > kWindow && lc.col > kWindow / 4)
    windowBegin =
        std::min<size_t>(lc.col - 1 - kWindow / 4, line.size() - kWindow / 2);
  ShownLine shown = showLine(line, windowBegin);
  MarkLine marks(shown);
  auto [pb, pe] = clip(primary, lineBegin, lineEnd);
  marks.put(shown.column[pb], shown.column[pe], '^', '~');

  std::vector<const DiagnosticLabel *> sameLine, otherLines;
  for (const DiagnosticLabel &l : labels) {
    if (!l.range.isValid())
      continue;
    bool same = l.range.begin.file == file &&
                l.range.begin.offset >= lineBegin &&
                l.range.begin.offset <= lineEnd;
    (same ? sameLine : otherLines).push_back(&l);
  }
  std::sort(sameLine.begin(), sameLine.end(), [](auto *a, auto *b) {
    return a->range.begin.offset < b->range.begin.offset;
  });
  for (const DiagnosticLabel *l : sameLine) {
    auto [b, e] = clip(l->range, lineBegin, lineEnd);
    marks.put(shown.column[b], shown.column[e], '~', '~');
  }
  os << gutter(lc.line) << shown.text << "\n" << kEmptyGutter << marks.marks;
  // The rightmost label's message fits on the marks line; the others go below.
  if (!sameLine.empty() &&
      sameLine.back()->range.begin.offset >= primary.begin.offset) {
    os << " " << sameLine.back()->message;
    sameLine.pop_back();
  }
  os << "\n";
  for (const DiagnosticLabel *l : sameLine) {
    auto [b, e] = clip(l->range, lineBegin, lineEnd);
    os << kEmptyGutter << marks.pad(shown.column[b]) << l->message << "\n";
  }
  for (const FixIt &f : fixIts) {
    if (f.range.begin.file != file || f.range.begin.offset < lineBegin ||
        f.range.begin.offset > lineEnd)
      continue;
    auto [b, e] = clip(f.range, lineBegin, lineEnd);
    os << kEmptyGutter << marks.pad(shown.column[b]) << f.replacement << "\n";
  }
  for (const DiagnosticLabel *l : otherLines) {
    LineCol llc = sm.getLineCol(l->range.begin);
    std::string_view other = sm.getLineText(l->range.begin.file, llc.line);
    size_t ob = l->range.begin.offset - (llc.col - 1);
    ShownLine oshown = showLine(other, 0);
    MarkLine omarks(oshown);
    auto [b, e] = clip(l->range, ob, ob + other.size());
    omarks.put(oshown.column[b], oshown.column[e], '~', '~');
    if (l->range.begin.file != file)
      os << location(sm, l->range.begin) << ":\n";
    os << gutter(llc.line) << oshown.text << "\n"
       << kEmptyGutter << omarks.marks << " " << l->message << "\n";
  }
}

nlohmann::json jsonRange(const SourceManager &sm, SourceRange range) {
  nlohmann::json j = nlohmann::json::object();
  if (!range.isValid())
    return j;
  LineCol b = sm.getLineCol(range.begin);
  LineCol e = sm.getLineCol(range.end.isValid() ? range.end : range.begin);
  j["file"] = sm.getPath(range.begin.file);
  j["line"] = b.line;
  j["column"] = b.col;
  j["endLine"] = e.line;
  j["endColumn"] = e.col;
  return j;
}

/// JSON strings must be valid UTF-8; messages may quote invalid source bytes.
std::string validUtf8(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size();) {
    size_t n = utf8Length(s, i);
    if (n == 0) {
      out += '?';
      ++i;
      continue;
    }
    out.append(s.substr(i, n));
    i += n;
  }
  return out;
}

} // namespace

void blk::renderText(const Diagnostic &diag, const SourceManager &sm,
                     std::ostream &os) {
  if (diag.range.isValid())
    os << location(sm, diag.range.begin) << ": ";
  os << severityName(diag.severity) << ": " << diag.message << "\n";
  if (diag.range.isValid())
    renderSnippets(sm, diag.range, diag.labels, diag.fixIts, os);
  for (const DiagnosticNote &note : diag.notes) {
    if (note.range.isValid())
      os << location(sm, note.range.begin) << ": ";
    os << "note: " << note.message << "\n";
    if (note.range.isValid())
      renderSnippets(sm, note.range, {}, {}, os);
  }
}

void blk::renderText(const std::vector<Diagnostic> &diags,
                     const SourceManager &sm, std::ostream &os) {
  for (const Diagnostic &d : diags)
    renderText(d, sm, os);
}

std::string blk::renderJson(const std::vector<Diagnostic> &diags,
                            const SourceManager &sm) {
  nlohmann::json all = nlohmann::json::array();
  for (const Diagnostic &d : diags) {
    nlohmann::json j = jsonRange(sm, d.range);
    j["id"] = std::string(diagIdName(d.id));
    j["severity"] = std::string(severityName(d.severity));
    j["message"] = validUtf8(d.message);
    j["labels"] = nlohmann::json::array();
    for (const DiagnosticLabel &l : d.labels) {
      nlohmann::json lj = jsonRange(sm, l.range);
      lj["message"] = validUtf8(l.message);
      j["labels"].push_back(std::move(lj));
    }
    j["notes"] = nlohmann::json::array();
    for (const DiagnosticNote &n : d.notes) {
      nlohmann::json nj = jsonRange(sm, n.range);
      nj["id"] = std::string(diagIdName(n.id));
      nj["message"] = validUtf8(n.message);
      j["notes"].push_back(std::move(nj));
    }
    j["fixits"] = nlohmann::json::array();
    for (const FixIt &f : d.fixIts) {
      nlohmann::json fj = jsonRange(sm, f.range);
      fj["replacement"] = validUtf8(f.replacement);
      j["fixits"].push_back(std::move(fj));
    }
    all.push_back(std::move(j));
  }
  return all.dump(2);
}
