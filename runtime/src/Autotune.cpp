//===- Autotune.cpp - which config an unpinned @autotune launch runs ------===//
//
// The resolution order of docs/tuning.md: a decision this process already
// made (lock-free lookup: the hot path), then Context::loadTuning tables,
// the tables embedded in the fatbin for this device, the user cache, timing
// the configs now, and last the first config whose @requires hold. One
// tuning runs at a time per device (ContextImpl::tuneMutex); a launch that
// waited for another thread's tuning of the same bucket finds its decision.
//
//===----------------------------------------------------------------------===//
#include "ContextImpl.h"
#include "TuningCache.h"
#include "Tuner.h"
#include "blk/runtime/Error.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <optional>
#include <sstream>

namespace blk {
namespace detail {
namespace {

using Bucket = std::array<int64_t, kMaxAutotuneKey>;

Bucket bucketFor(const KernelDesc &d, const ArgValue *values) {
  Bucket b{};
  for (size_t i = 0; i < d.autotune.key.size(); ++i) {
    uint32_t p = d.autotune.key[i];
    b[i] = bucketOf(d.autotune.bucket, integerArgValue(values[p], d.params[p].type.elem));
  }
  return b;
}

const TuneDecision *lookup(const TuneState &t, const Bucket &b) {
  const std::vector<TuneDecision> *all = t.current.load(std::memory_order_acquire);
  if (all)
    for (const TuneDecision &d : *all)
      if (d.bucket == b)
        return &d;
  return nullptr;
}

const SpecState *firstHolding(const KernelState &k, const TuneDecision &d,
                              const ArgValue *values) {
  for (uint32_t i : d.ranking)
    if (requirementsHold(k.specs[i].requirements, values))
      return &k.specs[i];
  return nullptr;
}

void publish(TuneState &t, TuneDecision decision) {
  std::lock_guard<std::mutex> lock(t.mutex);
  auto next = std::make_unique<std::vector<TuneDecision>>();
  if (const std::vector<TuneDecision> *now = t.current.load(std::memory_order_relaxed))
    *next = *now;
  next->push_back(std::move(decision));
  t.current.store(next.get(), std::memory_order_release);
  t.versions.push_back(std::move(next));
}

/// The (name, value) pairs of a key vector, in the kernel's key order.
std::vector<std::pair<std::string, int64_t>> named(const KernelDesc &d, const Bucket &b) {
  std::vector<std::pair<std::string, int64_t>> out;
  for (size_t i = 0; i < d.autotune.key.size(); ++i)
    out.emplace_back(d.params[d.autotune.key[i]].name, b[i]);
  return out;
}

/// The entry's key as a vector in the kernel's key order, or nullopt when
/// it names other parameters.
std::optional<std::vector<int64_t>> entryKey(const KernelDesc &d, const TuningEntry &e) {
  if (e.key.size() != d.autotune.key.size())
    return std::nullopt;
  std::vector<int64_t> out;
  for (uint32_t p : d.autotune.key) {
    auto it = std::find_if(e.key.begin(), e.key.end(),
                           [&](const auto &kv) { return kv.first == d.params[p].name; });
    if (it == e.key.end())
      return std::nullopt;
    out.push_back(it->second);
  }
  return out;
}

bool sameBucket(const std::vector<int64_t> &key, const Bucket &b) {
  return std::equal(key.begin(), key.end(), b.begin());
}

/// Index of the spec with config key `config` among `candidates`, or -1.
int candidateNamed(const KernelState &k, const std::vector<uint32_t> &candidates,
                   const std::string &config) {
  for (uint32_t c : candidates)
    if (k.specs[c].spec->configKey == config)
      return int(c);
  return -1;
}

/// What the decision is being built from.
struct Draft {
  AutotuneSource source = AutotuneSource::Default;
  std::vector<uint32_t> ranking;
  std::vector<TuningTiming> timings;
  std::vector<std::pair<std::string, std::string>> skipped;
  std::string note;
};

/// `chosen` first, then the other candidates in their order.
std::vector<uint32_t> chosenFirst(uint32_t chosen, const std::vector<uint32_t> &candidates) {
  std::vector<uint32_t> out{chosen};
  for (uint32_t c : candidates)
    if (c != chosen)
      out.push_back(c);
  return out;
}

/// A table or loaded entry for this bucket whose config is a candidate.
std::optional<Draft> fromTables(const KernelState &k, const std::vector<TuningTable> &tables,
                                const Bucket &b, const std::vector<uint32_t> &candidates,
                                const DeviceInfo *device, AutotuneSource source) {
  const KernelDesc &d = *k.desc;
  for (const TuningTable &t : tables) {
    if (device && (t.deviceName != device->name || t.sm != device->sm))
      continue;
    for (const TuningEntry &e : t.entries) {
      if (e.kernel != d.name)
        continue;
      std::optional<std::vector<int64_t>> key = entryKey(d, e);
      if (!key || !sameBucket(*key, b))
        continue;
      int chosen = candidateNamed(k, candidates, e.config);
      if (chosen < 0)
        continue;
      Draft draft;
      draft.source = source;
      draft.ranking = chosenFirst(uint32_t(chosen), candidates);
      draft.timings = e.timings;
      draft.skipped = e.skipped;
      return draft;
    }
  }
  return std::nullopt;
}

/// The ranking by time: chooseConfig's pick, then the other timed ones
/// fastest first; skipped configs are left out.
std::vector<uint32_t> rankByTime(const std::vector<uint32_t> &candidates,
                                 const std::vector<double> &ms) {
  size_t pick = chooseConfig(ms);
  std::vector<size_t> order;
  for (size_t i = 0; i < candidates.size(); ++i)
    if (!std::isnan(ms[i]) && i != pick)
      order.push_back(i);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return ms[a] < ms[b]; });
  std::vector<uint32_t> ranking;
  if (pick < candidates.size())
    ranking.push_back(candidates[pick]);
  for (size_t i : order)
    ranking.push_back(candidates[i]);
  return ranking;
}

bool capturing(const ContextImpl &ctx, CUstream stream) {
  CUstreamCaptureStatus status = CU_STREAM_CAPTURE_STATUS_NONE;
  return ctx.api->cuStreamIsCapturing(stream, &status) != CUDA_SUCCESS ||
         status != CU_STREAM_CAPTURE_STATUS_NONE;
}

void report(ContextImpl &ctx, const AutotuneEvent &event) {
  std::function<void(const AutotuneEvent &)> listener;
  {
    std::lock_guard<std::mutex> lock(ctx.listenerMutex);
    listener = ctx.listener;
  }
  if (ctx.printDecisions)
    std::fprintf(stderr, "%s\n", formatAutotuneEvent(event).c_str());
  if (listener)
    listener(event);
}

/// Decides for bucket `b` with ctx.tuneMutex held.
Draft decide(ContextImpl &ctx, const ModuleState &m, const KernelState &k, const Bucket &b,
             const std::vector<uint32_t> &candidates, const LaunchOptions &options,
             ArgValue *values, void **pointers, bool &memoize) {
  const KernelDesc &d = *k.desc;
  Draft draft;
  draft.ranking = candidates;
  if (ctx.tuneMode == AutotuneMode::Off) {
    draft.note = "BLK_AUTOTUNE=off";
    return draft;
  }
  bool force = ctx.tuneMode == AutotuneMode::Force;
  if (!force) {
    if (std::optional<Draft> t =
            fromTables(k, ctx.loadedTables, b, candidates, &ctx.info, AutotuneSource::Memory))
      return *t;
    if (std::optional<Draft> t =
            fromTables(k, m.manifest.tuning, b, candidates, &ctx.info, AutotuneSource::Table))
      return *t;
  }
  // The cache: timings of these configs' current code.
  std::string path = tuningCachePath(m.manifest, ctx.info.name, ctx.info.sm);
  std::optional<TuningTable> cache = path.empty() ? std::nullopt : readTuningCache(path);
  TuningEntry entry;
  entry.kernel = d.name;
  entry.key = named(d, b);
  if (cache)
    for (const TuningEntry &e : cache->entries)
      if (e.kernel == d.name)
        if (std::optional<std::vector<int64_t>> key = entryKey(d, e); key && sameBucket(*key, b))
          entry = e;
  std::vector<double> ms(candidates.size(), std::nan(""));
  std::vector<bool> known(candidates.size(), false);
  for (size_t i = 0; i < candidates.size() && !force; ++i) {
    const Specialization &s = *k.specs[candidates[i]].spec;
    for (const TuningTiming &t : entry.timings)
      if (t.config == s.configKey && t.codeHash == s.codeHash) {
        ms[i] = t.ms;
        known[i] = true;
      }
    for (const auto &sk : entry.skipped)
      if (sk.first == s.configKey)
        known[i] = true;
  }
  std::vector<uint32_t> missing;
  for (size_t i = 0; i < candidates.size(); ++i)
    if (!known[i])
      missing.push_back(candidates[i]);

  std::string refusal;
  if (!missing.empty()) {
    if (ctx.tuneMode == AutotuneMode::Cached)
      refusal = "BLK_AUTOTUNE=cached";
    else if (capturing(ctx, options.stream))
      refusal = "the stream is being captured into a graph";
    ProtectionPlan plan;
    if (refusal.empty()) {
      plan = planProtection(ctx, d, values);
      refusal = plan.refusal;
    }
    std::optional<TrialResults> timed;
    if (refusal.empty()) {
      // A failure of the tuner's own work (a copy, an allocation) costs the
      // tuning, not the caller's launch; a device fault fails that launch
      // too, with the driver's error.
      try {
        timed = timeCandidates(ctx, m, k, missing, options, values, pointers, plan,
                                TrialOptions{ctx.tuneBudgetMs});
      } catch (const Error &e) {
        refusal = "tuning failed: " + e.cause() +
                  (e.cudaName().empty() ? "" : ": " + e.cudaName());
      }
    }
    if (timed) {
      TrialResults &trial = *timed;
      // The entry keeps timings of other configs (and of other code).
      for (size_t j = 0; j < missing.size(); ++j) {
        const Specialization &s = *k.specs[missing[j]].spec;
        auto &ts = entry.timings;
        ts.erase(std::remove_if(ts.begin(), ts.end(),
                                [&](const TuningTiming &t) { return t.config == s.configKey; }),
                 ts.end());
        auto &ss = entry.skipped;
        ss.erase(std::remove_if(ss.begin(), ss.end(),
                                [&](const auto &sk) { return sk.first == s.configKey; }),
                 ss.end());
        if (trial.skipped[j].empty()) {
          ts.push_back({s.configKey, s.codeHash, trial.medianMs[j]});
          draft.timings.push_back(ts.back());
        } else {
          ss.emplace_back(s.configKey, trial.skipped[j]);
        }
        size_t i = size_t(std::find(candidates.begin(), candidates.end(), missing[j]) -
                          candidates.begin());
        ms[i] = trial.medianMs[j];
        known[i] = true;
      }
      draft.source = AutotuneSource::Tuned;
      if (missing.size() < candidates.size())
        draft.note = std::to_string(candidates.size() - missing.size()) +
                     " config(s) timed in an earlier run";
    } else {
      memoize = refusal != "the stream is being captured into a graph";
    }
  } else {
    draft.source = AutotuneSource::Cache;
  }
  bool anyTime = std::any_of(ms.begin(), ms.end(), [](double v) { return !std::isnan(v); });
  if (draft.source == AutotuneSource::Default && anyTime) {
    draft.source = AutotuneSource::Cache; // partly known: decide from what is
    draft.note = refusal + "; " + std::to_string(missing.size()) + " config(s) not timed";
  } else if (draft.source == AutotuneSource::Default) {
    draft.note = refusal;
  }
  if (anyTime) {
    draft.ranking = rankByTime(candidates, ms);
    if (draft.source == AutotuneSource::Cache)
      for (size_t i = 0; i < candidates.size(); ++i)
        if (!std::isnan(ms[i]))
          draft.timings.push_back({k.specs[candidates[i]].spec->configKey,
                                   k.specs[candidates[i]].spec->codeHash, ms[i]});
  }
  for (const auto &sk : entry.skipped)
    if (candidateNamed(k, candidates, sk.first) >= 0)
      draft.skipped.push_back(sk);
  if (draft.source == AutotuneSource::Tuned && !draft.ranking.empty()) {
    entry.config = k.specs[draft.ranking.front()].spec->configKey;
    if (!path.empty())
      writeTuningCache(path, ctx.info.name, ctx.info.sm, entry);
    ctx.learned.push_back(entry);
  }
  if (draft.source == AutotuneSource::Default && !force) {
    // No timing possible: the nearest bucket anything knows about.
    std::vector<std::vector<int64_t>> keys;
    std::vector<std::string> configs;
    std::vector<AutotuneSource> sources;
    auto collect = [&](const std::vector<TuningTable> &tables, AutotuneSource source) {
      for (const TuningTable &t : tables)
        if (t.deviceName == ctx.info.name && t.sm == ctx.info.sm)
          for (const TuningEntry &e : t.entries)
            if (e.kernel == d.name)
              if (std::optional<std::vector<int64_t>> key = entryKey(d, e);
                  key && candidateNamed(k, candidates, e.config) >= 0) {
                keys.push_back(*key);
                configs.push_back(e.config);
                sources.push_back(source);
              }
    };
    collect(ctx.loadedTables, AutotuneSource::Memory);
    collect(m.manifest.tuning, AutotuneSource::Table);
    if (cache)
      collect({*cache}, AutotuneSource::Cache);
    std::vector<int64_t> key(b.begin(), b.begin() + long(d.autotune.key.size()));
    size_t near = nearestBucket(key, keys);
    if (near < keys.size()) {
      draft.source = sources[near];
      draft.ranking = chosenFirst(uint32_t(candidateNamed(k, candidates, configs[near])),
                                  candidates);
      std::string at;
      for (size_t i = 0; i < keys[near].size(); ++i)
        at += (i ? " " : "") + d.params[d.autotune.key[i]].name + "=" +
              std::to_string(keys[near][i]);
      draft.note += "; nearest bucket [" + at + "]";
    }
  }
  return draft;
}

} // namespace

