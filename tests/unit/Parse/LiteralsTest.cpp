//===- LiteralsTest.cpp - Integer, float and string literal decoding ------===//
#include "blk/Parse/Literals.h"

#include <gtest/gtest.h>

using namespace blk;

TEST(Literals, Integers) {
  uint64_t v = 0;
  EXPECT_EQ(parseIntLiteral("0", v), IntLiteralStatus::Ok);
  EXPECT_EQ(v, 0u);
  EXPECT_EQ(parseIntLiteral("1_000_000", v), IntLiteralStatus::Ok);
  EXPECT_EQ(v, 1000000u);
  EXPECT_EQ(parseIntLiteral("0x1F", v), IntLiteralStatus::Ok);
  EXPECT_EQ(v, 31u);
  EXPECT_EQ(parseIntLiteral("0XdeAD_beef", v), IntLiteralStatus::Ok);
  EXPECT_EQ(v, 0xdeadbeefu);
  EXPECT_EQ(parseIntLiteral("0b1010", v), IntLiteralStatus::Ok);
  EXPECT_EQ(v, 10u);
  EXPECT_EQ(parseIntLiteral("18446744073709551615", v), IntLiteralStatus::Ok);
  EXPECT_EQ(v, UINT64_MAX);
  EXPECT_EQ(parseIntLiteral("18446744073709551616", v),
            IntLiteralStatus::TooLarge);
  EXPECT_EQ(parseIntLiteral("0x1_0000_0000_0000_0000", v),
            IntLiteralStatus::TooLarge);
  EXPECT_EQ(parseIntLiteral("0x", v), IntLiteralStatus::Malformed);
  EXPECT_EQ(parseIntLiteral("0x_", v), IntLiteralStatus::Malformed);
  EXPECT_EQ(parseIntLiteral("0b102", v), IntLiteralStatus::Malformed);
  EXPECT_EQ(parseIntLiteral("12a", v), IntLiteralStatus::Malformed);
}

TEST(Literals, Floats) {
  double v = 0;
  EXPECT_TRUE(parseFloatLiteral("1.0", v));
  EXPECT_DOUBLE_EQ(v, 1.0);
  EXPECT_TRUE(parseFloatLiteral(".5", v));
  EXPECT_DOUBLE_EQ(v, 0.5);
  EXPECT_TRUE(parseFloatLiteral("1e-5", v));
  EXPECT_DOUBLE_EQ(v, 1e-5);
  EXPECT_TRUE(parseFloatLiteral("1_000.25", v));
  EXPECT_DOUBLE_EQ(v, 1000.25);
  EXPECT_TRUE(parseFloatLiteral("2.", v));
  EXPECT_DOUBLE_EQ(v, 2.0);
  EXPECT_FALSE(parseFloatLiteral("", v));
  EXPECT_FALSE(parseFloatLiteral("1.0x", v));
}

TEST(Literals, StringEscapes) {
  std::string out;
  size_t bad = 99;
  EXPECT_TRUE(decodeStringLiteral(R"(a\nb\t\"q\"\\\0)", out, bad));
  EXPECT_EQ(out, std::string("a\nb\t\"q\"\\\0", 9));
  EXPECT_TRUE(decodeStringLiteral("caf\xc3\xa9", out, bad));
  EXPECT_EQ(out, "caf\xc3\xa9");
  EXPECT_FALSE(decodeStringLiteral(R"(ok\qno)", out, bad));
  EXPECT_EQ(bad, 2u);
  EXPECT_FALSE(decodeStringLiteral("end\\", out, bad));
  EXPECT_EQ(bad, 3u);
}
