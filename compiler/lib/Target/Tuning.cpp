//===- Tuning.cpp - read, check and embed tuning tables ------------------===//
//
// Reading checks the table's form; embedding (addTuningTables) checks each
// entry against the kernels of the build and writes the table back in one
// fixed shape: fields in the documented order, the key in the kernel's key
// order, unknown fields dropped, so that a build with a table is as
// reproducible as one without. Messages name the file and the entry
// (counted from 1) and describe values by kind, never quote them whole.
// Tests: tests/unit/Target/TuningTest.cpp, tests/lit/target/tuning-*.test.
//
//===----------------------------------------------------------------------===//
#include "ManifestJson.h"

#include "blk/Support/EditDistance.h"

#include "llvm/Support/MemoryBuffer.h"

#include <map>
#include <set>

namespace blk::target {

namespace {

/// Collects the first error of one table.
class TableReader {
public:
  explicit TableReader(llvm::StringRef path) : path(path.str()) {}

  llvm::Error fail(const std::string &what) {
    return llvm::createStringError(path + ": " + what);
  }
  llvm::Error failEntry(size_t index, const std::string &what) {
    return fail("entry " + std::to_string(index + 1) + ": " + what);
  }

  llvm::Expected<TuningEntry> entry(const Json &json, size_t index);

