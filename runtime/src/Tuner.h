//===- Tuner.h - timing configs on the caller's arguments (internal) ------===//
//
// The part of the autotuner that touches the GPU: which memory a trial may
// clobber and how it is saved and restored (ProtectionPlan), and the timed,
// interleaved trials themselves. Autotune.cpp decides when to call it.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "ContextImpl.h"

#include <string>
#include <vector>

namespace blk::detail {

/// A byte range of device memory.
struct DeviceRange {
  CUdeviceptr begin = 0;
  size_t bytes = 0;
};

/// What the trials must save before and restore after themselves: the
/// ranges of parameters the kernel writes and reads (or updates
/// atomically, or that alias another argument), and of `zero` parameters.
struct ProtectionPlan {
  std::vector<DeviceRange> restore; ///< disjoint, snapshotted
  std::vector<DeviceRange> zero;    ///< zeroed before each trial
  size_t bytes = 0;                 ///< total snapshot size
  std::string refusal;              ///< non-empty: tuning is not safe
};

/// The plan for `kernel`'s checked `args`. Sets `refusal` when a range
/// cannot be found (a pointer the driver does not know) or the snapshot
/// exceeds the limit (default: 1 GiB or a quarter of free memory).
ProtectionPlan planProtection(const ContextImpl &ctx, const KernelDesc &kernel,
                              const ArgValue *args);

/// How many timed rounds each candidate gets.
struct TrialOptions {
  double budgetMs = 10;     ///< per candidate: rounds = budget / warm-up time
  unsigned maxRounds = 100; ///< the budget's rounds are clamped to [3, maxRounds]
  unsigned rounds = 0;      ///< nonzero: exactly this many, whatever the budget
};

/// What timing found, per candidate (in the candidates' order).
struct TrialResults {
  std::vector<double> medianMs;     ///< NaN when skipped
  std::vector<double> minMs;        ///< NaN when skipped
  std::vector<unsigned> launches;   ///< timed launches (0 when skipped)
  std::vector<std::string> skipped; ///< the reason, or "" when timed
  unsigned rounds = 0;
};

/// Times `candidates` (indices into kernel.specs) on `args`: waits for the
/// caller's stream, snapshots the plan's ranges, then runs warm-up
/// launches and interleaved timed rounds on the private stream (each
/// trial after a restore, the zeroing and an L2 flush), restores the
/// memory once more and leaves it as it was before the first trial.
/// A config that fails to launch is skipped with the driver's reason; a
/// device fault throws blk::Error. Holds ctx.tuneMutex (the caller locks).
TrialResults timeCandidates(ContextImpl &ctx, const ModuleState &module,
                            const KernelState &kernel,
                            const std::vector<uint32_t> &candidates,
                            const LaunchOptions &options, ArgValue *args, void **pointers,
                            const ProtectionPlan &plan, const TrialOptions &trials);

} // namespace blk::detail
