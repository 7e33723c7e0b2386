//===- Fnv1a.h - 64-bit FNV-1a, the hash of the artifact's fields -*- C++ -*-===//
//
// The one hash the artifact records: the manifest's `source_hash`
// (`fnv1a64:` + 16 hex digits of the source text) and each
// specialisation's `code_hash` (docs/manifest.md). Not cryptographic: it
// tells builds apart, it does not authenticate them.
// Tests: tests/unit/Target/ManifestTest.cpp (code_hash), tests/lit/irgen.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_SUPPORT_FNV1A_H
#define BLK_SUPPORT_FNV1A_H

#include <cstdint>
#include <string>
#include <string_view>

namespace blk {

/// The FNV-1a 64 offset basis: the hash of nothing.
inline constexpr uint64_t kFnv1a64Basis = 0xcbf29ce484222325ull;

/// Continues the FNV-1a 64 hash `hash` over `bytes` (so pieces can be
/// hashed one after another as if concatenated).
inline uint64_t fnv1a64(std::string_view bytes, uint64_t hash = kFnv1a64Basis) {
  for (unsigned char c : bytes) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

/// `hash` as 16 lowercase hex digits.
inline std::string hex16(uint64_t hash) {
  static const char kDigits[] = "0123456789abcdef";
  std::string out(16, '0');
  for (int i = 15; i >= 0; --i, hash >>= 4)
    out[size_t(i)] = kDigits[hash & 15];
  return out;
}

} // namespace blk

#endif // BLK_SUPPORT_FNV1A_H
