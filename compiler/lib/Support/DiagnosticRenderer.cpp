//===- DiagnosticRenderer.cpp - Text and JSON output of diagnostics -------===//
//
// The text renderer sanitises each source line it prints (control bytes and
// invalid UTF-8 become `?`) and maps byte columns to display columns, so
// carets stay aligned under tabs and multi-byte characters; very long lines
// are shown as a window around the primary range. Each label's message is
// written under its own range (rustc style, `|` leading down to it); labels
// inside the primary range get a row of marks of their own, so `a + b`
// shows which operand has which shape. Tests:
// tests/unit/Support/RendererTest.cpp, tests/lit/sema/render_labels.blk.
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

/// What a mark or message is, for colour.
enum class Ink : uint8_t { Plain, Primary, Label, FixIt };

/// ANSI colours as clang and rustc use them; all empty when off.
struct Palette {
  bool on = false;
  std::string_view code(Ink ink) const {
    if (!on)
      return "";
    switch (ink) {
    case Ink::Primary:
      return "\033[1;32m";
    case Ink::Label:
      return "\033[1;34m";
    case Ink::FixIt:
      return "\033[32m";
    case Ink::Plain:
      break;
    }
    return "";
  }
  std::string_view severity(Severity s) const {
    if (!on)
      return "";
    return s == Severity::Error ? "\033[1;31m" : s == Severity::Warning ? "\033[1;35m" : "\033[1;36m";
  }
  std::string_view bold() const { return on ? "\033[1m" : ""; }
  std::string_view reset() const { return on ? "\033[0m" : ""; }
};

