//===- BuildProgressTest.cpp - progress lines of a long build -------------===//
#include "blk/Target/BuildProgress.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

using namespace blk::target;
using namespace std::chrono_literals;

TEST(BuildProgress, ABuildUnderTheQuietTimePrintsNothing) {
  std::string text;
  llvm::raw_string_ostream os(text);
  {
    BuildProgress progress(&os, BuildProgress::Style::Lines, 1h);
    progress.addJobs(2);
    progress.jobDone("sm_90 add BLOCK=256 num_warps=4");
    progress.jobDone("sm_90 add BLOCK=1024 num_warps=8");
  }
  EXPECT_EQ(text, "");
}

TEST(BuildProgress, LinesCountJobsAddedAsTheyCome) {
  std::string text;
  llvm::raw_string_ostream os(text);
  BuildProgress progress(&os, BuildProgress::Style::Lines, 0s);
  progress.addJobs(1);
  progress.jobDone("sm_80 mm BM=64 num_warps=4");
  progress.addJobs(1);
  progress.jobDone("sm_90 mm BM=64 num_warps=4");
  progress.finish();
  progress.jobDone("late");
  EXPECT_EQ(text, "[1/1] sm_80 mm BM=64 num_warps=4\n[2/2] sm_90 mm BM=64 num_warps=4\n");
}

TEST(BuildProgress, InPlaceRewritesOneLineAndEndsIt) {
  std::string text;
  llvm::raw_string_ostream os(text);
  {
    BuildProgress progress(&os, BuildProgress::Style::InPlace, 0s);
    progress.addJobs(2);
    progress.jobDone("a long label");
    progress.jobDone("b");
  }
  EXPECT_EQ(text, "\r[1/2] a long label\x1b[K\r[2/2] b\x1b[K\n");
}

TEST(BuildProgress, JobsFromSeveralThreadsAreEachCountedOnce) {
  std::string text;
  llvm::raw_string_ostream os(text);
  BuildProgress progress(&os, BuildProgress::Style::Lines, 0s);
  progress.addJobs(64);
  std::vector<std::thread> workers;
  for (int t = 0; t < 4; ++t)
    workers.emplace_back([&] {
      for (int i = 0; i < 16; ++i)
        progress.jobDone("job");
    });
  for (std::thread &worker : workers)
    worker.join();
  EXPECT_NE(text.find("[64/64] job\n"), std::string::npos);
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n'), 64);
}