  std::string path;
};

/// "a string", "an object", … for messages.
std::string kindOf(const Json &value) {
  if (value.is_null())
    return "null";
  if (value.is_boolean())
    return "a boolean";
  if (value.is_number_integer())
    return "an integer";
  if (value.is_number())
    return "a number";
  if (value.is_string())
    return "a string";
  if (value.is_array())
    return "an array";
  return "an object";
}

/// `object[key]` when `object` is an object that has it, else null.
const Json *field(const Json &object, const char *key) {
  if (!object.is_object())
    return nullptr;
  auto it = object.find(key);
  return it == object.end() ? nullptr : &*it;
}

/// field() when it is a string.
const Json *stringField(const Json &object, const char *key) {
  const Json *value = field(object, key);
  return value && value->is_string() ? value : nullptr;
}

bool isInt64(const Json &value) {
  return value.is_number_integer() &&
         (!value.is_number_unsigned() || value.get<uint64_t>() <= uint64_t(INT64_MAX));
}

std::string joinQuoted(const std::vector<std::string> &names) {
  std::string text;
  for (const std::string &name : names)
    text += (text.empty() ? "`" : ", `") + name + "`";
  return text.empty() ? "(none)" : text;
}

} // namespace

llvm::Expected<TuningEntry> TableReader::entry(const Json &json, size_t index) {
  if (!json.is_object())
    return failEntry(index, "must be an object, found " + kindOf(json));
  TuningEntry entry;
  const Json *kernel = stringField(json, "kernel");
  const Json *config = stringField(json, "config");
  if (!kernel || !config)
    return failEntry(index, "needs `kernel` and `config`, both strings");
  entry.kernel = kernel->get<std::string>();
  entry.config = config->get<std::string>();
  const Json *key = field(json, "key");
  if (!key || !key->is_object())
    return failEntry(index, "`key` must be an object of integers, as in {\"M\": 4096}");
  for (const auto &[name, value] : key->items()) {
    if (!isInt64(value))
      return failEntry(index, "key `" + name + "` must be a 64-bit integer, found " + kindOf(value));
    entry.key.push_back({name, value.get<int64_t>()});
  }
  if (const Json *timings = field(json, "timings")) {
    if (!timings->is_array())
      return failEntry(index, "`timings` must be an array, found " + kindOf(*timings));
    for (const Json &t : *timings) {
      const Json *name = stringField(t, "config");
      const Json *ms = field(t, "ms");
      if (!name || !ms || !ms->is_number())
        return failEntry(index, "each timing needs `config` (a string) and `ms` (a number)");
      TuningTiming timing{name->get<std::string>(), std::nullopt, ms->get<double>()};
      if (const Json *hash = field(t, "code_hash")) {
        if (!hash->is_string())
          return failEntry(index, "a timing's `code_hash` must be a string");
        timing.codeHash = hash->get<std::string>();
      }
      entry.timings.push_back(std::move(timing));
    }
  }
  if (const Json *skipped = field(json, "skipped")) {
    if (!skipped->is_array())
      return failEntry(index, "`skipped` must be an array, found " + kindOf(*skipped));
    for (const Json &skip : *skipped) {
      const Json *name = stringField(skip, "config");
      const Json *reason = stringField(skip, "reason");
      if (!name || !reason)
        return failEntry(index, "each skipped config needs `config` and `reason`, both strings");
      entry.skipped.push_back({name->get<std::string>(), reason->get<std::string>()});
    }
  }
  return entry;
}

llvm::Expected<TuningTable> parseTuningTable(llvm::StringRef text, llvm::StringRef path) {
  TableReader reader(path);
  Json root;
  try {
    root = Json::parse(text.begin(), text.end());
  } catch (const Json::parse_error &err) {
    // "[json.exception.parse_error.101] parse error at line 2, column 5: …"
    llvm::StringRef what = err.what();
    size_t at = what.find("parse error");
    return reader.fail("not valid JSON: " + (at == llvm::StringRef::npos ? what : what.drop_front(at)).str());
  }
  if (!root.is_object())
    return reader.fail("a tuning table is a JSON object, found " + kindOf(root));
  const Json *format = stringField(root, "format");
  if (!format || *format != kTuningFormat.str())
    return reader.fail("not a tuning table: `format` must be \"" + kTuningFormat.str() + "\"");
  const Json *version = field(root, "version");
  if (!version || !version->is_number_integer() || *version != kTuningVersion)
    return reader.fail("tuning table version " +
                       (version && version->is_number_integer() ? version->dump()
                                                                : std::string("missing")) +
                       " is not supported (blkc reads version " +
                       std::to_string(kTuningVersion) + ")");
  TuningTable table;
  table.path = path.str();
  const Json *device = field(root, "device");
  const Json *name = device ? stringField(*device, "name") : nullptr;
  const Json *sm = device ? field(*device, "sm") : nullptr;
  if (!name || !sm || !isInt64(*sm))
    return reader.fail("`device` must be an object with `name` (a string) and `sm` (an "
                       "integer), as in {\"name\": \"NVIDIA H200\", \"sm\": 90}");
  table.deviceName = name->get<std::string>();
  table.sm = sm->get<int64_t>();
  const Json *entries = field(root, "entries");
  if (!entries || !entries->is_array())
    return reader.fail("`entries` must be an array");
  for (size_t i = 0; i < entries->size(); ++i) {
    auto entry = reader.entry((*entries)[i], i);
    if (!entry)
      return entry.takeError();
    table.entries.push_back(std::move(*entry));
  }
  return table;
}

llvm::Expected<TuningTable> readTuningTable(llvm::StringRef path) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/false);
  if (!buffer)
    return llvm::createStringError(path.str() + ": cannot read the tuning table: " +
                                   buffer.getError().message());
  return parseTuningTable((*buffer)->getBuffer(), path);
}

