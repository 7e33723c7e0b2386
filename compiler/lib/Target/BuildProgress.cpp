//===- BuildProgress.cpp - `[12/48] matmul BM=128 …` on stderr ------------===//
//
// Test: tests/unit/Target/BuildProgressTest.cpp.
//
//===----------------------------------------------------------------------===//
#include "blk/Target/BuildProgress.h"

namespace blk::target {

BuildProgress::BuildProgress(llvm::raw_ostream *out, Style style, Clock::duration quiet)
    : out(out), style(style), start(Clock::now()), quiet(quiet) {}

void BuildProgress::addJobs(unsigned jobs) {
  std::lock_guard<std::mutex> lock(mutex);
  total += jobs;
}

void BuildProgress::jobDone(llvm::StringRef label) {
  std::lock_guard<std::mutex> lock(mutex);
  ++done;
  if (!out || finished || Clock::now() - start < quiet)
    return;
  if (style == Style::InPlace) {
    // Erase to the end of the line: the previous label may be longer.
    *out << "\r[" << done << "/" << total << "] " << label << "\x1b[K";
    printedInPlace = true;
  } else {
    *out << "[" << done << "/" << total << "] " << label << "\n";
  }
  out->flush();
}

void BuildProgress::finish() {
  std::lock_guard<std::mutex> lock(mutex);
  if (out && printedInPlace && !finished)
    *out << "\n";
  finished = true;
}

} // namespace blk::target
