//===- Format.h - The canonical layout of blk source (blkc fmt) -*- C++ -*-===//
//
// One style, no options: 4-space indentation by block depth (a line that
// continues a statement, inside brackets or after an operator, one level
// more), `{` on the line of what it opens, `}` on its own line (`} else
// {`), one statement per line, at most one blank line and none just inside
// a block, one space around binary operators, `=`, `->` and `as`, after
// `,` and `:`, none inside brackets, before `(`/`[` of a call, index or
// shape, or after a unary operator; comments kept where they are; no
// trailing spaces, one final newline. Line breaks inside a statement are the
// author's. Only whitespace changes, so the tokens (and the program) stay
// the same, and formatting formatted text changes nothing.
// The text must lex (callers parse it first: blkc fmt and the language
// server refuse text with syntax errors).
// Tests: tests/lit/format/*.blk, tests/format/check_fmt.py (every sample and
// stdlib file: idempotent and the same IR).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_FORMAT_FORMAT_H
#define BLK_FORMAT_FORMAT_H

#include <string>
#include <string_view>

namespace blk {

/// `text` in the canonical layout.
std::string formatSource(std::string_view text);

} // namespace blk

#endif // BLK_FORMAT_FORMAT_H
