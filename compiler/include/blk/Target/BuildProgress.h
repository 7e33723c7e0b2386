//===- BuildProgress.h - `[12/48] matmul BM=128 …` on stderr ----*- C++ -*-===//
//
// An autotuning sweep compiles one job per (specialisation, --arch), then
// ptxas once per arch; a build that runs for over a second reports each job
// as it finishes, on a terminal as one line rewritten in place, with `-v` as
// one line per job. Nothing is printed in the first second, so short builds
// and test output stay as they were. Safe to call from several threads.
// Tests: tests/unit/Target/BuildProgressTest.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TARGET_BUILDPROGRESS_H
#define BLK_TARGET_BUILDPROGRESS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <mutex>

namespace blk::target {

class BuildProgress {
public:
  enum class Style {
    Lines,  ///< `[i/N] label\n` per job (-v, or stderr not a terminal)
    InPlace ///< `\r[i/N] label` rewritten, a newline at the end (a terminal)
  };
  using Clock = std::chrono::steady_clock;

  /// Reports on `out` (null: nothing) once `quiet` has passed since now.
  BuildProgress(llvm::raw_ostream *out, Style style,
                Clock::duration quiet = std::chrono::seconds(1));
  ~BuildProgress() { finish(); }

  /// Adds `jobs` to the total (jobs may be added while others run).
  void addJobs(unsigned jobs);
  /// One job finished; `label` says which ("sm_90 matmul BM=128 …").
  void jobDone(llvm::StringRef label);
  /// Ends an in-place line; later calls print nothing.
  void finish();

private:
  std::mutex mutex;
  llvm::raw_ostream *out;
  Style style;
  Clock::time_point start;
  Clock::duration quiet;
  unsigned total = 0, done = 0;
  bool printedInPlace = false, finished = false;
};

} // namespace blk::target

#endif // BLK_TARGET_BUILDPROGRESS_H
