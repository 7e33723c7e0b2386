//===- EditMapTest.cpp - offsets across edits (blk/Lsp/EditMap.h) ---------===//
#include "blk/Lsp/EditMap.h"

#include <gtest/gtest.h>

#include <string>

using blk::lsp::EditMap;

static uint32_t at(const std::string &text, const char *needle) {
  size_t i = text.find(needle);
  EXPECT_NE(i, std::string::npos) << needle;
  return uint32_t(i);
}

TEST(EditMap, OffsetsAroundAnInsertion) {
  std::string old = "let a = 1;\nlet b = 2;\n";
  std::string now = "let a = 1;\nlet q = ;\nlet b = 2;\n";
  EditMap map(uint32_t(old.size()));
  map.apply(old, now);
  EXPECT_EQ(map.toOld(4), 4u);
  EXPECT_EQ(map.toNew(4), 4u);
  // After the edit: shifted by the inserted 10 bytes, both ways.
  EXPECT_EQ(map.toOld(at(now, "b = 2")), at(old, "b = 2"));
  EXPECT_EQ(map.toNew(at(old, "b = 2")), at(now, "b = 2"));
  // Inside the inserted text: where the insertion happened.
  EXPECT_EQ(map.toOld(at(now, "= ;")), at(old, "b = 2"));
  // A range end at the insertion point stays before the inserted text.
  EXPECT_EQ(map.toNew(at(old, "b = 2"), /*atEnd=*/true), at(now, "q = ;"));
}

TEST(EditMap, RangesOverADeletionKeepCoveringIt) {
  std::string old = "fn f(x) { return x * 2.0; }";
  std::string now = "fn f(x) { return x * ; }";
  EditMap map(uint32_t(old.size()));
  map.apply(old, now);
  uint32_t two = at(old, "2.0");
  EXPECT_EQ(map.toNew(two + 1), at(now, ";"));
  EXPECT_EQ(map.toNew(two + 1, /*atEnd=*/true), at(now, ";"));
  EXPECT_EQ(map.toNew(uint32_t(old.size())), uint32_t(now.size()));
  EXPECT_EQ(map.toOld(uint32_t(now.size())), uint32_t(old.size()));
}

TEST(EditMap, EditsAtTwoPlacesStayPrecise) {
  // A line added at the top, then a statement half-typed further down:
  // the text between the two edits still maps exactly.
  std::string v0 = "kernel k() {\n    let a = 1;\n    store(p, a);\n}\n";
  std::string v1 = "// note\n" + v0;
  std::string v2 = v1;
  v2.insert(v2.find("    store"), "    let b = a + ;\n");
  EditMap map(uint32_t(v0.size()));
  map.apply(v0, v1);
  map.apply(v1, v2);
  EXPECT_EQ(map.numSpans(), 2u);
  EXPECT_EQ(map.toOld(at(v2, "let a")), at(v0, "let a"));
  EXPECT_EQ(map.toNew(at(v0, "let a")), at(v2, "let a"));
  EXPECT_EQ(map.toNew(at(v0, "store")), at(v2, "store"));
  EXPECT_EQ(map.toNew(at(v0, "kernel")), at(v2, "kernel"));
  // The comment added at the top maps to the old text's start.
  EXPECT_EQ(map.toOld(at(v2, "note")), 0u);
}

TEST(EditMap, IdentityAndEmptyTexts) {
  EditMap same(3);
  EXPECT_EQ(same.toOld(2), 2u);
  EXPECT_EQ(same.toNew(3), 3u);
  EditMap fromEmpty(0);
  fromEmpty.apply("", "abc");
  EXPECT_EQ(fromEmpty.toOld(2), 0u);
  EXPECT_EQ(fromEmpty.toNew(0, /*atEnd=*/true), 3u);
  EditMap toEmpty(3);
  toEmpty.apply("abc", "");
  EXPECT_EQ(toEmpty.toNew(2), 0u);
  EXPECT_EQ(toEmpty.toNew(3, /*atEnd=*/true), 0u);
  // Repeated characters: prefix and suffix never overlap.
  EditMap repeat(4);
  repeat.apply("aaaa", "aa");
  EXPECT_EQ(repeat.toNew(4), 2u);
  EXPECT_EQ(repeat.toOld(2), 2u); // where the deleted "aa" began
}
