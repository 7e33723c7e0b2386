//===- ManifestKeys.cpp - a specialisation's config_key and code_hash ----===//
//
// The two names a tuning table gives a config (docs/manifest.md): which
// values it compiles (`config_key`) and which machine code it is
// (`code_hash`, of the PTX less its comments and line info: moving a kernel
// down a line, building with --lineinfo or with another -j does not change
// its machine code). Tests: tests/unit/Target/ManifestTest.cpp,
// tests/lit/target/manifest-code-hash.test.
//
//===----------------------------------------------------------------------===//
#include "ManifestJson.h"

#include "blk/Support/Fnv1a.h"

#include <charconv>

namespace blk::target {

/// One config value as the key spells it.
static std::string keyValue(const Json &value) {
  if (value.is_boolean())
    return value.get<bool>() ? "true" : "false";
  if (value.is_number_integer())
    return value.dump();
  if (value.is_number_float()) {
    // std::to_chars without a precision is the shortest text that reads
    // back as the same double.
    char buffer[32];
    auto [end, ec] = std::to_chars(buffer, buffer + sizeof buffer, value.get<double>());
    return ec == std::errc() ? std::string(buffer, end) : value.dump();
  }
  if (value.is_string())
    return value.get<std::string>();
  return value.dump();
}

std::string configKey(const Json &config, int64_t numWarps, int64_t numStages,
                      bool warpSpecialize, bool persistent) {
  std::string key;
  for (const auto &[name, value] : config.items())
    key += name + "=" + keyValue(value) + " ";
  return key + "num_warps=" + std::to_string(numWarps) +
         " num_stages=" + std::to_string(numStages) +
         (warpSpecialize ? " warp_specialize=1" : "") + (persistent ? " persistent=1" : "");
}

/// Whether a PTX line is line info (`--lineinfo`): `.loc`, `.file`, the
/// empty `.debug_*` sections and the labels they refer to. ptxas makes the
/// same machine code with or without them.
static bool isDebugLine(llvm::StringRef line) {
  line = line.ltrim();
  return line.starts_with(".loc") || line.starts_with(".file") ||
         line.starts_with(".section\t.debug") || line.starts_with(".section .debug") ||
         line.starts_with("$L__tmp") || line.starts_with("$L__func_begin") ||
         line.starts_with("$L__func_end");
}

std::string codeHash(llvm::ArrayRef<llvm::StringRef> entryCode) {
  uint64_t hash = kFnv1a64Basis;
  for (llvm::StringRef code : entryCode) {
    std::string kept;
    for (llvm::StringRef rest = code; !rest.empty();) {
      auto [line, tail] = rest.split('\n');
      rest = tail;
      // Comments go too: NVPTX numbers `// callseq N` in the order kernels
      // happen to be compiled on the job pool (PtxLink.cpp).
      line = line.take_front(line.find("//")).rtrim();
      if (!line.empty() && !isDebugLine(line))
        kept.append(line.data(), line.size()).push_back('\n');
    }
    hash = fnv1a64(std::to_string(kept.size()) + ":", hash);
    hash = fnv1a64(kept, hash);
  }
  return hex16(hash);
}

} // namespace blk::target