const SpecState &autotunedSpec(const ModuleState &m, const KernelState &k,
                               const LaunchOptions &options, ArgValue *values,
                               void **pointers) {
  const KernelDesc &d = *k.desc;
  TuneState &t = *k.tune;
  Bucket b = bucketFor(d, values);
  if (const TuneDecision *decision = lookup(t, b))
    if (const SpecState *s = firstHolding(k, *decision, values))
      return *s;

  ContextImpl &ctx = *m.ctx;
  auto started = std::chrono::steady_clock::now();
  std::lock_guard<std::mutex> lock(ctx.tuneMutex);
  // Another thread may have decided while this one waited.
  if (const TuneDecision *decision = lookup(t, b)) {
    if (const SpecState *s = firstHolding(k, *decision, values))
      return *s;
    // The decision's configs all fail @requires for these values: the
    // first valid config (no tuning for a bucket already decided).
    return firstValidSpec(k, values);
  }
  std::vector<uint32_t> candidates;
  for (size_t i = 0; i < k.specs.size(); ++i)
    if (requirementsHold(k.specs[i].requirements, values))
      candidates.push_back(uint32_t(i));
  if (candidates.empty())
    return firstValidSpec(k, values); // throws, listing the conditions
  bool memoize = true;
  Draft draft = decide(ctx, m, k, b, candidates, options, values, pointers, memoize);
  if (draft.ranking.empty())
    draft.ranking = candidates; // every config was skipped: let the launch report it
  AutotuneEvent event;
  event.module = m.name;
  event.kernel = d.name;
  for (size_t i = 0; i < d.autotune.key.size(); ++i) {
    uint32_t p = d.autotune.key[i];
    event.key.emplace_back(d.params[p].name, integerArgValue(values[p], d.params[p].type.elem));
  }
  event.bucket = named(d, b);
  event.source = draft.source;
  event.config = k.specs[draft.ranking.front()].spec->configKey;
  event.timings = draft.timings;
  event.skipped = draft.skipped;
  event.note = draft.note;
  event.tuningMs = std::chrono::duration<double, std::milli>(
                       std::chrono::steady_clock::now() - started)
                       .count();
  const SpecState &chosen = k.specs[draft.ranking.front()];
  if (memoize)
    publish(t, TuneDecision{b, std::move(draft.ranking)});
  report(ctx, event);
  return chosen;
}

} // namespace detail

void Context::onAutotune(std::function<void(const AutotuneEvent &)> listener) const {
  std::lock_guard<std::mutex> lock(impl_->listenerMutex);
  impl_->listener = std::move(listener);
}

void Context::loadTuning(const std::string &path) const {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw Error("cannot read the tuning table " + path);
  std::ostringstream text;
  text << in.rdbuf();
  TuningTable table = parseTuningTable(text.str(), path);
  std::lock_guard<std::mutex> lock(impl_->tuneMutex);
  impl_->loadedTables.push_back(std::move(table));
}

void Context::exportTuning(const std::string &path) const {
  TuningTable table;
  table.deviceName = impl_->info.name;
  table.sm = impl_->info.sm;
  {
    std::lock_guard<std::mutex> lock(impl_->tuneMutex);
    table.entries = impl_->learned;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << formatTuningTable(table);
  out.flush();
  if (!out)
    throw Error("cannot write the tuning table " + path);
}

} // namespace blk
