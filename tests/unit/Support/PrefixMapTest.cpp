//===- PrefixMapTest.cpp - `--prefix-map` matching and rewriting ----------===//
#include "blk/Support/PrefixMap.h"

#include <gtest/gtest.h>

using blk::PrefixMap;

namespace {

PrefixMap mapOf(std::initializer_list<const char *> specs) {
  PrefixMap map;
  for (const char *spec : specs)
    EXPECT_EQ(map.add(spec), "") << spec;
  return map;
}

TEST(PrefixMapTest, ReplacesAWholeComponentPrefix) {
  PrefixMap map = mapOf({"/home/a/src=."});
  EXPECT_EQ(map.apply("/home/a/src/k.blk"), "./k.blk");
  EXPECT_EQ(map.apply("/home/a/src"), ".");
  EXPECT_EQ(map.apply("/home/a/srcx/k.blk"), "/home/a/srcx/k.blk");
  EXPECT_EQ(map.apply("k.blk"), "k.blk");
}

TEST(PrefixMapTest, TrailingSeparatorsDoNotMatter) {
  EXPECT_EQ(mapOf({"/src/=/x/"}).apply("/src/k.blk"), "/x/k.blk");
  EXPECT_EQ(mapOf({"/src=/x"}).apply("/src/k.blk"), "/x/k.blk");
}

TEST(PrefixMapTest, EmptyNewMakesRelative) {
  PrefixMap map = mapOf({"/src="});
  EXPECT_EQ(map.apply("/src/lib/k.blk"), "lib/k.blk");
  EXPECT_EQ(map.apply("/src"), ".");
}

TEST(PrefixMapTest, RootMapsEverythingAbsolute) {
  EXPECT_EQ(mapOf({"/=/r"}).apply("/a/k.blk"), "/r/a/k.blk");
  EXPECT_EQ(mapOf({"/=r/"}).apply("/a/k.blk"), "r/a/k.blk");
}

TEST(PrefixMapTest, LongestPrefixWinsThenFirstGiven) {
  PrefixMap map = mapOf({"/src=S", "/src/build=B", "/src=T"});
  EXPECT_EQ(map.apply("/src/build/k.fatbin"), "B/k.fatbin");
  EXPECT_EQ(map.apply("/src/k.blk"), "S/k.blk");
}

TEST(PrefixMapTest, RelativePathsMatchAsText) {
  EXPECT_EQ(mapOf({"kernels=k"}).apply("kernels/a.blk"), "k/a.blk");
  EXPECT_EQ(mapOf({"kernels=k"}).apply("./kernels/a.blk"), "./kernels/a.blk");
}

TEST(PrefixMapTest, BadSpecsAreDiagnosed) {
  PrefixMap map;
  EXPECT_EQ(map.add("/src"), "--prefix-map `/src` is not OLD=NEW");
  EXPECT_EQ(map.add("=."), "--prefix-map `=.` has an empty OLD prefix");
  EXPECT_TRUE(map.empty());
  EXPECT_EQ(map.add("/a=b=c"), "");
  EXPECT_EQ(map.apply("/a/x"), "b=c/x");
}

} // namespace