/// One line under the source line, built column by column: marks (`^~`,
/// `~`, `|`) at display columns, then optionally a message.
struct MarkLine {
  std::string marks;
  std::vector<Ink> ink;
  std::string message;
  Ink messageInk = Ink::Plain;
  const ShownLine &shown;
  explicit MarkLine(const ShownLine &s) : shown(s) {}
  void padTo(size_t c) {
    while (marks.size() < c) {
      marks += (marks.size() < shown.isTab.size() && shown.isTab[marks.size()]) ? '\t' : ' ';
      ink.push_back(Ink::Plain);
    }
  }
  void put(size_t from, size_t to, char first, char rest, Ink what) {
    if (to <= from)
      to = from + 1;
    for (size_t c = from; c < to; ++c) {
      padTo(c);
      char m = c == from ? first : rest;
      if (marks.size() == c) {
        marks += m;
        ink.push_back(what);
      } else if (marks[c] == ' ' || marks[c] == '\t' || m == '^') {
        marks[c] = m;
        ink[c] = what;
      }
    }
  }
  void print(std::ostream &os, const Palette &p) const {
    for (size_t c = 0; c < marks.size();) {
      size_t run = c;
      while (run < marks.size() && ink[run] == ink[c])
        ++run;
      std::string_view code = p.code(ink[c]);
      os << code << std::string_view(marks).substr(c, run - c) << (code.empty() ? "" : p.reset());
      c = run;
    }
    if (!message.empty()) {
      std::string_view code = p.code(messageInk);
      os << (marks.empty() ? "" : " ") << code << message << (code.empty() ? "" : p.reset());
    }
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

/// A label on the primary's line, in display columns.
struct PlacedLabel {
  size_t from, to;
  const std::string *message;
};

/// Prints label messages under their marks, rustc style: the rightmost one
/// after the marks when nothing is to its right, each other one at the
/// start of its own range, with `|` leading down to it.
void printLabelled(std::vector<PlacedLabel> labels, MarkLine row, const Palette &p,
                   std::ostream &os) {
  if (!labels.empty()) {
    bool rightmost = true;
    for (size_t c = labels.back().to; c < row.marks.size(); ++c)
      rightmost &= row.marks[c] == ' ' || row.marks[c] == '\t';
    if (rightmost) {
      row.message = *labels.back().message;
      row.messageInk = Ink::Label;
      labels.pop_back();
    }
  }
  os << kEmptyGutter;
  row.print(os, p);
  os << "\n";
  if (labels.empty())
    return;
  auto connectors = [&](size_t count) {
    MarkLine line(row.shown);
    for (size_t i = 0; i < count; ++i)
      line.put(labels[i].from, labels[i].from + 1, '|', '|', Ink::Label);
    return line;
  };
  MarkLine bars = connectors(labels.size());
  os << kEmptyGutter;
  bars.print(os, p);
  os << "\n";
  for (size_t i = labels.size(); i-- > 0;) {
    MarkLine line = connectors(i);
    line.padTo(labels[i].from);
    std::string_view code = p.code(Ink::Label);
    os << kEmptyGutter;
    line.print(os, p);
    os << code << *labels[i].message << (code.empty() ? "" : p.reset()) << "\n";
  }
}

/// Prints the line of `primary` with carets, the labels on that line (each
/// message under its own range), the fix-its on that line; labels on other
/// lines get their own snippet.
void renderSnippets(const SourceManager &sm, SourceRange primary,
                    const std::vector<DiagnosticLabel> &labels,
                    const std::vector<FixIt> &fixIts, const Palette &p,
                    std::ostream &os) {
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
  MarkLine carets(shown);
  auto [pb, pe] = clip(primary, lineBegin, lineEnd);
  size_t primaryFrom = shown.column[pb], primaryTo = std::max(shown.column[pe], primaryFrom + 1);
  carets.put(primaryFrom, primaryTo, '^', '~', Ink::Primary);

  std::vector<const DiagnosticLabel *> sameLine, otherLines;
  for (const DiagnosticLabel &l : labels) {
    if (!l.range.isValid())
      continue;
    bool same = l.range.begin.file == file &&
                l.range.begin.offset >= lineBegin &&
                l.range.begin.offset <= lineEnd;
    (same ? sameLine : otherLines).push_back(&l);
  }
  std::stable_sort(sameLine.begin(), sameLine.end(), [](auto *a, auto *b) {
    return a->range.begin.offset < b->range.begin.offset;
  });
  std::vector<PlacedLabel> placed;
  bool overlaps = false; // a label inside the primary range would be hidden
  for (const DiagnosticLabel *l : sameLine) {
    auto [b, e] = clip(l->range, lineBegin, lineEnd);
    size_t from = shown.column[b], to = std::max(shown.column[e], from + 1);
    placed.push_back({from, to, &l->message});
    bool same = from == primaryFrom && to == primaryTo;
    overlaps |= !same && from < primaryTo && to > primaryFrom;
  }
  os << gutter(lc.line) << shown.text << "\n";
  MarkLine labelRow(shown);
  for (const PlacedLabel &l : placed) {
    bool same = l.from == primaryFrom && l.to == primaryTo;
    if (!same)
      (overlaps ? labelRow : carets).put(l.from, l.to, '~', '~', Ink::Label);
  }
  if (overlaps) {
    // Carets first, then the labels on a row of their own, under each
    // operand: `a + b` shows which shape is whose.
    std::vector<PlacedLabel> own, inside;
    for (const PlacedLabel &l : placed)
      (l.from == primaryFrom && l.to == primaryTo ? own : inside).push_back(l);
    printLabelled(own, carets, p, os);
    printLabelled(inside, labelRow, p, os);
  } else {
    printLabelled(placed, carets, p, os);
  }
  for (const FixIt &f : fixIts) {
    if (f.range.begin.file != file || f.range.begin.offset < lineBegin ||
        f.range.begin.offset > lineEnd)
      continue;
    auto [b, e] = clip(f.range, lineBegin, lineEnd);
    MarkLine pad(shown);
    pad.padTo(shown.column[b]);
    os << kEmptyGutter << pad.marks << p.code(Ink::FixIt) << f.replacement
       << (p.on ? p.reset() : "") << "\n";
  }
  for (const DiagnosticLabel *l : otherLines) {
    LineCol llc = sm.getLineCol(l->range.begin);
    std::string_view other = sm.getLineText(l->range.begin.file, llc.line);
    size_t ob = l->range.begin.offset - (llc.col - 1);
    ShownLine oshown = showLine(other, 0);
    MarkLine omarks(oshown);
    auto [b, e] = clip(l->range, ob, ob + other.size());
    omarks.put(oshown.column[b], oshown.column[e], '~', '~', Ink::Label);
    omarks.message = l->message;
    omarks.messageInk = Ink::Label;
    if (l->range.begin.file != file)
      os << location(sm, l->range.begin) << ":\n";
    os << gutter(llc.line) << oshown.text << "\n" << kEmptyGutter;
    omarks.print(os, p);
    os << "\n";
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
                     std::ostream &os, const TextStyle &style) {
  Palette p{style.color};
  auto heading = [&](SourceRange range, Severity severity, const std::string &message) {
    if (range.isValid())
      os << p.bold() << location(sm, range.begin) << ": " << p.reset();
    os << p.severity(severity) << severityName(severity) << ": " << p.reset() << p.bold()
       << message << p.reset() << "\n";
  };
  heading(diag.range, diag.severity, diag.message);
  if (diag.range.isValid())
    renderSnippets(sm, diag.range, diag.labels, diag.fixIts, p, os);
  for (const DiagnosticNote &note : diag.notes) {
    heading(note.range, Severity::Note, note.message);
    if (note.range.isValid())
      renderSnippets(sm, note.range, {}, {}, p, os);
  }
}

bool blk::shouldColor(ColorMode mode, bool isTerminal, const char *noColor) {
  if (mode != ColorMode::Auto)
    return mode == ColorMode::Always;
  return isTerminal && (!noColor || !*noColor);
}

void blk::renderText(const std::vector<Diagnostic> &diags,
                     const SourceManager &sm, std::ostream &os,
                     const TextStyle &style) {
  for (const Diagnostic &d : diags)
    renderText(d, sm, os, style);
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
