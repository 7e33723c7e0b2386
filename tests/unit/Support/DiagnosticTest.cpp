//===- DiagnosticTest.cpp - Diagnostic kinds, formatting, the engine
//-------===//
#include "blk/Support/Diagnostic.h"
#include "blk/Support/SourceManager.h"

#include <gtest/gtest.h>

#include <set>

using namespace blk;

TEST(Diagnostic, FormatReplacesPlaceholders) {
  EXPECT_EQ(formatDiagnostic("expected {0}, found {1}", {"`;`", "`}`"}),
            "expected `;`, found `}`");
  EXPECT_EQ(formatDiagnostic("{1} then {0} then {1}", {"a", "b"}),
            "b then a then b");
  EXPECT_EQ(formatDiagnostic("missing {2}", {"a"}), "missing ");
  EXPECT_EQ(formatDiagnostic("braces {{x}} {0}", {"y"}), "braces {x} y");
  EXPECT_EQ(formatDiagnostic("not {a} {", {}), "not {a} {");
}

TEST(Diagnostic, KindTableIsConsistent) {
  std::set<std::string_view> names;
  for (unsigned i = 0; i < static_cast<unsigned>(DiagId::NumDiagIds); ++i) {
    auto id = static_cast<DiagId>(i);
    std::string_view name = diagIdName(id);
    EXPECT_TRUE(names.insert(name).second) << "duplicate id " << name;
    std::string_view format = diagFormat(id);
    ASSERT_FALSE(format.empty()) << name;
    // Style: no final period, lowercase first letter (unless code or an
    // acronym).
    EXPECT_NE(format.back(), '.') << name;
    EXPECT_FALSE(format[0] >= 'A' && format[0] <= 'Z' &&
                 format.substr(0, 3) != "UTF")
        << name;
  }
  EXPECT_EQ(diagIdName(DiagId::parse_expected), "parse_expected");
  EXPECT_EQ(diagDefaultSeverity(DiagId::note_previous_here), Severity::Note);
}

TEST(DiagnosticEngine, CollectsWithLabelsNotesAndFixIts) {
  SourceManager sm;
  FileId f = sm.addBuffer("a.blk", "let a = 1\n");
  DiagnosticEngine diags(sm);
  SourceRange r(f, 9, 0);
  diags.report(DiagId::parse_expected, r, {"`;`", "end of file"})
      .label(SourceRange(f, 0, 3), "in this `let`")
      .note(DiagId::note_previous_here, SourceRange(f, 4, 1), {"a"})
      .fixIt(r, ";");
  ASSERT_EQ(diags.getDiagnostics().size(), 1u);
  const Diagnostic &d = diags.getDiagnostics()[0];
  EXPECT_EQ(d.message, "expected `;`, found end of file");
  EXPECT_EQ(d.severity, Severity::Error);
  ASSERT_EQ(d.labels.size(), 1u);
  EXPECT_EQ(d.labels[0].message, "in this `let`");
  ASSERT_EQ(d.notes.size(), 1u);
  EXPECT_EQ(d.notes[0].message, "previous `a` is here");
  ASSERT_EQ(d.fixIts.size(), 1u);
  EXPECT_EQ(d.fixIts[0].replacement, ";");
  EXPECT_EQ(diags.getErrorCount(), 1u);
}

TEST(DiagnosticEngine, ErrorLimitStopsWithOneMessage) {
  SourceManager sm;
  FileId f = sm.addBuffer("a.blk", "x");
  DiagnosticEngine diags(sm);
  diags.setMaxErrors(2);
  for (int i = 0; i < 5; ++i)
    diags.report(DiagId::lex_invalid_character, SourceRange(f, 0, 1), {"`x`"});
  ASSERT_EQ(diags.getDiagnostics().size(), 3u);
  EXPECT_EQ(diags.getDiagnostics()[2].id, DiagId::too_many_errors);
  EXPECT_TRUE(diags.limitReached());
  EXPECT_EQ(diags.getErrorCount(), 2u);
}

TEST(DiagnosticEngine, WarningsAsErrors) {
  SourceManager sm;
  FileId f = sm.addBuffer("a.blk", "x");
  DiagnosticEngine diags(sm);
  // Find any warning kind in the table (Sema declares them).
  DiagId warning = DiagId::NumDiagIds;
  for (unsigned i = 0; i < static_cast<unsigned>(DiagId::NumDiagIds); ++i)
    if (diagDefaultSeverity(static_cast<DiagId>(i)) == Severity::Warning)
      warning = static_cast<DiagId>(i);
  if (warning == DiagId::NumDiagIds)
    GTEST_SKIP() << "no warning kind declared";
  diags.report(warning, SourceRange(f, 0, 1), {"x"});
  EXPECT_EQ(diags.getWarningCount(), 1u);
  EXPECT_FALSE(diags.hasErrors());
  diags.setWarningsAsErrors(true);
  diags.report(warning, SourceRange(f, 0, 1), {"x"});
  EXPECT_EQ(diags.getErrorCount(), 1u);
  EXPECT_EQ(diags.getDiagnostics().back().severity, Severity::Error);
}

TEST(DiagnosticEngine, MovedFromInFlightEmitsOnce) {
  SourceManager sm;
  FileId f = sm.addBuffer("a.blk", "x");
  DiagnosticEngine diags(sm);
  {
    InFlightDiagnostic a =
        diags.report(DiagId::lex_invalid_utf8, SourceRange(f, 0, 1));
    InFlightDiagnostic b = std::move(a);
  }
  EXPECT_EQ(diags.getDiagnostics().size(), 1u);
  diags.clear();
  EXPECT_EQ(diags.getDiagnostics().size(), 0u);
  EXPECT_EQ(diags.getErrorCount(), 0u);
}
