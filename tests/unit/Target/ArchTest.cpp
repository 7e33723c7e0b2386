//===- ArchTest.cpp - --arch parsing --------------------------------------===//
#include "blk/Target/Arch.h"

#include <gtest/gtest.h>

using namespace blk::target;

static std::vector<std::string> names(const std::vector<GpuArch> &archs) {
  std::vector<std::string> result;
  for (const GpuArch &arch : archs)
    result.push_back(arch.name);
  return result;
}

static std::string errorOf(llvm::StringRef list) {
  auto archs = parseArchList(list);
  EXPECT_FALSE(static_cast<bool>(archs)) << "accepted `" << list.str() << "`";
  return archs ? std::string() : llvm::toString(archs.takeError());
}

TEST(ArchTest, ParsesOneArch) {
  auto archs = parseArchList("sm_90");
  ASSERT_TRUE(static_cast<bool>(archs));
  ASSERT_EQ(archs->size(), 1u);
  EXPECT_EQ((*archs)[0].name, "sm_90");
  EXPECT_EQ((*archs)[0].smVersion, 90u);
  EXPECT_FALSE((*archs)[0].archSpecific);
  EXPECT_EQ((*archs)[0].fatbinSm(), "90");
}

TEST(ArchTest, SortsOldestFirstAndDropsDuplicates) {
  auto archs = parseArchList("sm_90a, sm_80,sm_90,sm_80");
  ASSERT_TRUE(static_cast<bool>(archs));
  EXPECT_EQ(names(*archs), (std::vector<std::string>{"sm_80", "sm_90", "sm_90a"}));
  EXPECT_TRUE(archs->back().archSpecific);
  EXPECT_EQ(archs->back().fatbinSm(), "90a");
  EXPECT_EQ(archs->back().ptxFeature(), "+ptx80");
}

TEST(ArchTest, AcceptsEveryValidArch) {
  auto archs = parseArchList("sm_80,sm_86,sm_89,sm_90,sm_90a");
  ASSERT_TRUE(static_cast<bool>(archs));
  EXPECT_EQ(archs->size(), validArchs().size());
}

TEST(ArchTest, DefaultIsValid) { EXPECT_NE(lookupArch(kDefaultArch), nullptr); }

TEST(ArchTest, RejectsUnknownNamingValidValues) {
  EXPECT_EQ(errorOf("sm_75"), "unknown GPU architecture `sm_75` in --arch "
                              "(valid values: sm_80, sm_86, sm_89, sm_90, sm_90a)");
  EXPECT_NE(errorOf("sm_90,compute_90").find("`compute_90`"), std::string::npos);
  EXPECT_NE(errorOf("SM_90").find("`SM_90`"), std::string::npos);
}

TEST(ArchTest, RejectsEmptyEntries) {
  EXPECT_NE(errorOf("").find("empty architecture"), std::string::npos);
  EXPECT_NE(errorOf("sm_90,").find("empty architecture"), std::string::npos);
}
