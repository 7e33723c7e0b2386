//===- Tuning.h - tuning tables embedded by `blkc build --tuning` -*- C++ -*-===//
//
// A tuning table (format `blk-tuning`, version 1; docs/manifest.md,
// "Tuning tables") records, for one device, which config the autotuner
// chose for each kernel and key value. `blkc build --tuning FILE` reads
// each table here (its form: JSON, format, version, device, the types of
// every entry field) before any code is generated, then the manifest
// builder checks its entries against the kernels just compiled and embeds
// it, normalised, as the manifest's `tuning` (Manifest.h).
// Tests: tests/unit/Target/TuningTest.cpp, tests/lit/target/tuning-*.test.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_TARGET_TUNING_H
#define BLK_TARGET_TUNING_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace blk::target {

/// The `format` and `version` a table must have.
constexpr llvm::StringLiteral kTuningFormat = "blk-tuning";
constexpr int kTuningVersion = 1;

/// One measured config of an entry.
struct TuningTiming {
  std::string config;
  std::optional<std::string> codeHash; ///< the build it was measured on
  double ms = 0;
};

/// One config the tuner did not time, and why.
struct TuningSkip {
  std::string config;
  std::string reason;
};

/// The config chosen for one kernel at one key value.
struct TuningEntry {
  std::string kernel;
  /// Key names with their values, in the table's order.
  std::vector<std::pair<std::string, int64_t>> key;
  std::string config; ///< a config_key of the kernel
  std::vector<TuningTiming> timings;
  std::vector<TuningSkip> skipped;
};

/// A table as read from its file; fields the format does not define are
/// dropped (so `artifact` and the like do not reach the manifest).
struct TuningTable {
  std::string path; ///< as given on the command line (names it in messages)
  std::string deviceName;
  int64_t sm = 0;
  std::vector<TuningEntry> entries;
};

/// Parses `text` as a table. Errors name `path` and, for a field of an
/// entry, the entry (counted from 1): `t.json: entry 3: `key` must ...`.
llvm::Expected<TuningTable> parseTuningTable(llvm::StringRef text, llvm::StringRef path);

/// Reads the file at `path` and parses it (parseTuningTable).
llvm::Expected<TuningTable> readTuningTable(llvm::StringRef path);

} // namespace blk::target

#endif // BLK_TARGET_TUNING_H
