//===- ArgSpec.h - `blkc run --arg NAME=SPEC` values ------------*- C++ -*-===//
//
// Buffer specs for pointer parameters, T an element type (`f32`, `u8`, …):
//   zeros:T:N   N zeros            iota:T:N      0, 1, 2, …
//   fill:T:N:V  N copies of V      rand:T:N[:S]  floats uniform in [0, 1),
//   empty:T:N   never written        integers uniform in 0..9, seed S (1)
//   file:T:PATH raw little-endian elements of PATH
// Scalar parameters take a literal (`1000`, `-3`, `0x10`, `2.5`, `true`).
// Errors are usage errors naming the parameter.
// Tests: tests/unit/Interpreter/ArgSpecTest.cpp, tests/lit/interp/.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_INTERPRETER_ARGSPEC_H
#define BLK_INTERPRETER_ARGSPEC_H

#include "blk/Interpreter/Interpreter.h"

namespace blk::interp {

/// Options of argument creation.
struct ArgSpecOptions {
  /// Treat `zeros:` and `empty:` buffers as never written, so loads of
  /// elements no program stored are reported (`--check-uninit`).
  bool checkUninit = false;
};

/// Builds the argument for parameter `param` from `spec`, creating its
/// buffer (named after the parameter) in `mem`.
llvm::Expected<Arg> makeArg(const ParamInfo &param, llvm::StringRef spec, Memory &mem,
                            const ArgSpecOptions &options = {});

/// Parses an integer literal (decimal, 0x, 0b, `_` separators, sign).
std::optional<int64_t> parseIntLiteral(llvm::StringRef text);

} // namespace blk::interp

#endif // BLK_INTERPRETER_ARGSPEC_H
