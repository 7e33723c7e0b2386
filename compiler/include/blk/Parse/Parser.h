//===- Parser.h - Source text to AST ---------------------------*- C++ -*-===//
//
// The front door of the parser library: lexes (reporting lexical errors),
// refuses inputs nested deeper than a limit (so hostile input cannot
// overflow the stack), parses with the ANTLR grammar grammar/Blk.g4
// (reporting syntax errors without cascades) and builds the AST.
// ANTLR and its exceptions never leave this library.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_PARSE_PARSER_H
#define BLK_PARSE_PARSER_H

#include "blk/AST/AST.h"
#include "blk/Support/Diagnostic.h"

#include <memory>

namespace blk {

/// Limits that keep every later recursive walk of the AST shallow.
struct ParseOptions {
  /// Deepest nesting of `(`, `[`, `{` (together) and `else if` chains.
  unsigned maxNesting = 256;
  /// Tallest expression tree (e.g. operands in one `a + b + …` chain).
  unsigned maxExprHeight = 1000;
  /// After syntax errors, still return a module holding the declarations
  /// that parsed cleanly (the language server's hover, definition and
  /// completion keep working while a buffer is being edited); the names of
  /// the dropped ones are in Module::brokenNames. Off: nullptr.
  bool keepValidDecls = false;
};

/// Parses buffer `file` of `diags.getSourceManager()`. Reports lexical and
/// syntax errors to `diags`. Returns nullptr if and only if it reported an
/// error (except syntax errors under `options.keepValidDecls`); the returned
/// Module owns all its nodes.
std::unique_ptr<ast::Module> parseModule(FileId file, DiagnosticEngine &diags,
                                         const ParseOptions &options = {});

/// Parses only the bytes [begin, end) of `file` as a module (a piece from
/// splitTopLevelDecls): node ranges are offsets in the whole file, and the
/// module's range is [begin, end). Otherwise as parseModule.
std::unique_ptr<ast::Module> parseModuleRange(FileId file, uint32_t begin, uint32_t end,
                                              DiagnosticEngine &diags,
                                              const ParseOptions &options = {});

} // namespace blk

#endif // BLK_PARSE_PARSER_H
