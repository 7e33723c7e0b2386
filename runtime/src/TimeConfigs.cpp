//===- TimeConfigs.cpp - Kernel::timeConfigs: every config timed on request -===//
//
// The autotuner's trials (Tuner.cpp) offered to tools: blk-bench times the
// configs a user picks with the same warm-up, L2 flush, interleaving and
// memory restore that decide an `@autotune` launch, so the two never
// disagree about which config is faster for reasons of method.
// Tests: tests/unit/Runtime/AutotuneTest.cpp (TimeConfigsTimesTheChosen...),
// tests/unit/Runtime/blk_bench_test.sh.
//
//===----------------------------------------------------------------------===//
#include "ContextImpl.h"
#include "Tuner.h"
#include "blk/runtime/Error.h"

#include <mutex>

namespace blk {

std::vector<ConfigTiming> Kernel::timeConfigs(std::vector<ArgValue> &values,
                                              const TimingOptions &options,
                                              const LaunchOptions &launch) const {
  const KernelDesc &d = *kernel_->desc;
  checkArguments(d, values.data(), values.size());
  std::vector<void *> pointers(values.size());
  for (size_t i = 0; i < values.size(); ++i)
    pointers[i] = &values[i].bits;

  std::vector<size_t> configs = options.configs;
  if (configs.empty())
    for (size_t i = 0; i < kernel_->specs.size(); ++i)
      configs.push_back(i);
  std::vector<ConfigTiming> out;
  std::vector<uint32_t> candidates;
  std::vector<size_t> slot; // candidates[j] reports into out[slot[j]]
  for (size_t i : configs) {
    if (i >= kernel_->specs.size())
      throw Error("timeConfigs: no config " + std::to_string(i) + " (the kernel has " +
                      std::to_string(kernel_->specs.size()) + ")",
                  d.name);
    ConfigTiming t;
    t.config = i;
    try {
      detail::checkRequirements(*kernel_, kernel_->specs[i], values.data());
      candidates.push_back(uint32_t(i));
      slot.push_back(out.size());
    } catch (const Error &e) {
      t.skipped = e.cause();
    }
    out.push_back(t);
  }
  if (candidates.empty())
    return out;

  detail::ContextImpl &ctx = *module_->ctx;
  detail::ProtectionPlan plan = detail::planProtection(ctx, d, values.data());
  if (!plan.refusal.empty())
    throw Error("cannot time configs: " + plan.refusal, d.name);
  detail::TrialOptions trials;
  trials.budgetMs = options.budgetMs > 0 ? options.budgetMs : ctx.tuneBudgetMs;
  trials.maxRounds = options.maxRounds;
  trials.rounds = options.rounds;
  std::lock_guard<std::mutex> lock(ctx.tuneMutex);
  detail::TrialResults r = detail::timeCandidates(ctx, *module_, *kernel_, candidates, launch,
                                                  values.data(), pointers.data(), plan, trials);
  for (size_t j = 0; j < candidates.size(); ++j) {
    ConfigTiming &t = out[slot[j]];
    t.skipped = r.skipped[j];
    if (!t.skipped.empty())
      continue;
    t.medianMs = r.medianMs[j];
    t.minMs = r.minMs[j];
    t.launches = r.launches[j];
  }
  return out;
}

} // namespace blk
