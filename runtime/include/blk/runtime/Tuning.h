//===- Tuning.h - autotuning: tables, key buckets, the decision rule -*- C++ -*-===//
//
// The pieces of the autotuner (docs/tuning.md) that need no GPU, public so
// that tools (blkc tune) and tests use the same rules as the launcher:
// the tuning-table format, how a key value falls into a bucket, which
// bucket is nearest, and how timings pick a config.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "blk/runtime/Manifest.h"

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

namespace blk {

/// Parses a tuning table (format "blk-tuning", version 1). `origin` names
/// the file in messages. Throws blk::Error.
TuningTable parseTuningTable(std::string_view json, const std::string &origin);

/// The table as JSON text (stable field order, two-space indent).
std::string formatTuningTable(const TuningTable &table);

/// The bucket `value` falls into: Pow2: the value itself up to 16, else the
/// next power of two at or above it; Exact: the value; List: the smallest
/// bound at or above it, else the largest bound.
int64_t bucketOf(const BucketRule &rule, int64_t value);

/// Among `candidates` (bucket vectors of the same length as `key`), the one
/// nearest to `key`: the smallest sum over dimensions of the distance of
/// log2 values (values below 1 count as 1); ties go to the earlier one.
/// Returns candidates.size() when there is none.
size_t nearestBucket(const std::vector<int64_t> &key,
                     const std::vector<std::vector<int64_t>> &candidates);

/// The median of `samples` (the mean of the middle two for an even count);
/// NaN for none.
double median(std::vector<double> samples);

/// The config the autotuner keeps, given each candidate's median time in
/// declaration order (NaN: skipped). The fastest replaces the earliest
/// timed config only when it is more than `margin` (0.02: 2 %) faster, so
/// that noise between nearly equal configs does not flip the choice from
/// run to run. Returns medians.size() when every candidate was skipped.
size_t chooseConfig(const std::vector<double> &medians, double margin = 0.02);

/// Where the user cache lives: $BLK_CACHE_DIR, else $XDG_CACHE_HOME/blk,
/// else $HOME/.cache/blk ("" when none of them is set).
std::string tuningCacheDirectory();

/// How the launcher tunes (BLK_AUTOTUNE): Off: never (the first valid
/// config; tables and caches unused); Cached: tables, this process's
/// decisions and the cache only, never time; On (default): time what
/// they do not answer; Force: time every key once per process, ignoring
/// tables and the cache (and update the cache).
enum class AutotuneMode { Off, Cached, On, Force };

/// BLK_AUTOTUNE's value (unset or unknown: On; an unknown value is
/// reported once on stderr).
AutotuneMode autotuneModeFromEnvironment();

/// Where a launch's config came from.
enum class AutotuneSource {
  Memory,  ///< decided earlier in this process, or Context::loadTuning
  Table,   ///< a table embedded in the fatbin for this device
  Cache,   ///< the user cache
  Tuned,   ///< timed now
  Default  ///< nothing known and no tuning: the first valid config
};
const char *autotuneSourceName(AutotuneSource source);

/// One autotuning decision (Context::onAutotune, BLK_AUTOTUNE_PRINT=1).
struct AutotuneEvent {
  std::string module;  ///< the module's name (its file)
  std::string kernel;
  std::vector<std::pair<std::string, int64_t>> key;    ///< exact values
  std::vector<std::pair<std::string, int64_t>> bucket; ///< their buckets
  AutotuneSource source = AutotuneSource::Default;
  std::string config; ///< the chosen config key
  std::vector<TuningTiming> timings; ///< what was timed now (Tuned) or known
  std::vector<std::pair<std::string, std::string>> skipped; ///< config, why
  std::string note;  ///< why no tuning happened, when it did not
  double tuningMs = 0; ///< host time spent deciding (timing included)
};

/// One line describing `event` (what BLK_AUTOTUNE_PRINT=1 prints).
std::string formatAutotuneEvent(const AutotuneEvent &event);

} // namespace blk
