// Shared by the runtime's error messages (fatbin magic, pointer addresses).
#pragma once

#include <cstdint>
#include <string>

namespace blk::detail {

/// `v` as lowercase hexadecimal with a `0x` prefix and no leading zeros.
inline std::string hexString(uint64_t v) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  do {
    s.insert(s.begin(), digits[v & 15]);
    v >>= 4;
  } while (v);
  return "0x" + s;
}

} // namespace blk::detail
