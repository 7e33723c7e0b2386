//===- SyntaxErrors.h - ANTLR syntax errors as diagnostics -----*- C++ -*-===//
//
// Private to the parser library. BlkErrorStrategy keeps ANTLR's recovery
// (single-token insertion/deletion, resynchronisation) but replaces its
// messages: every syntax error becomes `parse_expected` ("expected `;`,
// found `}`") or `parse_unexpected`. SyntaxErrorReporter drops cascades:
// at most one error per top-level declaration.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LIB_PARSE_SYNTAXERRORS_H
#define BLK_LIB_PARSE_SYNTAXERRORS_H

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
                      DiagnosticEngine &diags);

  /// Reports that `offending` is not one of `expected`.
  void report(antlr4::Parser *parser, antlr4::Token *offending,
              const antlr4::misc::IntervalSet &expected);
  bool hadErrors() const { return errors != 0; }

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
  DiagnosticEngine &diags;
  std::vector<uint32_t> unitOf; // token index -> unit number
  std::vector<bool>
      unmatchedCloser; // token index -> `)`/`]`/`}` without opener
  uint32_t lastUnit = UINT32_MAX;
  unsigned errors = 0;
};

/// ANTLR's default recovery with blk's messages.
class BlkErrorStrategy : public antlr4::DefaultErrorStrategy {
public:
  explicit BlkErrorStrategy(SyntaxErrorReporter &reporter)
      : reporter(reporter) {}

protected:
  void
  reportNoViableAlternative(antlr4::Parser *parser,
                            const antlr4::NoViableAltException &e) override;
  void reportInputMismatch(antlr4::Parser *parser,
                           const antlr4::InputMismatchException &e) override;
  void
  reportFailedPredicate(antlr4::Parser *parser,
                        const antlr4::FailedPredicateException &e) override;
  void reportUnwantedToken(antlr4::Parser *parser) override;
  void reportMissingToken(antlr4::Parser *parser) override;

private:
  SyntaxErrorReporter &reporter;
};

} // namespace blk::parse

#endif // BLK_LIB_PARSE_SYNTAXERRORS_H
