//===- SyntaxErrors.h - ANTLR syntax errors as diagnostics -----*- C++ -*-===//
//
// Private to the parser library. The error strategy (ErrorStrategy.h)
// hands every syntax error to SyntaxErrorReporter, which words it as
// `parse_expected` ("expected `;`, found `}`") or `parse_unexpected` and
// drops cascades: at most one error per statement unit (TokenStructure.h);
// a `{` never closed is one error at that `{`, not one wherever the parser
// noticed.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LIB_PARSE_SYNTAXERRORS_H
#define BLK_LIB_PARSE_SYNTAXERRORS_H

#include "TokenStructure.h"

#include "blk/Support/Diagnostic.h"

#include "antlr4-runtime.h"

#include <string_view>
#include <vector>

namespace blk::parse {

/// Turns ANTLR error reports into diagnostics, one per unit at most.
class SyntaxErrorReporter {
public:
  SyntaxErrorReporter(FileId file, std::string_view text,
                      const std::vector<antlr4::Token *> &tokens,
                      const TokenStructure &structure, DiagnosticEngine &diags);

  /// Reports that `offending` is not one of `expected`.
  void report(antlr4::Parser *parser, antlr4::Token *offending,
              const antlr4::misc::IntervalSet &expected);
  /// Reports the `{` never closed, if not done yet (the parser may not
  /// have reached the point where it notices). `noticed`: the declaration
  /// keyword inside a body where the parser noticed, if any.
  void reportUnclosedBraces(const antlr4::Token *noticed = nullptr);
  bool hadErrors() const { return errors != 0; }
  const TokenStructure &getStructure() const { return structure; }

private:
  SourceRange rangeOf(const antlr4::Token *token) const;
  /// The end of the last visible token before `offending` (for "expected `;`").
  SourceRange afterPrevious(const antlr4::Token *offending) const;
  /// The `n`-th visible token before token `index`, or nullptr.
  const antlr4::Token *previous(size_t index, unsigned n) const;
  std::string spelling(const antlr4::Token *token) const;
  /// A note for mistakes with a known cause (Python or C habits), or "".
  std::string hintFor(antlr4::Parser *parser,
                      const antlr4::Token *offending) const;

  FileId file;
  std::string_view text;
  const std::vector<antlr4::Token *> &tokens;
  const TokenStructure &structure;
  DiagnosticEngine &diags;
  uint32_t lastUnit = UINT32_MAX;
  /// After a missing `;` before a token that starts a line, that token
  /// starts the next statement: errors from it on are not follow-ons.
  size_t resumeAt = TokenStructure::kNone;
  unsigned errors = 0;
  bool reportedUnclosed = false;
  /// Errors reported at a `{`: such a stray `{` already explains a `{`
  /// that is never closed.
  unsigned strayOpeners = 0;
};

} // namespace blk::parse

#endif // BLK_LIB_PARSE_SYNTAXERRORS_H
