//===- ErrorStrategy.h - ANTLR recovery that resyncs per statement -*- C++ -*-===//
//
// Private to the parser library. BlkErrorStrategy keeps ANTLR's single-token
// insertion and deletion but replaces its messages (SyntaxErrorReporter) and
// its resynchronisation inside bodies: an error in a statement skips to that
// statement's end (its `;`, the `}` closing the body, or past a `{ … }` the
// statement owns) and parsing goes on with the next statement, so every bad
// statement gets its own diagnostic. Outside bodies (declaration headers,
// top level) ANTLR's own recovery stays.
// Tests: tests/lit/parse/fail_many_statements.test, fail_recover_*.blk.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LIB_PARSE_ERRORSTRATEGY_H
#define BLK_LIB_PARSE_ERRORSTRATEGY_H

#include "SyntaxErrors.h"

#include "antlr4-runtime.h"

#include <set>

namespace blk::parse {

class BlkErrorStrategy : public antlr4::DefaultErrorStrategy {
public:
  explicit BlkErrorStrategy(SyntaxErrorReporter &reporter)
      : reporter(reporter) {}

  void recover(antlr4::Parser *parser, std::exception_ptr e) override;
  void sync(antlr4::Parser *parser) override;
  void reportMatch(antlr4::Parser *parser) override;
  antlr4::Token *recoverInline(antlr4::Parser *parser) override;

protected:
  antlr4::Token *singleTokenDeletion(antlr4::Parser *parser) override;

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
  /// Consumes up to the end of the statement the parser is in.
  void skipStatement(antlr4::Parser *parser);
  /// Consumes a balanced `{ … }` (or to the end of the file).
  void skipBraces(antlr4::Parser *parser);
  /// A declaration keyword where a statement goes, when a `{` is never
  /// closed: the body ended here (the missing `}`), so stop skipping.
  bool endsBody(antlr4::Parser *parser, size_t tokenIndex) const;

  SyntaxErrorReporter &reporter;
  /// `}` tokens whose `{` was skipped as the start of a body no header
  /// asked for (`whle x < n { … }`): the statements inside are parsed as
  /// the enclosing body's, and these `}` are skipped when they come.
  std::set<size_t> orphanClosers;
  /// The statement whose rest was skipped, until the next token matches:
  /// errors while its rules unwind are consequences, and must not skip the
  /// next statement too.
  antlr4::ParserRuleContext *skipped = nullptr;
};

} // namespace blk::parse

#endif // BLK_LIB_PARSE_ERRORSTRATEGY_H
