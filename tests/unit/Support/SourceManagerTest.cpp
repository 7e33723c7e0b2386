//===- SourceManagerTest.cpp - Buffers and line/column lookup -------------===//
#include "blk/Support/SourceManager.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

using namespace blk;

TEST(SourceManager, LineAndColumnAreOneBased) {
  SourceManager sm;
  FileId f = sm.addBuffer("a.blk", "ab\ncd\r\n\nxyz");
  EXPECT_EQ(f, 1u);
  LineCol lc = sm.getLineCol({f, 0});
  EXPECT_EQ(lc.line, 1u);
  EXPECT_EQ(lc.col, 1u);
  lc = sm.getLineCol({f, 4}); // 'd'
  EXPECT_EQ(lc.line, 2u);
  EXPECT_EQ(lc.col, 2u);
  lc = sm.getLineCol({f, 8}); // 'x'
  EXPECT_EQ(lc.line, 4u);
  EXPECT_EQ(lc.col, 1u);
  lc = sm.getLineCol({f, 11}); // end of buffer
  EXPECT_EQ(lc.line, 4u);
  EXPECT_EQ(lc.col, 4u);
  lc = sm.getLineCol({f, 1000}); // clamps
  EXPECT_EQ(lc.line, 4u);
  EXPECT_EQ(lc.col, 4u);
}

TEST(SourceManager, LineTextDropsTerminators) {
  SourceManager sm;
  FileId f = sm.addBuffer("a.blk", "ab\ncd\r\n\nxyz");
  EXPECT_EQ(sm.getLineText(f, 1), "ab");
  EXPECT_EQ(sm.getLineText(f, 2), "cd");
  EXPECT_EQ(sm.getLineText(f, 3), "");
  EXPECT_EQ(sm.getLineText(f, 4), "xyz");
  EXPECT_EQ(sm.getLineText(f, 5), "");
  EXPECT_EQ(sm.numLines(f), 4u);
  EXPECT_EQ(sm.getLoc(f, 2, 2).offset, 4u);
}

TEST(SourceManager, EmptyBufferHasOneLine) {
  SourceManager sm;
  FileId f = sm.addBuffer("e.blk", "");
  EXPECT_EQ(sm.numLines(f), 1u);
  LineCol lc = sm.getLineCol({f, 0});
  EXPECT_EQ(lc.line, 1u);
  EXPECT_EQ(lc.col, 1u);
}

TEST(SourceManager, LoadFileAndFind) {
  std::string path = ::testing::TempDir() + "/blk_sm_test.blk";
  {
    std::ofstream out(path, std::ios::binary);
    out << "kernel k() {}\n";
  }
  SourceManager sm;
  std::string error;
  FileId f = sm.loadFile(path, error);
  ASSERT_NE(f, 0u) << error;
  EXPECT_EQ(sm.getText(f), "kernel k() {}\n");
  EXPECT_EQ(sm.getPath(f), path);
  EXPECT_EQ(sm.findFile(path), f);
  EXPECT_EQ(sm.findFile("nope.blk"), 0u);
  std::remove(path.c_str());
}

TEST(SourceManager, MissingFileIsAnError) {
  SourceManager sm;
  std::string error;
  EXPECT_EQ(sm.loadFile("/nonexistent/x.blk", error), 0u);
  EXPECT_EQ(error,
            "cannot open `/nonexistent/x.blk`: No such file or directory");
  EXPECT_EQ(sm.loadFile(::testing::TempDir(), error), 0u);
  EXPECT_NE(error.find("is a directory"), std::string::npos);
}
