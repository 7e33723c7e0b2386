//===- TuningCache.h - the user's tuning cache on disk (internal) ---------===//
//
// One tuning table per (artifact, device) under tuningCacheDirectory():
// the decisions and per-config timings of every run, keyed by each
// config's code hash, so a rebuilt artifact reuses the timings of the
// configs whose code did not change and times only the new ones.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "blk/runtime/Manifest.h"

#include <optional>
#include <string>

namespace blk::detail {

/// The cache file of `manifest`'s artifact on device (`deviceName`, `sm`):
/// "<dir>/<source stem>-<hash of source and kernel names>-<device>-sm<sm>.json",
/// or "" when there is no cache directory.
std::string tuningCachePath(const Manifest &manifest, const std::string &deviceName,
                            unsigned sm);

/// The table in `path`, or nullopt when the file is missing or unreadable;
/// a corrupt file is reported once on stderr and ignored.
std::optional<TuningTable> readTuningCache(const std::string &path);

/// Adds `entry` to the table in `path` (replacing an entry of the same
/// kernel and key), atomically: under an exclusive lock of "<path>.lock",
/// written to a temporary file and renamed, so concurrent processes never
/// see half a file or lose each other's entries. Failures are reported on
/// stderr and otherwise ignored (the cache is an optimisation).
void writeTuningCache(const std::string &path, const std::string &deviceName, unsigned sm,
                      const TuningEntry &entry);

} // namespace blk::detail
