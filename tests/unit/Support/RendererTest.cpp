//===- RendererTest.cpp - Text and JSON rendering of diagnostics ----------===//
#include "blk/Support/DiagnosticRenderer.h"
#include "blk/Support/SourceManager.h"

#include <nlohmann/json.hpp>

#include <gtest/gtest.h>

#include <sstream>

using namespace blk;

namespace {
std::string text(const DiagnosticEngine &diags, const SourceManager &sm) {
  std::ostringstream os;
  renderText(diags.getDiagnostics(), sm, os);
  return os.str();
}
} // namespace

TEST(Renderer, CaretsUnderTheWholeRangeAndLabels) {
  SourceManager sm;
  FileId f =
      sm.addBuffer("k.blk", "store(p, v, mask: m);\nlet m = offs < n;\n");
  DiagnosticEngine diags(sm);
  diags.report(DiagId::parse_unexpected, SourceRange(f, 18, 1), {"`m`"})
      .label(SourceRange(f, 6, 1), "pointer block")
      .label(SourceRange(f, 30, 8), "mask made here");
  EXPECT_EQ(text(diags, sm), "k.blk:1:19: error: unexpected `m`\n"
                             "    1 | store(p, v, mask: m);\n"
                             "      |       ~           ^\n"
                             "      |       |\n"
                             "      |       pointer block\n"
                             "    2 | let m = offs < n;\n"
                             "      |         ~~~~~~~~ mask made here\n");
}

TEST(Renderer, RightmostSameLineLabelIsInline) {
  SourceManager sm;
  FileId f = sm.addBuffer("k.blk", "a + b\n");
  DiagnosticEngine diags(sm);
  diags.report(DiagId::parse_unexpected, SourceRange(f, 0, 1), {"`a`"})
      .label(SourceRange(f, 4, 1), "this one");
  EXPECT_EQ(text(diags, sm), "k.blk:1:1: error: unexpected `a`\n"
                             "    1 | a + b\n"
                             "      | ^   ~ this one\n");
}

TEST(Renderer, LabelsInsideThePrimaryRangeGoUnderTheirOperands) {
  // `a + b` with the primary on the whole expression: each operand's label
  // is marked under that operand, the rightmost inline, the others below
  // their own column with `|` leading down.
  SourceManager sm;
  FileId f = sm.addBuffer("k.blk", "let c = a + b + d;\n");
  DiagnosticEngine diags(sm);
  diags.report(DiagId::parse_unexpected, SourceRange(f, 8, 9), {"`+`"})
      .label(SourceRange(f, 8, 1), "shape [16]")
      .label(SourceRange(f, 12, 1), "shape [32]")
      .label(SourceRange(f, 16, 1), "shape [8]");
  EXPECT_EQ(text(diags, sm), "k.blk:1:9: error: unexpected `+`\n"
                             "    1 | let c = a + b + d;\n"
                             "      |         ^~~~~~~~~\n"
                             "      |         ~   ~   ~ shape [8]\n"
                             "      |         |   |\n"
                             "      |         |   shape [32]\n"
                             "      |         shape [16]\n");
}

TEST(Renderer, LabelOnThePrimaryRangeIsInline) {
  SourceManager sm;
  FileId f = sm.addBuffer("k.blk", "f(p, m)\n");
  DiagnosticEngine diags(sm);
  diags.report(DiagId::parse_unexpected, SourceRange(f, 5, 1), {"`m`"})
      .label(SourceRange(f, 5, 1), "mask shape [8]")
      .label(SourceRange(f, 2, 1), "pointer shape [16]");
  EXPECT_EQ(text(diags, sm), "k.blk:1:6: error: unexpected `m`\n"
                             "    1 | f(p, m)\n"
                             "      |   ~  ^ mask shape [8]\n"
                             "      |   |\n"
                             "      |   pointer shape [16]\n");
}

TEST(Renderer, ColorWrapsLocationSeverityMarksAndLabels) {
  SourceManager sm;
  FileId f = sm.addBuffer("k.blk", "a + b\n");
  DiagnosticEngine diags(sm);
  diags.report(DiagId::parse_unexpected, SourceRange(f, 0, 1), {"`a`"})
      .label(SourceRange(f, 4, 1), "this one")
      .note(DiagId::note_parse_hint, SourceRange(), {"hint"});
  std::ostringstream os;
  renderText(diags.getDiagnostics(), sm, os, TextStyle{true});
  EXPECT_EQ(os.str(), "\033[1mk.blk:1:1: \033[0m\033[1;31merror: \033[0m\033[1munexpected "
                      "`a`\033[0m\n"
                      "    1 | a + b\n"
                      "      | \033[1;32m^\033[0m   \033[1;34m~\033[0m \033[1;34mthis one\033[0m\n"
                      "\033[1;36mnote: \033[0m\033[1mhint\033[0m\n");
  // Off: the same text without escapes.
  EXPECT_EQ(text(diags, sm).find('\033'), std::string::npos);
}

