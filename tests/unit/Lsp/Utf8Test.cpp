//===- Utf8Test.cpp - blk/Support/Utf8.h ----------------------------------===//
#include "blk/Support/Utf8.h"

#include <gtest/gtest.h>

using namespace blk;

TEST(Utf8, ValidTextIsUnchanged) {
  std::string text = "let x = 1; /* é😀 */";
  size_t replaced = 9;
  EXPECT_EQ(repairUtf8(text, &replaced), text);
  EXPECT_EQ(replaced, 0u);
}

TEST(Utf8, EachInvalidByteBecomesOneReplacementCharacter) {
  size_t replaced = 0;
  // A lone continuation byte, a truncated sequence, 0xFF.
  EXPECT_EQ(repairUtf8("a\x80"
                       "b\xE2\x82"
                       "c\xFF",
                       &replaced),
            "a\xEF\xBF\xBD"
            "b\xEF\xBF\xBD\xEF\xBF\xBD"
            "c\xEF\xBF\xBD");
  EXPECT_EQ(replaced, 4u);
}

TEST(Utf8, RejectsWhatJsonParsersReject) {
  uint32_t cp = 0;
  // Overlong '/', a UTF-16 surrogate, a code point above U+10FFFF.
  EXPECT_EQ(utf8SequenceLength("\xC0\xAF", 0, cp), 0u);
  EXPECT_EQ(utf8SequenceLength("\xED\xA0\x80", 0, cp), 0u);
  EXPECT_EQ(utf8SequenceLength("\xF4\x90\x80\x80", 0, cp), 0u);
  EXPECT_EQ(utf8SequenceLength("\xF0\x9F\x98\x80", 0, cp), 4u);
  EXPECT_EQ(cp, 0x1F600u);
}
