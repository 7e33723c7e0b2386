//===- ParseErrorTest.cpp - Lexical and syntax errors, limits -------------===//
#include "blk/Parse/Parser.h"
#include "blk/Support/SourceManager.h"

#include <gtest/gtest.h>

using namespace blk;

namespace {

/// Parses `text`; returns "line:col id message" of each diagnostic.
std::vector<std::string> errors(const std::string &text,
                                ParseOptions options = {}) {
  SourceManager sm;
  DiagnosticEngine diags(sm);
  diags.setMaxErrors(0);
  FileId f = sm.addBuffer("t.blk", text);
  auto module = parseModule(f, diags, options);
  EXPECT_EQ(module == nullptr, diags.hasErrors()) << text;
  std::vector<std::string> out;
  for (const Diagnostic &d : diags.getDiagnostics()) {
    LineCol lc = sm.getLineCol(d.range.begin);
    out.push_back(std::to_string(lc.line) + ":" + std::to_string(lc.col) + " " +
                  std::string(diagIdName(d.id)) + " " + d.message);
  }
  return out;
}

} // namespace

TEST(ParseErrors, MissingSemicolonPointsAfterThePreviousToken) {
  auto e = errors("fn f() {\n  let a = 1\n  let b = 2;\n}\n");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0], "2:12 parse_expected expected `;`, found `let`");
}

TEST(ParseErrors, OneErrorPerStatement) {
  auto e = errors("fn f() { let = 1; let b = ; }\nfn g() { return (1; }\n"
                  "fn h() { let c = 1 + + ; }\n");
  ASSERT_EQ(e.size(), 4u);
  EXPECT_EQ(e[0], "1:14 parse_expected expected identifier, found `=`");
  EXPECT_EQ(e[1], "1:27 parse_expected expected expression, found `;`");
  EXPECT_EQ(e[2], "2:19 parse_expected expected `)`, found `;`");
  EXPECT_EQ(e[3], "3:22 parse_expected expected expression, found `+`");
}

TEST(ParseErrors, UnclosedBraceIsOneErrorAtTheBrace) {
  auto e = errors("fn f() {\n  let a = 1;\nfn g() { }\n");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0], "1:8 parse_unclosed_brace this `{` is never closed");
}

TEST(ParseErrors, LexicalErrorsStopBeforeParsing) {
  auto e = errors("fn f() { let a = 1 @@ ; let b = \"open\n}\n");
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0], "1:33 lex_unterminated_string unterminated string literal");
  e = errors("fn f() { let a = 1 + $$$; }");
  ASSERT_EQ(e.size(), 1u) << "one diagnostic per run of bad characters";
  EXPECT_EQ(e[0], "1:22 lex_invalid_character invalid character `$` in source");
}

TEST(ParseErrors, InvalidUtf8) {
  auto e =
      errors(std::string("// ok \xc3\xa9\n// bad \xc3\x28\nfn f() {}\n\xff"));
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0], "2:8 lex_invalid_utf8 invalid UTF-8 byte sequence");
  EXPECT_EQ(e[1], "4:1 lex_invalid_utf8 invalid UTF-8 byte sequence");
  // Overlong encodings and surrogates are invalid too.
  EXPECT_EQ(errors("// \xc0\xaf").size(), 1u);
  EXPECT_EQ(errors("// \xed\xa0\x80").size(), 1u);
}

TEST(ParseErrors, NestingLimitIsConfigurable) {
  ParseOptions options;
  options.maxNesting = 4;
  EXPECT_TRUE(errors("fn f() { let a = ((1)); }", options).empty());
  auto e = errors("fn f() { let a = ((((1)))); }", options);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(
      e[0],
      "1:21 parse_nesting_too_deep nested too deeply (the limit is 4 levels)");
}

TEST(ParseErrors, ExpressionHeightLimit) {
  ParseOptions options;
  options.maxExprHeight = 10;
  std::string chain = "a";
  for (int i = 0; i < 10; ++i)
    chain += " + a";
  auto e = errors("fn f(a) { let x = " + chain + "; }", options);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_NE(e[0].find("parse_expression_too_complex"), std::string::npos);
  EXPECT_TRUE(errors("fn f(a) { let x = a + a + a; }", options).empty());
}

TEST(ParseErrors, HugeInputsDoNotCrash) {
  // 10,000 nested parentheses, 100,000 prefix operators, 20,000 `else if`s.
  EXPECT_EQ(errors("fn f() { let a = " + std::string(10000, '(') + "1" +
                   std::string(10000, ')') + "; }")
                .size(),
            1u);
  EXPECT_EQ(
      errors("fn f() { let a = " + std::string(100000, '-') + "1; }").size(),
      1u);
  std::string chain = "fn f(n) { if n == 0 { }";
  for (int i = 0; i < 20000; ++i)
    chain += " else if n == 1 { }";
  EXPECT_EQ(errors(chain + " }").size(), 1u);
}

TEST(ParseErrors, BinaryGarbageIsBounded) {
  std::string garbage;
  uint32_t x = 12345;
  for (int i = 0; i < 100000; ++i) {
    x = x * 1103515245u + 12345u;
    garbage += static_cast<char>(x >> 24);
  }
  SourceManager sm;
  DiagnosticEngine diags(sm);
  FileId f = sm.addBuffer("g.blk", garbage);
  EXPECT_EQ(parseModule(f, diags), nullptr);
  EXPECT_TRUE(diags.limitReached());
  EXPECT_EQ(diags.getDiagnostics().size(),
            21u); // 20 errors + "too many errors"
}
