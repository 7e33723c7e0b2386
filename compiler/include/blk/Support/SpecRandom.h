//===- SpecRandom.h - the values of `rand:T:N[:SEED]` argument specs -*- C++ -*-===//
//
// One generator for every tool that reads argument specs: the interpreter
// (`blkc run --arg`) and the runtime's GPU tools (blk-bench, blk-tune), so
// `blkc bench --check` compares the GPU's result with the interpreter's on
// identical inputs. splitmix64 rather than <random>'s distributions, whose
// output differs between standard libraries. Header-only and LLVM-free: the
// runtime tools are built where no compiler is.
// Tests: tests/unit/Interpreter/ArgSpecTest.cpp, tests/unit/Runtime/blk_bench_test.sh.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_SUPPORT_SPECRANDOM_H
#define BLK_SUPPORT_SPECRANDOM_H

#include <cmath>
#include <cstdint>
#include <string_view>

namespace blk {

/// The stream of one `rand:` buffer (default seed 1).
class SpecRandom {
public:
  explicit SpecRandom(uint64_t seed) : state_(seed) {}

  /// splitmix64's next 64 bits.
  uint64_t next() {
    uint64_t z = (state_ += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  /// A float in [0, 1) with `digits` significant bits, so that it is exact
  /// in a type of that precision (never rounded up to 1.0).
  double nextUnit(unsigned digits) {
    return std::ldexp(double(next() >> (64 - digits)), -int(digits));
  }
  /// An integer in 0..9, or 0..1 for `i1`.
  int64_t nextSmallInt(bool isBool) {
    uint64_t r = next();
    return isBool ? int64_t(r & 1) : int64_t(r % 10);
  }

private:
  uint64_t state_;
};

/// The significand bits `rand:` uses for float type `name` ("f16": 11,
/// "bf16": 8, "f32": 24, "f8e4m3": 4, "f8e5m2": 3, else 53).
inline unsigned specRandomDigits(std::string_view name) {
  return name == "f16" ? 11 : name == "bf16" ? 8 : name == "f32" ? 24
         : name == "f8e4m3" ? 4 : name == "f8e5m2" ? 3 : 53;
}

} // namespace blk

#endif // BLK_SUPPORT_SPECRANDOM_H