TEST(Renderer, ColorModeFollowsTheTerminalAndNoColor) {
  // auto: a terminal only, and NO_COLOR (any non-empty value) turns it off.
  EXPECT_TRUE(shouldColor(ColorMode::Auto, true, nullptr));
  EXPECT_TRUE(shouldColor(ColorMode::Auto, true, ""));
  EXPECT_FALSE(shouldColor(ColorMode::Auto, true, "1"));
  EXPECT_FALSE(shouldColor(ColorMode::Auto, false, nullptr));
  // always / never ignore both.
  EXPECT_TRUE(shouldColor(ColorMode::Always, false, "1"));
  EXPECT_FALSE(shouldColor(ColorMode::Never, true, nullptr));
}

TEST(Renderer, TabsAndMultiByteCharactersKeepAlignment) {
  SourceManager sm;
  FileId f = sm.addBuffer("k.blk", "\t// é\tx\n");
  DiagnosticEngine diags(sm);
  diags.report(DiagId::parse_unexpected, SourceRange(f, 7, 1), {"`x`"});
  EXPECT_EQ(text(diags, sm), "k.blk:1:8: error: unexpected `x`\n"
                             "    1 | \t// é\tx\n"
                             "      | \t    \t^\n");
}

TEST(Renderer, ControlBytesAndBadUtf8AreShownAsQuestionMarks) {
  SourceManager sm;
  FileId f = sm.addBuffer("k.blk", std::string("a\x01\xff"
                                               "b",
                                               4));
  DiagnosticEngine diags(sm);
  diags.report(DiagId::lex_invalid_utf8, SourceRange(f, 2, 1));
  EXPECT_EQ(text(diags, sm), "k.blk:1:3: error: invalid UTF-8 byte sequence\n"
                             "    1 | a??b\n"
                             "      |   ^\n");
}

TEST(Renderer, LongLinesAreWindowed) {
  SourceManager sm;
  std::string line(5000, 'a');
  line[4000] = 'X';
  FileId f = sm.addBuffer("k.blk", line);
  DiagnosticEngine diags(sm);
  diags.report(DiagId::parse_unexpected, SourceRange(f, 4000, 1), {"`X`"});
  std::string out = text(diags, sm);
  std::istringstream lines(out);
  std::string first, source, marks;
  std::getline(lines, first);
  std::getline(lines, source);
  std::getline(lines, marks);
  EXPECT_EQ(first, "k.blk:1:4001: error: unexpected `X`");
  EXPECT_LT(source.size(), 300u);
  EXPECT_EQ(source.substr(0, 11), "    1 | ...");
  size_t caret = marks.find('^');
  ASSERT_NE(caret, std::string::npos);
  EXPECT_EQ(source[caret], 'X');
}

TEST(Renderer, NotesWithAndWithoutLocation) {
  SourceManager sm;
  FileId f = sm.addBuffer("k.blk", "f(a: 1, a: 2)\n");
  DiagnosticEngine diags(sm);
  diags.report(DiagId::parse_duplicate_named_arg, SourceRange(f, 8, 1), {"a"})
      .note(DiagId::note_previous_here, SourceRange(f, 2, 1), {"a"})
      .note(DiagId::note_previous_here, SourceRange(), {"b"});
  EXPECT_EQ(text(diags, sm), "k.blk:1:9: error: argument `a` given twice\n"
                             "    1 | f(a: 1, a: 2)\n"
                             "      |         ^\n"
                             "k.blk:1:3: note: previous `a` is here\n"
                             "    1 | f(a: 1, a: 2)\n"
                             "      |   ^\n"
                             "note: previous `b` is here\n");
}

TEST(Renderer, JsonIsOneArrayWithIdsAndPositions) {
  SourceManager sm;
  FileId f = sm.addBuffer("k.blk", "let a = 1\n");
  DiagnosticEngine diags(sm);
  diags
      .report(DiagId::parse_expected, SourceRange(f, 9, 0),
              {"`;`", "end of file"})
      .fixIt(SourceRange(f, 9, 0), ";")
      .label(SourceRange(f, 0, 3), "here");
  diags.report(DiagId::too_many_errors, SourceRange());
  auto j = nlohmann::json::parse(renderJson(diags.getDiagnostics(), sm));
  ASSERT_TRUE(j.is_array());
  ASSERT_EQ(j.size(), 2u);
  EXPECT_EQ(j[0]["id"], "parse_expected");
  EXPECT_EQ(j[0]["severity"], "error");
  EXPECT_EQ(j[0]["file"], "k.blk");
  EXPECT_EQ(j[0]["line"], 1);
  EXPECT_EQ(j[0]["column"], 10);
  EXPECT_EQ(j[0]["endColumn"], 10);
  EXPECT_EQ(j[0]["fixits"][0]["replacement"], ";");
  EXPECT_EQ(j[0]["labels"][0]["message"], "here");
  EXPECT_EQ(j[0]["labels"][0]["endColumn"], 4);
  EXPECT_EQ(j[1]["id"], "too_many_errors");
  EXPECT_FALSE(j[1].contains("line"));
}

TEST(Renderer, JsonReplacesInvalidUtf8InMessages) {
  SourceManager sm;
  FileId f = sm.addBuffer("k.blk", "x");
  DiagnosticEngine diags(sm);
  diags.report(DiagId::lex_malformed_number, SourceRange(f, 0, 1),
               {std::string("1\xff")});
  auto j = nlohmann::json::parse(renderJson(diags.getDiagnostics(), sm));
  EXPECT_EQ(j[0]["message"], "malformed number literal `1?`");
}
