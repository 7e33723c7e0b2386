//===- Verify.cpp - `--verify`: expected diagnostics in comments ----------===//
#include "blk/Driver/Verify.h"

#include <algorithm>
#include <cctype>

using namespace blk;

namespace {

struct Directive {
  Severity severity;
  unsigned line = 0; // 0: any line (`@*`)
  std::string text;
  SourceRange where;
};

struct Emitted {
  Severity severity;
  SourceRange range;
  const std::string *message;
  bool matched = false;
};

class DirectiveParser {
public:
  DirectiveParser(const SourceManager &sm, FileId file, DiagnosticEngine &out)
      : sm(sm), file(file), text(sm.getText(file)), out(out) {}

  /// Collects every directive; false if one was malformed (reported).
  bool parse(std::vector<Directive> &directives, bool &noDiagnostics) {
    static constexpr std::string_view kPrefix = "expected-";
    bool ok = true;
    for (size_t pos = text.find(kPrefix); pos != std::string_view::npos;
         pos = text.find(kPrefix, pos + 1)) {
      size_t p = pos + kPrefix.size();
      if (text.substr(p, 14) == "no-diagnostics") {
        noDiagnostics = true;
        continue;
      }
      Directive d;
      if (!parseOne(pos, p, d)) {
        ok = false;
        continue;
      }
      directives.push_back(std::move(d));
    }
    return ok;
  }

private:
  bool malformed(size_t begin, size_t end, const std::string &why) {
    out.report(DiagId::verify_malformed,
               SourceRange(SourceLoc{file, static_cast<uint32_t>(begin)},
                           SourceLoc{file, static_cast<uint32_t>(end)}),
               {why});
    return false;
  }

  bool parseOne(size_t begin, size_t p, Directive &d) {
    size_t wordEnd = p;
    while (wordEnd < text.size() &&
           std::isalpha(static_cast<unsigned char>(text[wordEnd])))
      ++wordEnd;
    std::string_view kind = text.substr(p, wordEnd - p);
    if (kind == "error")
      d.severity = Severity::Error;
    else if (kind == "warning")
      d.severity = Severity::Warning;
    else if (kind == "note")
      d.severity = Severity::Note;
    else
      return malformed(begin, wordEnd,
                       "unknown kind `expected-" + std::string(kind) + "`");
    unsigned directiveLine =
        sm.getLineCol(SourceLoc{file, static_cast<uint32_t>(begin)}).line;
    d.line = directiveLine;
    p = wordEnd;
    if (p < text.size() && text[p] == '@') {
      ++p;
      if (p < text.size() && text[p] == '*') {
        d.line = 0;
        ++p;
      } else {
        char sign = (p < text.size() && (text[p] == '+' || text[p] == '-'))
                        ? text[p++]
                        : 0;
        size_t digits = p;
        long n = 0;
        while (p < text.size() &&
               std::isdigit(static_cast<unsigned char>(text[p])) && n < 1000000)
          n = n * 10 + (text[p++] - '0');
        if (p == digits)
          return malformed(
              begin, p,
              "expected a line after `@` (`@+N`, `@-N`, `@N` or `@*`)");
        long line = sign == '+'   ? long(directiveLine) + n
                    : sign == '-' ? long(directiveLine) - n
                                  : n;
        if (line < 1)
          return malformed(
              begin, p, "line " + std::to_string(line) + " is before the file");
        d.line = static_cast<unsigned>(line);
      }
    }
    while (p < text.size() && (text[p] == ' ' || text[p] == '\t'))
      ++p;
    if (text.substr(p, 2) != "{{")
      return malformed(
          begin, p, "expected `{{` after `expected-" + std::string(kind) + "`");
    size_t close = text.find("}}", p + 2);
    size_t eol = text.find('\n', p);
    if (close == std::string_view::npos ||
        (eol != std::string_view::npos && close > eol))
      return malformed(begin, p + 2, "missing `}}` on the same line");
    d.text = std::string(text.substr(p + 2, close - p - 2));
    d.where = SourceRange(SourceLoc{file, static_cast<uint32_t>(begin)},
                          SourceLoc{file, static_cast<uint32_t>(close + 2)});
    return true;
  }

  const SourceManager &sm;
  FileId file;
  std::string_view text;
  DiagnosticEngine &out;
};

bool matches(const SourceManager &sm, FileId file, const Directive &d,
             const Emitted &e) {
  if (e.matched || e.severity != d.severity)
    return false;
  if (d.line != 0) {
    if (!e.range.isValid() || e.range.begin.file != file ||
        sm.getLineCol(e.range.begin).line != d.line)
      return false;
  }
  return e.message->find(d.text) != std::string::npos;
}

} // namespace

bool blk::verifyDiagnostics(const SourceManager &sm, FileId file,
                            const std::vector<Diagnostic> &emitted,
                            DiagnosticEngine &out) {
  std::vector<Directive> directives;
  bool noDiagnostics = false;
  bool ok = DirectiveParser(sm, file, out).parse(directives, noDiagnostics);

  std::vector<Emitted> items;
  for (const Diagnostic &d : emitted) {
    items.push_back({d.severity, d.range, &d.message});
    for (const DiagnosticNote &n : d.notes)
      items.push_back({Severity::Note, n.range, &n.message});
  }
  if (directives.empty() && !noDiagnostics && ok) {
    out.report(DiagId::verify_no_directives, SourceRange(file, 0, 0));
    ok = false;
  }
  // Line-specific directives first, so `@*` ones cannot steal their match.
  std::stable_sort(directives.begin(), directives.end(),
                   [](const Directive &a, const Directive &b) {
                     return a.line != 0 && b.line == 0;
                   });
  for (const Directive &d : directives) {
    auto it = std::find_if(items.begin(), items.end(), [&](const Emitted &e) {
      return matches(sm, file, d, e);
    });
    if (it != items.end()) {
      it->matched = true;
      continue;
    }
    std::string where = d.line ? "line " + std::to_string(d.line) : "any line";
    out.report(DiagId::verify_not_seen, d.where,
               {std::string(severityName(d.severity)), where, d.text});
    ok = false;
  }
  for (const Emitted &e : items) {
    if (e.matched)
      continue;
    out.report(DiagId::verify_unexpected, e.range,
               {std::string(severityName(e.severity)), *e.message});
    ok = false;
  }
  return ok;
}
