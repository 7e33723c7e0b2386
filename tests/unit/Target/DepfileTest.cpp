//===- DepfileTest.cpp - Make-style depfiles ------------------------------===//
#include "blk/Target/Depfile.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"

#include <gtest/gtest.h>

using namespace blk::target;

TEST(DepfileTest, ListsEachDependencyOnce) {
  EXPECT_EQ(formatDepfile("out/k.fatbin", {"k.blk", "std/math.blk", "k.blk"}),
            "out/k.fatbin: \\\n  k.blk \\\n  std/math.blk\n");
}

TEST(DepfileTest, EscapesSpacesHashAndDollar) {
  EXPECT_EQ(formatDepfile("a b.fatbin", {"my dir/x#1$.blk"}),
            "a\\ b.fatbin: \\\n  my\\ dir/x\\#1$$.blk\n");
}

TEST(DepfileTest, WritesTheFile) {
  llvm::SmallString<128> path;
  ASSERT_FALSE(llvm::sys::fs::createTemporaryFile("blk-depfile", "d", path));
  ASSERT_FALSE(static_cast<bool>(writeDepfile(path, "t.fatbin", {"t.blk"})));
  auto buffer = llvm::MemoryBuffer::getFile(path);
  ASSERT_TRUE(static_cast<bool>(buffer));
  EXPECT_EQ((*buffer)->getBuffer(), "t.fatbin: \\\n  t.blk\n");
  llvm::sys::fs::remove(path);
}

TEST(DepfileTest, ReportsUnwritablePath) {
  llvm::Error err = writeDepfile("/nonexistent-dir/x.d", "t", {"t.blk"});
  ASSERT_TRUE(static_cast<bool>(err));
  EXPECT_NE(llvm::toString(std::move(err)).find("cannot write depfile `/nonexistent-dir/x.d`"),
            std::string::npos);
}
