//===- InternalError.h - Compiler bugs -------------------------*- C++ -*-===//
//
// Errors in user code go through the DiagnosticEngine. A broken compiler
// invariant is a bug: report it as "internal compiler error" naming the
// stage, then abort so fuzzers and tests see it.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_SUPPORT_INTERNALERROR_H
#define BLK_SUPPORT_INTERNALERROR_H

#include <string_view>

namespace blk {

/// Prints "internal compiler error in <stage>: <message>" to stderr and
/// aborts.
[[noreturn]] void internalError(std::string_view stage,
                                std::string_view message);

} // namespace blk

/// Checks a compiler invariant (also in release builds).
#define BLK_ICE_ASSERT(cond, stage, message)                                   \
  do {                                                                         \
    if (!(cond))                                                               \
      ::blk::internalError(stage, message);                                    \
  } while (false)

#endif // BLK_SUPPORT_INTERNALERROR_H
