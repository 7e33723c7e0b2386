//===- TuningTable.cpp - tuning tables and the autotuner's pure rules -----===//
//
// Driver-free (blkrt_artifact): the table format of docs/tuning.md, key
// buckets, the nearest-bucket fallback and the decision rule, so blkc and
// the unit tests share them with the launcher.
//
//===----------------------------------------------------------------------===//
#include "TuningJson.h"
#include "blk/runtime/Error.h"
#include "blk/runtime/Tuning.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <sstream>

namespace blk {
namespace detail {
namespace {

[[noreturn]] void bad(const std::string &where, const std::string &what) {
  throw Error(where + ": " + what);
}

using Json = nlohmann::ordered_json;

const Json &member(const Json &obj, const char *key, const std::string &where) {
  if (!obj.is_object())
    bad(where, "expected an object");
  auto it = obj.find(key);
  if (it == obj.end())
    bad(where, std::string("missing \"") + key + "\"");
  return *it;
}

std::string text(const Json &obj, const char *key, const std::string &where) {
  const Json &v = member(obj, key, where);
  if (!v.is_string())
    bad(where + "." + key, "expected a string");
  return v.get<std::string>();
}

TuningEntry entryFromJson(const Json &e, const std::string &where) {
  TuningEntry entry;
  entry.kernel = text(e, "kernel", where);
  const Json &key = member(e, "key", where);
  if (!key.is_object())
    bad(where + ".key", "expected an object of integers");
  for (auto it = key.begin(); it != key.end(); ++it) {
    if (!it->is_number_integer())
      bad(where + ".key." + it.key(), "expected an integer");
    entry.key.emplace_back(it.key(), it->get<int64_t>());
  }
  entry.config = text(e, "config", where);
  if (e.contains("timings")) {
    const Json &ts = e["timings"];
    if (!ts.is_array())
      bad(where + ".timings", "expected an array");
    for (size_t i = 0; i < ts.size(); ++i) {
      std::string at = where + ".timings[" + std::to_string(i) + "]";
      TuningTiming t;
      t.config = text(ts[i], "config", at);
      if (ts[i].contains("code_hash"))
        t.codeHash = text(ts[i], "code_hash", at);
      const Json &ms = member(ts[i], "ms", at);
      if (!ms.is_number() || !(ms.get<double>() >= 0))
        bad(at + ".ms", "expected a time in milliseconds");
      t.ms = ms.get<double>();
      entry.timings.push_back(t);
    }
  }
  if (e.contains("skipped")) {
    const Json &ss = e["skipped"];
    if (!ss.is_array())
      bad(where + ".skipped", "expected an array");
    for (size_t i = 0; i < ss.size(); ++i) {
      std::string at = where + ".skipped[" + std::to_string(i) + "]";
      entry.skipped.emplace_back(text(ss[i], "config", at), text(ss[i], "reason", at));
    }
  }
  return entry;
}

} // namespace

TuningTable tuningTableFromJson(const Json &j, const std::string &where) {
  if (!j.is_object())
    bad(where, "expected a tuning table object");
  if (!j.contains("format") || j["format"] != "blk-tuning")
    bad(where, "not a blk tuning table (\"format\": \"blk-tuning\" missing)");
  const Json &version = member(j, "version", where);
  if (version != 1)
    bad(where + ".version", "unsupported version " + version.dump() +
                                " (this runtime reads version 1)");
  TuningTable table;
  const Json &device = member(j, "device", where);
  table.deviceName = text(device, "name", where + ".device");
  const Json &sm = member(device, "sm", where + ".device");
  if (!sm.is_number_unsigned() || sm.get<uint64_t>() > 10000)
    bad(where + ".device.sm", "expected a compute capability such as 90");
  table.sm = unsigned(sm.get<uint64_t>());
  const Json &entries = member(j, "entries", where);
  if (!entries.is_array())
    bad(where + ".entries", "expected an array");
  for (size_t i = 0; i < entries.size(); ++i)
    table.entries.push_back(
        entryFromJson(entries[i], where + ".entries[" + std::to_string(i) + "]"));
  return table;
}

nlohmann::ordered_json tuningTableToJson(const TuningTable &table) {
  using OJson = nlohmann::ordered_json;
  OJson entries = OJson::array();
  for (const TuningEntry &e : table.entries) {
    OJson key = OJson::object();
    for (const auto &[name, value] : e.key)
      key[name] = value;
    OJson entry = {{"kernel", e.kernel}, {"key", key}, {"config", e.config}};
    if (!e.timings.empty()) {
      OJson ts = OJson::array();
      for (const TuningTiming &t : e.timings) {
        OJson one = {{"config", t.config}};
        if (!t.codeHash.empty())
          one["code_hash"] = t.codeHash;
        one["ms"] = t.ms;
        ts.push_back(one);
      }
      entry["timings"] = ts;
    }
    if (!e.skipped.empty()) {
      OJson ss = OJson::array();
      for (const auto &[config, reason] : e.skipped)
        ss.push_back({{"config", config}, {"reason", reason}});
      entry["skipped"] = ss;
    }
    entries.push_back(entry);
  }
  return {{"format", "blk-tuning"},
          {"version", 1},
          {"device", {{"name", table.deviceName}, {"sm", table.sm}}},
          {"entries", entries}};
}

} // namespace detail

TuningTable parseTuningTable(std::string_view json, const std::string &origin) {
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(json.begin(), json.end(), nullptr,
                                                           /*allow_exceptions=*/false);
  if (j.is_discarded())
    throw Error(origin + ": not valid JSON");
  try {
    return detail::tuningTableFromJson(j, origin);
  } catch (const nlohmann::ordered_json::exception &e) {
    throw Error(origin + ": " + e.what());
  }
}

std::string formatTuningTable(const TuningTable &table) {
  return detail::tuningTableToJson(table).dump(2) + "\n";
}

int64_t bucketOf(const BucketRule &rule, int64_t value) {
  switch (rule.kind) {
  case BucketRule::Kind::Exact:
    return value;
  case BucketRule::Kind::List:
    for (int64_t bound : rule.bounds)
      if (value <= bound)
        return bound;
    return rule.bounds.empty() ? value : rule.bounds.back();
  case BucketRule::Kind::Pow2:
    break;
  }
  if (value <= 16)
    return value;
  if (value > (int64_t(1) << 62))
    return int64_t(1) << 62;
  int64_t p = 32;
  while (p < value)
    p <<= 1;
  return p;
}

size_t nearestBucket(const std::vector<int64_t> &key,
                     const std::vector<std::vector<int64_t>> &candidates) {
  size_t best = candidates.size();
  double bestDistance = std::numeric_limits<double>::infinity();
  for (size_t c = 0; c < candidates.size(); ++c) {
    if (candidates[c].size() != key.size())
      continue;
    double d = 0;
    for (size_t i = 0; i < key.size(); ++i)
      d += std::fabs(std::log2(double(std::max<int64_t>(key[i], 1))) -
                     std::log2(double(std::max<int64_t>(candidates[c][i], 1))));
    if (d < bestDistance) {
      bestDistance = d;
      best = c;
    }
  }
  return best;
}

double median(std::vector<double> samples) {
  if (samples.empty())
    return std::nan("");
  std::sort(samples.begin(), samples.end());
  size_t n = samples.size();
  return n % 2 ? samples[n / 2] : (samples[n / 2 - 1] + samples[n / 2]) / 2;
}

size_t chooseConfig(const std::vector<double> &medians, double margin) {
  size_t earliest = medians.size(), fastest = medians.size();
  for (size_t i = 0; i < medians.size(); ++i) {
    if (std::isnan(medians[i]))
      continue;
    if (earliest == medians.size())
      earliest = i;
    if (fastest == medians.size() || medians[i] < medians[fastest])
      fastest = i;
  }
  if (earliest == medians.size())
    return earliest;
  return medians[fastest] < medians[earliest] * (1 - margin) ? fastest : earliest;
}

std::string tuningCacheDirectory() {
  auto env = [](const char *name) -> std::string {
    const char *v = std::getenv(name);
    return v && *v ? v : "";
  };
  if (std::string dir = env("BLK_CACHE_DIR"); !dir.empty())
    return dir;
  if (std::string xdg = env("XDG_CACHE_HOME"); !xdg.empty())
    return xdg + "/blk";
  if (std::string home = env("HOME"); !home.empty())
    return home + "/.cache/blk";
  return "";
}

AutotuneMode autotuneModeFromEnvironment() {
  const char *v = std::getenv("BLK_AUTOTUNE");
  if (!v || !*v || !std::strcmp(v, "on") || !std::strcmp(v, "1"))
    return AutotuneMode::On;
  if (!std::strcmp(v, "off") || !std::strcmp(v, "0"))
    return AutotuneMode::Off;
  if (!std::strcmp(v, "cached"))
    return AutotuneMode::Cached;
  if (!std::strcmp(v, "force"))
    return AutotuneMode::Force;
  static bool reported = false;
  if (!reported) {
    reported = true;
    std::fprintf(stderr, "blk: BLK_AUTOTUNE=%s is not off, cached, on or force; using on\n", v);
  }
  return AutotuneMode::On;
}

const char *autotuneSourceName(AutotuneSource source) {
  switch (source) {
  case AutotuneSource::Memory:
    return "memory";
  case AutotuneSource::Table:
    return "table";
  case AutotuneSource::Cache:
    return "cache";
  case AutotuneSource::Tuned:
    return "tuned";
  default:
    return "default";
  }
}

std::string formatAutotuneEvent(const AutotuneEvent &e) {
  std::ostringstream os;
  os << "blk autotune: " << e.kernel << " [";
  for (size_t i = 0; i < e.key.size(); ++i) {
    os << (i ? " " : "") << e.key[i].first << "=" << e.key[i].second;
    if (i < e.bucket.size() && e.bucket[i].second != e.key[i].second)
      os << "->" << e.bucket[i].second;
  }
  os << "] " << autotuneSourceName(e.source) << ": " << e.config;
  if (!e.timings.empty()) {
    os << " (";
    for (size_t i = 0; i < e.timings.size(); ++i) {
      char ms[32];
      std::snprintf(ms, sizeof ms, "%.4f", e.timings[i].ms);
      os << (i ? ", " : "") << e.timings[i].config << ": " << ms << " ms";
    }
    os << ")";
  }
  for (const auto &[config, reason] : e.skipped)
    os << "; skipped " << config << ": " << reason;
  if (!e.note.empty())
    os << "; " << e.note;
  char took[32];
  std::snprintf(took, sizeof took, "%.1f", e.tuningMs);
  os << " [" << took << " ms]";
  return os.str();
}

} // namespace blk
