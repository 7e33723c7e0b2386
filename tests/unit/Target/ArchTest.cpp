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

static std::string archFor(unsigned major, unsigned minor) {
  const GpuArch *arch = archForCapability(major, minor);
  return arch ? arch->name : "none";
}

// `--arch native` (NativeArch.cpp) builds what each GPU loads best.
TEST(ArchTest, MapsEachCapabilityToTheArchItLoads) {
  EXPECT_EQ(archFor(8, 0), "sm_80"); // A100
  EXPECT_EQ(archFor(8, 6), "sm_86"); // RTX 30xx, A10
  EXPECT_EQ(archFor(8, 7), "sm_86"); // Orin: sm_86 cubins run on later minors
  EXPECT_EQ(archFor(8, 9), "sm_89"); // RTX 40xx, L4
  EXPECT_EQ(archFor(9, 0), "sm_90a"); // H100, H200: the wgmma tensor cores
}

TEST(ArchTest, MapsNewerGpusToPortablePtxAndOlderToNone) {
  EXPECT_EQ(archFor(10, 0), "sm_90"); // not sm_90a: its PTX loads only on 9.0
  EXPECT_EQ(archFor(12, 0), "sm_90");
  EXPECT_EQ(archFor(7, 5), "none");
  EXPECT_EQ(archFor(6, 1), "none");
}

TEST(ArchTest, NativeFallbackIsValid) {
  auto archs = parseArchList(kNativeFallbackArchs);
  ASSERT_TRUE(static_cast<bool>(archs)) << llvm::toString(archs.takeError());
  EXPECT_EQ(names(*archs), (std::vector<std::string>{"sm_80", "sm_90"}));
}
