//===- SuggestTest.cpp - "did you mean" by edit distance ------------------===//
#include "blk/Sema/Suggest.h"

#include <gtest/gtest.h>

using namespace blk::sema;

namespace {

TEST(SuggestTest, EditDistanceCountsSwapsAsOne) {
  EXPECT_EQ(editDistance("other", "other"), 0u);
  EXPECT_EQ(editDistance("othr", "other"), 1u);  // insertion
  EXPECT_EQ(editDistance("lod", "load"), 1u);
  EXPECT_EQ(editDistance("maks", "mask"), 1u);   // swap of neighbours
  EXPECT_EQ(editDistance("arnage", "arange"), 1u);
  EXPECT_EQ(editDistance("", "abc"), 3u);
  EXPECT_EQ(editDistance("kitten", "sitting"), 3u);
}

TEST(SuggestTest, ClosestWithinAThirdOfTheLength) {
  std::vector<std::string> c = {"mask", "other", "cache", "evict"};
  EXPECT_EQ(closestName("othr", c), "other");
  EXPECT_EQ(closestName("msk", c), "mask");
  EXPECT_FALSE(closestName("zzzz", c));       // nothing near
  EXPECT_FALSE(closestName("other", c));      // itself: no suggestion
  EXPECT_FALSE(closestName("ca", c));         // too short to be 3 edits off
  // Ties go to the first candidate.
  EXPECT_EQ(closestName("ab", {"aa", "bb"}), "aa");
}

TEST(SuggestTest, ForeignTypeNames) {
  EXPECT_EQ(blkTypeFor("float32"), "f32");
  EXPECT_EQ(blkTypeFor("int"), "i32");
  EXPECT_EQ(blkTypeFor("bfloat16"), "bf16");
  EXPECT_EQ(blkTypeFor("uint8"), "u8");
  EXPECT_EQ(blkTypeFor("float8e4nv"), "f8e4m3");
  EXPECT_FALSE(blkTypeFor("f32"));
  EXPECT_FALSE(blkTypeFor("matrix"));
}

} // namespace