namespace {

/// What an entry is checked against: one kernel of the manifest.
struct TunableKernel {
  bool autotune = false;
  std::vector<std::string> key;
  std::map<std::string, std::string> codeHash; ///< config_key -> code_hash ("" if none)
  std::vector<std::string> configs;            ///< config_keys in manifest order
};

std::map<std::string, TunableKernel> tunableKernels(const Json &manifest) {
  std::map<std::string, TunableKernel> kernels;
  for (const Json &k : manifest["kernels"]) {
    TunableKernel &t = kernels[k["name"].get<std::string>()];
    if (k.contains("autotune")) {
      t.autotune = true;
      t.key = k["autotune"]["key"].get<std::vector<std::string>>();
    }
    for (const Json &spec : k["specializations"]) {
      std::string config = spec.value("config_key", "");
      t.configs.push_back(config);
      t.codeHash[config] = spec.value("code_hash", "");
    }
  }
  return kernels;
}

/// Checks one entry; fills `normalised`.
llvm::Error checkEntry(const TuningTable &table, size_t index, const TuningEntry &entry,
                       const std::map<std::string, TunableKernel> &kernels, Json &normalised,
                       std::vector<std::string> &warnings) {
  TableReader reader(table.path);
  auto it = kernels.find(entry.kernel);
  if (it == kernels.end()) {
    std::vector<std::string> names;
    for (const auto &k : kernels)
      names.push_back(k.first);
    std::optional<std::string> near = closestName(entry.kernel, names);
    return reader.failEntry(index, "no kernel `" + entry.kernel + "` in this build" +
                                       (near ? " (did you mean `" + *near + "`?)" : "") +
                                       "; kernels: " + joinQuoted(names));
  }
  const TunableKernel &kernel = it->second;
  if (!kernel.autotune)
    return reader.failEntry(index, "kernel `" + entry.kernel + "` has no `@autotune`");
  std::set<std::string> given, wanted(kernel.key.begin(), kernel.key.end());
  for (const auto &[name, value] : entry.key)
    given.insert(name);
  if (given != wanted) {
    std::vector<std::string> names;
    for (const auto &[name, value] : entry.key)
      names.push_back(name);
    return reader.failEntry(index, "key " + joinQuoted(names) + " is not the autotune key of `" +
                                       entry.kernel + "`, " + joinQuoted(kernel.key));
  }
  if (!kernel.codeHash.count(entry.config))
    return reader.failEntry(index, "kernel `" + entry.kernel + "` has no config `" +
                                       entry.config + "`; configs: " +
                                       joinQuoted(kernel.configs));
  normalised = {{"kernel", entry.kernel}, {"key", Json::object()}, {"config", entry.config}};
  for (const std::string &name : kernel.key)
    for (const auto &[given, value] : entry.key)
      if (given == name)
        normalised["key"][name] = value;
  for (const TuningTiming &timing : entry.timings) {
    Json t = {{"config", timing.config}};
    if (timing.codeHash)
      t["code_hash"] = *timing.codeHash;
    t["ms"] = timing.ms;
    normalised["timings"].push_back(std::move(t));
    auto built = kernel.codeHash.find(timing.config);
    std::string where = table.path + ": entry " + std::to_string(index + 1) + ": the timing of `" +
                        entry.kernel + "` config `" + timing.config + "` was tuned on a different build";
    if (built == kernel.codeHash.end())
      warnings.push_back(where + " (this build has no such config)");
    else if (timing.codeHash && !built->second.empty() && *timing.codeHash != built->second)
      warnings.push_back(where + " (code_hash " + *timing.codeHash + ", this build's " +
                         built->second + ")");
  }
  for (const TuningSkip &skip : entry.skipped)
    normalised["skipped"].push_back({{"config", skip.config}, {"reason", skip.reason}});
  return llvm::Error::success();
}

} // namespace

llvm::Error addTuningTables(Json &manifest, llvm::ArrayRef<TuningTable> tables,
                            std::vector<std::string> &warnings) {
  if (tables.empty())
    return llvm::Error::success();
  std::map<std::string, TunableKernel> kernels = tunableKernels(manifest);
  Json out = Json::array();
  for (const TuningTable &table : tables) {
    Json entries = Json::array();
    // The same kernel and key twice would leave the runtime two answers.
    std::map<std::pair<std::string, std::string>, size_t> seen;
    for (size_t i = 0; i < table.entries.size(); ++i) {
      Json entry;
      if (llvm::Error err = checkEntry(table, i, table.entries[i], kernels, entry, warnings))
        return err;
      auto [first, inserted] = seen.insert({{entry["kernel"].get<std::string>(), entry["key"].dump()}, i});
      if (!inserted)
        return TableReader(table.path)
            .failEntry(i, "the same kernel and key as entry " + std::to_string(first->second + 1));
      entries.push_back(std::move(entry));
    }
    out.push_back({{"format", kTuningFormat.str()},
                   {"version", kTuningVersion},
                   {"device", {{"name", table.deviceName}, {"sm", table.sm}}},
                   {"entries", std::move(entries)}});
  }
  manifest["tuning"] = std::move(out);
  return llvm::Error::success();
}

} // namespace blk::target
