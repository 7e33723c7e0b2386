//===- DeclSplitterTest.cpp - Top-level pieces without parsing ------------===//
#include "blk/Parse/DeclSplitter.h"

#include <gtest/gtest.h>

#include <string>

using namespace blk;

namespace {

std::vector<std::string> pieces(std::string_view text) {
  std::vector<std::string> out;
  for (ByteSpan s : splitTopLevelDecls(text))
    out.emplace_back(text.substr(s.begin, s.end - s.begin));
  return out;
}

TEST(DeclSplitter, EachDeclarationWithTheTextBeforeIt) {
  std::string text = "import std.math;\n"
                     "// a constant\nconst C = 1;\n"
                     "@config(B = 4)\n@grid(cdiv(n, B))\n"
                     "kernel k(x: *f32, n: i32, const B: i32) { if n > 0 { store(x, 1.0); } }\n"
                     "fn f(a) -> f32 { return a; }\n";
  std::vector<std::string> expected = {
      "import std.math;",
      "\n// a constant\nconst C = 1;",
      "\n@config(B = 4)\n@grid(cdiv(n, B))\n"
      "kernel k(x: *f32, n: i32, const B: i32) { if n > 0 { store(x, 1.0); } }",
      "\nfn f(a) -> f32 { return a; }",
      "\n"};
  EXPECT_EQ(pieces(text), expected);
}

TEST(DeclSplitter, PiecesCoverTheTextExactly) {
  std::string text = "const A = 1; const B = 2;kernel k() {}  ";
  std::vector<ByteSpan> spans = splitTopLevelDecls(text);
  ASSERT_FALSE(spans.empty());
  EXPECT_EQ(spans.front().begin, 0u);
  EXPECT_EQ(spans.back().end, text.size());
  for (size_t i = 1; i < spans.size(); ++i)
    EXPECT_EQ(spans[i].begin, spans[i - 1].end);
  EXPECT_TRUE(splitTopLevelDecls("").empty());
}

TEST(DeclSplitter, CommentsAndStringsHideBrackets) {
  std::string text = "kernel a() { // }\n /* } ; */ static_assert(true, \"};\"); }\n"
                     "kernel b() {}";
  std::vector<std::string> got = pieces(text);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_EQ(got[1], "\nkernel b() {}");
  // A backslash escapes the quote; an unterminated string ends at the line.
  EXPECT_EQ(pieces("const S = \"a\\\"};\"; const T = \"open\n;").size(), 2u);
  // An unterminated block comment hides the rest.
  EXPECT_EQ(pieces("const A = 1; /* kernel k() {} ;").size(), 2u);
}

TEST(DeclSplitter, SemicolonsInsideBracketsDoNotCut) {
  EXPECT_EQ(pieces("kernel k() { let a = 1; let b = (2; 3); }").size(), 1u);
  // An unclosed `{` runs to the end; a stray closer does not go below 0.
  EXPECT_EQ(pieces("kernel k() { let a = 1;\nconst C = 2;").size(), 1u);
  EXPECT_EQ(pieces(") ] const A = 1; }").size(), 2u);
}

} // namespace
