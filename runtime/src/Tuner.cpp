//===- Tuner.cpp - snapshots and timed trials of autotuned configs --------===//
//
// Trials run on a private stream after the caller's stream's earlier work.
// Memory a trial could change and the kernel also reads is saved first and
// put back before every trial and once after the last, so the launch the
// caller asked for sees exactly the memory it would have seen untuned.
// Before each timed launch a buffer twice the size of L2 is written, so
// no config is timed on data the previous one left in cache; configs take
// turns round by round, so a clock change during tuning hits them alike.
//
//===----------------------------------------------------------------------===//
#include "Tuner.h"
#include "blk/runtime/Error.h"

#include <algorithm>
#include <cmath>

namespace blk::detail {
namespace {

/// The fewest rounds of timed launches per config a budget gives.
constexpr unsigned kMinRounds = 3;
/// The default snapshot limit: 1 GiB, or a quarter of free memory if less.
constexpr uint64_t kSnapshotLimit = uint64_t(1) << 30;

std::string driverReason(const ContextImpl &ctx, CUresult r) {
  std::string text = ctx.api->errorString(r);
  return ctx.api->errorName(r) + (text.empty() ? "" : " (" + text + ")");
}

/// The range of the argument `a`: its extent when the host type knows it,
/// else from the pointer to the end of its allocation. False when the
/// driver does not know the address.
bool rangeOf(const ContextImpl &ctx, const ArgValue &a, DeviceRange &out) {
  if (a.extent) {
    out = {CUdeviceptr(a.bits), size_t(a.extent)};
    return true;
  }
  CUdeviceptr base = 0;
  size_t size = 0;
  if (ctx.api->cuMemGetAddressRange(&base, &size, CUdeviceptr(a.bits)) != CUDA_SUCCESS)
    return false;
  out = {CUdeviceptr(a.bits), size_t(base + size - CUdeviceptr(a.bits))};
  return true;
}

bool overlap(const DeviceRange &a, const DeviceRange &b) {
  return a.begin < b.begin + b.bytes && b.begin < a.begin + a.bytes;
}

/// Sorted, overlapping ranges merged. Touching ones stay apart: they may be
/// two allocations next to each other, and one copy must not span two.
std::vector<DeviceRange> merged(std::vector<DeviceRange> ranges) {
  std::sort(ranges.begin(), ranges.end(),
            [](const DeviceRange &a, const DeviceRange &b) { return a.begin < b.begin; });
  std::vector<DeviceRange> out;
  for (const DeviceRange &r : ranges) {
    if (!out.empty() && r.begin < out.back().begin + out.back().bytes) {
      CUdeviceptr end = std::max(out.back().begin + out.back().bytes, r.begin + r.bytes);
      out.back().bytes = size_t(end - out.back().begin);
    } else {
      out.push_back(r);
    }
  }
  return out;
}

bool listed(const std::vector<uint32_t> &list, size_t i) {
  return std::find(list.begin(), list.end(), uint32_t(i)) != list.end();
}

/// Device memory freed on scope exit (the snapshot copies).
struct Allocation {
  const ContextImpl &ctx;
  CUdeviceptr ptr = 0;
  ~Allocation() {
    if (ptr)
      ctx.api->cuMemFree(ptr);
  }
};

/// Two events per candidate, destroyed on scope exit.
struct EventPool {
  const ContextImpl &ctx;
  std::vector<CUevent> events;
  ~EventPool() {
    for (CUevent e : events)
      ctx.api->cuEventDestroy(e);
  }
};

} // namespace

ProtectionPlan planProtection(const ContextImpl &ctx, const KernelDesc &k,
                              const ArgValue *args) {
  ProtectionPlan plan;
  struct Pointer {
    size_t param;
    bool known;
    DeviceRange range;
  };
  std::vector<Pointer> pointers;
  for (size_t i = 0; i < k.params.size(); ++i)
    if (k.params[i].type.pointer) {
      Pointer p{i, false, {}};
      p.known = rangeOf(ctx, args[i], p.range);
      pointers.push_back(p);
    }
  std::vector<DeviceRange> save;
  for (const Pointer &p : pointers) {
    const Param &param = k.params[p.param];
    Access access = param.access;
    bool writes = access == Access::Write || access == Access::ReadWrite ||
                  access == Access::Atomic || access == Access::Unknown;
    bool protect = access == Access::ReadWrite || access == Access::Atomic ||
                   access == Access::Unknown || listed(k.autotune.restore, p.param) ||
                   listed(k.autotune.zero, p.param);
    // A written parameter that shares memory with another argument: a
    // trial's writes would change what the next trial reads.
    if (writes && !protect)
      for (const Pointer &q : pointers)
        if (q.param != p.param && k.params[q.param].access != Access::None &&
            (args[q.param].bits == args[p.param].bits ||
             (p.known && q.known && overlap(p.range, q.range))))
          protect = true;
    if (!protect)
      continue;
    if (!p.known) {
      plan.refusal = "cannot snapshot `" + param.name +
                     "`: the driver knows no allocation at its address";
      return plan;
    }
    save.push_back(p.range);
    if (listed(k.autotune.zero, p.param))
      plan.zero.push_back(p.range);
  }
  plan.restore = merged(save);
  for (const DeviceRange &r : plan.restore)
    plan.bytes += r.bytes;
  uint64_t limit = ctx.snapshotLimit;
  if (!limit) {
    size_t free = 0, total = 0;
    limit = kSnapshotLimit;
    if (ctx.api->cuMemGetInfo(&free, &total) == CUDA_SUCCESS)
      limit = std::min<uint64_t>(limit, free / 4);
  }
  if (plan.bytes > limit)
    plan.refusal = "the memory to snapshot (" + std::to_string(plan.bytes) +
                   " bytes) exceeds the limit of " + std::to_string(limit) + " bytes";
  return plan;
}

TrialResults timeCandidates(ContextImpl &ctx, const ModuleState &module,
                            const KernelState &kernel,
                            const std::vector<uint32_t> &candidates,
                            const LaunchOptions &options, ArgValue *args, void **pointers,
                            const ProtectionPlan &plan, const TrialOptions &trials) {
  const KernelDesc &d = *kernel.desc;
  const DriverApi &api = *ctx.api;
  ctx.makeCurrent();
  auto check = [&](CUresult r, const std::string &what) {
    ctx.check(r, "autotuning: " + what, d.name);
  };
  if (!ctx.tuneStream)
    check(api.cuStreamCreate(&ctx.tuneStream, CU_STREAM_NON_BLOCKING),
          "cannot create the tuning stream");
  if (!ctx.flushBuffer) {
    int l2 = 0;
    api.cuDeviceGetAttribute(&l2, CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE, ctx.device);
    size_t bytes = std::max<size_t>(size_t(2) * size_t(std::max(l2, 0)), 1 << 20);
    check(api.cuMemAlloc(&ctx.flushBuffer, bytes), "cannot allocate the L2 flush buffer");
    ctx.flushBytes = bytes;
  }
  CUstream stream = ctx.tuneStream;
  EventPool events{ctx, {}};
  for (size_t i = 0; i < 2 * candidates.size() + 1; ++i) {
    CUevent e = nullptr;
    check(api.cuEventCreate(&e, CU_EVENT_DEFAULT), "cannot create an event");
    events.events.push_back(e);
  }
  // After the caller's earlier work on its stream.
  CUevent ready = events.events.back();
  check(api.cuEventRecord(ready, options.stream), "cannot record an event");
  check(api.cuStreamWaitEvent(stream, ready, 0), "cannot wait for the caller's stream");

  // The snapshot.
  std::vector<Allocation> copies;
  copies.reserve(plan.restore.size());
  for (const DeviceRange &r : plan.restore) {
    copies.push_back(Allocation{ctx, 0});
    check(api.cuMemAlloc(&copies.back().ptr, r.bytes),
          "cannot allocate " + std::to_string(r.bytes) + " bytes for a snapshot");
    check(api.cuMemcpyDtoDAsync(copies.back().ptr, r.begin, r.bytes, stream),
          "snapshot copy failed");
  }
  auto restore = [&] {
    for (size_t i = 0; i < plan.restore.size(); ++i)
      check(api.cuMemcpyDtoDAsync(plan.restore[i].begin, copies[i].ptr,
                                  plan.restore[i].bytes, stream),
            "restore copy failed");
  };
  auto prepare = [&] {
    restore();
    for (const DeviceRange &r : plan.zero)
      check(api.cuMemsetD8Async(r.begin, 0, r.bytes, stream), "zeroing failed");
    check(api.cuMemsetD32Async(ctx.flushBuffer, 0, ctx.flushBytes / 4, stream),
          "L2 flush failed");
  };
  LaunchOptions trial = options;
  trial.stream = stream;

  TrialResults out;
  out.medianMs.assign(candidates.size(), std::nan(""));
  out.minMs.assign(candidates.size(), std::nan(""));
  out.launches.assign(candidates.size(), 0);
  out.skipped.assign(candidates.size(), "");
  std::vector<double> estimate(candidates.size(), 0);
  // Warm-up: one launch each, which also tells which configs launch at
  // all, and what one launch costs. Synchronising after each one pins a
  // device fault on its config.
  for (size_t c = 0; c < candidates.size(); ++c) {
    const SpecState &s = kernel.specs[candidates[c]];
    prepare();
    const std::string *entry = nullptr;
    CUresult r;
    try {
      check(api.cuEventRecord(events.events[2 * c], stream), "cannot record an event");
      r = launchSpec(module, kernel, s, trial, args, pointers, &entry);
      check(api.cuEventRecord(events.events[2 * c + 1], stream), "cannot record an event");
    } catch (const Error &e) {
      out.skipped[c] = e.cause();
      continue;
    }
    if (r != CUDA_SUCCESS) {
      out.skipped[c] = driverReason(ctx, r);
      continue;
    }
    CUresult done = api.cuStreamSynchronize(stream);
    if (done != CUDA_SUCCESS)
      ctx.fail(done, "autotuning: the trial launch of " + s.spec->configKey + " failed on the device",
               d.name);
    float ms = 0;
    check(api.cuEventElapsedTime(&ms, events.events[2 * c], events.events[2 * c + 1]),
          "cannot read an event timing");
    estimate[c] = std::max(double(ms), 1e-4);
  }
  // Timed rounds: config c takes part in rounds [0, rounds[c]).
  std::vector<unsigned> rounds(candidates.size(), 0);
  unsigned maxRounds = 0;
  for (size_t c = 0; c < candidates.size(); ++c) {
    if (!out.skipped[c].empty())
      continue;
    double want = std::ceil(trials.budgetMs / estimate[c]);
    rounds[c] = trials.rounds ? trials.rounds
                              : unsigned(std::clamp(want, double(kMinRounds),
                                                    double(std::max(kMinRounds, trials.maxRounds))));
    maxRounds = std::max(maxRounds, rounds[c]);
  }
  std::vector<std::vector<double>> samples(candidates.size());
  for (unsigned round = 0; round < maxRounds; ++round) {
    for (size_t c = 0; c < candidates.size(); ++c) {
      if (round >= rounds[c])
        continue;
      prepare();
      const std::string *entry = nullptr;
      check(api.cuEventRecord(events.events[2 * c], stream), "cannot record an event");
      CUresult r = launchSpec(module, kernel, kernel.specs[candidates[c]], trial, args,
                              pointers, &entry);
      if (r != CUDA_SUCCESS)
        ctx.fail(r, "autotuning: a timed launch of `" + *entry + "` failed", d.name);
      check(api.cuEventRecord(events.events[2 * c + 1], stream), "cannot record an event");
    }
    CUresult done = api.cuStreamSynchronize(stream);
    if (done != CUDA_SUCCESS)
      ctx.fail(done, "autotuning: a timed launch failed on the device", d.name);
    for (size_t c = 0; c < candidates.size(); ++c) {
      if (round >= rounds[c])
        continue;
      float ms = 0;
      check(api.cuEventElapsedTime(&ms, events.events[2 * c], events.events[2 * c + 1]),
            "cannot read an event timing");
      samples[c].push_back(double(ms));
    }
  }
  for (size_t c = 0; c < candidates.size(); ++c)
    if (out.skipped[c].empty()) {
      out.medianMs[c] = median(samples[c]);
      out.minMs[c] = *std::min_element(samples[c].begin(), samples[c].end());
      out.launches[c] = unsigned(samples[c].size());
    }
  out.rounds = maxRounds;
  // Leave the memory as the caller left it.
  restore();
  CUresult done = api.cuStreamSynchronize(stream);
  if (done != CUDA_SUCCESS)
    ctx.fail(done, "autotuning: restoring the arguments failed", d.name);
  return out;
}

} // namespace blk::detail
