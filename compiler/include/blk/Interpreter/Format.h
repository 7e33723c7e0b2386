//===- Format.h - text forms of interpreter values ---------------*- C++ -*-===//
//
// Two forms: the shortest round-trip form used by `blkc run --print`
// (`0.1`, `499500`, `-3`), and the printf-like form of the `print` op, which
// mimics the GPU's device printf (`%f` floats, `%d` integers).
// Tests: tests/unit/Interpreter/FormatTest.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_INTERPRETER_FORMAT_H
#define BLK_INTERPRETER_FORMAT_H

#include "blk/Interpreter/Memory.h"

#include <array>
#include <string>

namespace blk::interp {

/// Shortest text that reads back to the same value of kind `kind`
/// (floats through std::to_chars of float or double; f16/bf16 as floats).
std::string formatShortestFloat(ElemKind kind, double v);
/// Element k of a buffer in shortest form (unsigned types printed unsigned).
std::string formatBufferElement(const Buffer &buf, size_t k);
/// "[v0, v1, ...]" with every element of `buf`.
std::string formatBuffer(const Buffer &buf);

/// Element k of `b` as the print op shows it: floats "%f", integers "%d"
/// (i1 as 0/1), pointers "name+offset".
std::string formatPrintValue(const Block &b, size_t k, const Memory &mem);
/// The lines a `print` op writes in program `pid`, as the GPU backend prints
/// them: one line per element of the block operands,
/// `pid (x, y, z) idx (i, j) <format>: v1, v2` (`%f` floats, `%d` integers),
/// one line without `idx (…)` when every operand is a scalar, and one print
/// per operand when blocks differ in shape. Beyond the GPU, each printf
/// conversion in the format (`%d`, `%5.2f`, `%x`, …) takes element (i, j) of
/// the next operand in place; the remaining operands follow after ": ".
std::string formatPrintOp(const std::string &format, const std::vector<const Block *> &values,
                          std::array<int64_t, 3> pid, const Memory &mem);

} // namespace blk::interp

#endif // BLK_INTERPRETER_FORMAT_H
