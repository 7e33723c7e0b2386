//===- TuningCache.cpp - the user's tuning cache on disk ------------------===//
#include "TuningCache.h"
#include "blk/runtime/Error.h"
#include "blk/runtime/Tuning.h"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <mutex>
#include <set>
#include <sstream>

namespace blk::detail {
namespace {

uint64_t fnv1a(const std::string &text, uint64_t h = 0xcbf29ce484222325ull) {
  for (unsigned char c : text) {
    h ^= c;
    h *= 0x100000001b3ull;
  }
  return h;
}

/// Letters, digits, '-' and '_' kept; anything else becomes '_'.
std::string slug(const std::string &s) {
  std::string out;
  for (char c : s)
    out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' ? c : '_';
  return out.empty() ? "_" : out;
}

/// `mkdir -p`; false on failure.
bool makeDirectories(const std::string &dir) {
  for (size_t i = 1; i <= dir.size(); ++i)
    if (i == dir.size() || dir[i] == '/') {
      std::string prefix = dir.substr(0, i);
      if (::mkdir(prefix.c_str(), 0755) != 0 && errno != EEXIST)
        return false;
    }
  return true;
}

void warnOnce(const std::string &message) {
  static std::mutex mutex;
  static std::set<std::string> said;
  std::lock_guard<std::mutex> lock(mutex);
  if (said.insert(message).second)
    std::fprintf(stderr, "blk: %s\n", message.c_str());
}

bool sameEntry(const TuningEntry &a, const TuningEntry &b) {
  return a.kernel == b.kernel && a.key == b.key;
}

} // namespace

std::string tuningCachePath(const Manifest &m, const std::string &deviceName, unsigned sm) {
  std::string dir = tuningCacheDirectory();
  if (dir.empty())
    return "";
  std::string identity = m.source;
  for (const KernelDesc &k : m.kernels)
    identity += "\n" + k.name;
  std::string stem = m.source.empty() ? "module" : m.source;
  size_t slash = stem.find_last_of('/');
  if (slash != std::string::npos)
    stem = stem.substr(slash + 1);
  size_t dot = stem.find('.');
  if (dot != std::string::npos && dot > 0)
    stem = stem.substr(0, dot);
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx", (unsigned long long)fnv1a(identity));
  return dir + "/" + slug(stem) + "-" + hash + "-" + slug(deviceName) + "-sm" +
         std::to_string(sm) + ".json";
}

std::optional<TuningTable> readTuningCache(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  try {
    return parseTuningTable(text.str(), path);
  } catch (const Error &e) {
    warnOnce("ignoring the corrupt tuning cache " + path + ": " + e.cause());
    return std::nullopt;
  }
}

void writeTuningCache(const std::string &path, const std::string &deviceName, unsigned sm,
                      const TuningEntry &entry) {
  size_t slash = path.find_last_of('/');
  if (slash != std::string::npos && !makeDirectories(path.substr(0, slash))) {
    warnOnce("cannot create the tuning cache directory " + path.substr(0, slash) + ": " +
             std::strerror(errno));
    return;
  }
  std::string lockPath = path + ".lock";
  int lock = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (lock < 0 || ::flock(lock, LOCK_EX) != 0) {
    warnOnce("cannot lock " + lockPath + ": " + std::strerror(errno));
    if (lock >= 0)
      ::close(lock);
    return;
  }
  TuningTable table;
  if (std::optional<TuningTable> old = readTuningCache(path);
      old && old->deviceName == deviceName && old->sm == sm)
    table = std::move(*old);
  table.deviceName = deviceName;
  table.sm = sm;
  bool replaced = false;
  for (TuningEntry &e : table.entries)
    if (sameEntry(e, entry)) {
      e = entry;
      replaced = true;
    }
  if (!replaced)
    table.entries.push_back(entry);
  std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out << formatTuningTable(table);
    out.flush();
    if (!out) {
      warnOnce("cannot write " + tmp);
      ::unlink(tmp.c_str());
      ::close(lock);
      return;
    }
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    warnOnce("cannot replace " + path + ": " + std::strerror(errno));
    ::unlink(tmp.c_str());
  }
  ::close(lock); // releases the lock
}

} // namespace blk::detail
