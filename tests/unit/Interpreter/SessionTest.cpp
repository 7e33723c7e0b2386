// Session: a sample's blk source through Sema and IRGen into the
// interpreter, typed upload/download, kernels looked up by config.
#include "blk/Interpreter/Session.h"

#include <gtest/gtest.h>

using namespace blk::interp;

TEST(SessionTest, RunsASampleFromSource) {
  auto session = Session::load(BLK_SOURCE_DIR "/samples/double_grid.blk");
  ASSERT_TRUE(bool(session)) << llvm::toString(session.takeError());
  Session &s = **session;
  std::vector<float> input(10);
  for (size_t k = 0; k < input.size(); ++k)
    input[k] = float(k) + 0.5f;
  BufferId x = s.upload("x", input);
  BufferId out = s.upload("out", std::vector<float>(10, -1.0f));
  // BLOCK = 8 is the third @config: two programs from @grid(cdiv(n, BLOCK)).
  llvm::Error err = s.run("double_grid", {Arg::ofBuffer(x), Arg::ofBuffer(out), Arg::ofInt(10)},
                          {}, {{"BLOCK", 8}});
  ASSERT_FALSE(bool(err)) << llvm::toString(std::move(err));
  std::vector<float> result = s.download<float>(out);
  for (size_t k = 0; k < result.size(); ++k)
    EXPECT_EQ(result[k], 2 * input[k]) << k;
  auto k8 = s.kernel("double_grid", {{"BLOCK", 8}});
  auto k256 = s.kernel("double_grid", {{"BLOCK", 256}});
  ASSERT_TRUE(k8 && k256);
  EXPECT_NE(*k8, *k256);
  EXPECT_EQ((*k256)->config().at("BLOCK"), 256);
  EXPECT_FALSE(bool(s.kernel("double_grid", {{"BLOCK", 7}})));
  llvm::consumeError(s.kernel("double_grid", {{"BLOCK", 7}}).takeError());
}

TEST(SessionTest, SourceErrorsComeBackRendered) {
  std::string path = testing::TempDir() + "/session_bad.blk";
  FILE *f = std::fopen(path.c_str(), "w");
  std::fputs("kernel k(x: *f32) {\n    let y = load(x + arange(0, 7));\n}\n", f);
  std::fclose(f);
  auto session = Session::load(path);
  ASSERT_FALSE(bool(session));
  std::string text = llvm::toString(session.takeError());
  EXPECT_NE(text.find(path + ":2:"), std::string::npos) << text;
  EXPECT_NE(text.find("error:"), std::string::npos) << text;
  std::remove(path.c_str());
}
