//===- ArgSpecs.h - kernel arguments from `NAME=SPEC` specs, on the GPU -*- C++ -*-===//
//
// The argument specs of `blkc run --arg` (compiler/include/blk/Interpreter/
// ArgSpec.h) for the runtime's GPU tools, blk-tune and blk-bench, which are
// built without the compiler. Buffers: zeros:T:N, empty:T:N (zeros here),
// iota:T:N, fill:T:N:V, rand:T:N[:SEED] (floats in [0, 1), integers 0..9,
// SpecRandom: the interpreter's values exactly), file:T:PATH (raw
// little-endian elements). Scalars: integer literals (-3, 0x10, 0b101,
// 1_000, true, false) and float literals (2.5, inf, nan). Buffer values are
// rounded to T through f32 (f16, bf16, fp8): the interpreter rounds once
// from double, which differs only for a `fill:` value that f32 cannot hold.
// Tests: tests/unit/Runtime/blk_tune_test.sh, blk_bench_test.sh.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "blk/runtime.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace blk::tools {

/// A usage error: the tools print it and exit 2.
struct Usage {
  std::string message;
};

/// "NAME=SPEC NAME=SPEC ..." (whitespace-separated) into `out`; throws Usage
/// on an item without `=` or a name given twice.
void parseArgList(const std::string &text, std::map<std::string, std::string> &out);

/// An integer literal as `blkc run` reads it: sign, 0x / 0b, `_` separators.
std::optional<int64_t> parseIntLiteral(const std::string &text);

/// The contents of `path`; false (with `error`) when it cannot be read.
bool readFile(const std::string &path, std::vector<unsigned char> &bytes, std::string &error);

/// One pointer argument: its device memory and the bytes its spec gave.
struct SpecBuffer {
  size_t param = 0; ///< index into KernelDesc::params
  std::string name;
  uint64_t address = 0;
  ScalarKind elem = ScalarKind::I8;
  std::vector<unsigned char> initial;
};

/// The arguments of `kernel` built from `specs` (one per parameter), the
/// buffers allocated on `ctx` and freed with the ArgSet. Throws Usage for a
/// missing, unknown or malformed argument.
class ArgSet {
public:
  ArgSet(const Context &ctx, const KernelDesc &kernel,
         const std::map<std::string, std::string> &specs);
  ~ArgSet();
  ArgSet(const ArgSet &) = delete;
  ArgSet &operator=(const ArgSet &) = delete;

  /// In parameter order, for Kernel::launchValues.
  std::vector<ArgValue> &values() { return values_; }
  const std::vector<SpecBuffer> &buffers() const { return buffers_; }
  /// The buffer of parameter `name`, or nullptr.
  const SpecBuffer *buffer(const std::string &name) const;
  /// The value of the scalar parameter `name`.
  std::optional<double> scalar(const std::string &name) const;
  /// Evaluates `expr` (numbers, scalar parameter names, + - * / and
  /// parentheses: "2*M*N*K"); throws Usage naming what is wrong.
  double evaluate(const std::string &expr) const;

private:
  ArgValue scalarArg(const Param &p, const std::string &text);
  ArgValue bufferArg(size_t index, const Param &p, const std::string &spec);

  const Context &ctx_;
  std::vector<ArgValue> values_;
  std::vector<SpecBuffer> buffers_;
  std::map<std::string, double> scalars_;
};

} // namespace blk::tools
