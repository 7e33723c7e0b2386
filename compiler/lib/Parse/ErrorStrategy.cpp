//===- ErrorStrategy.cpp - ANTLR recovery that resyncs per statement ------===//
#include "ErrorStrategy.h"

#include "BlkParser.h"

using namespace blk::parse;
using blk_antlr::BlkParser;

namespace {

constexpr size_t kEof = antlr4::Token::EOF;

antlr4::ParserRuleContext *innermostStatement(antlr4::RuleContext *ctx) {
  for (; ctx; ctx = dynamic_cast<antlr4::RuleContext *>(ctx->parent))
    if (ctx->getRuleIndex() == BlkParser::RuleStmt)
      return dynamic_cast<antlr4::ParserRuleContext *>(ctx);
  return nullptr;
}

/// Keywords that only ever start a statement: skipping stops before them
/// (`store(x, v)` + newline + `let y = …;` lost only its `;`).
bool startsStatement(size_t type) {
  switch (type) {
  case BlkParser::LET:
  case BlkParser::VAR:
  case BlkParser::FOR:
  case BlkParser::WHILE:
  case BlkParser::BREAK:
  case BlkParser::CONTINUE:
  case BlkParser::RETURN:
  case BlkParser::STATIC_ASSERT:
    return true;
  default:
    return false;
  }
}

bool isDeclKeyword(size_t type) {
  return type == BlkParser::KERNEL || type == BlkParser::FN ||
         type == BlkParser::IMPORT || type == BlkParser::AT;
}

} // namespace

bool BlkErrorStrategy::endsBody(antlr4::Parser *parser,
                                size_t tokenIndex) const {
  const TokenStructure &s = reporter.getStructure();
  return s.hasUnclosedBrace() &&
         isDeclKeyword(parser->getTokenStream()->get(tokenIndex)->getType());
}

void BlkErrorStrategy::skipBraces(antlr4::Parser *parser) {
  antlr4::TokenStream *in = parser->getTokenStream();
  unsigned depth = 0;
  do {
    size_t type = in->LA(1);
    if (type == kEof)
      return;
    if (type == BlkParser::LBRACE)
      ++depth;
    else if (type == BlkParser::RBRACE)
      --depth;
    parser->consume();
  } while (depth > 0);
}

void BlkErrorStrategy::skipStatement(antlr4::Parser *parser) {
  antlr4::TokenStream *in = parser->getTokenStream();
  // A `{` that an enclosing header (if, for, while) expects opens its body:
  // stop there so the body is parsed and checked.
  bool headerBody = getErrorRecoverySet(parser).contains(size_t(BlkParser::LBRACE));
  for (;;) {
    antlr4::Token *t = in->LT(1);
    size_t type = t->getType();
    if (type == kEof || type == BlkParser::SEMI || type == BlkParser::RBRACE ||
        startsStatement(type) || endsBody(parser, t->getTokenIndex()))
      return;
    if (type == BlkParser::LBRACE) {
      if (!headerBody) {
        // A body no rule asked for (`whle x < n { … }`): parse its
        // statements as the enclosing body's, and drop its `}` later.
        size_t close = reporter.getStructure().closerOf(t->getTokenIndex());
        if (close != TokenStructure::kNone)
          orphanClosers.insert(close);
        parser->consume();
      }
      return;
    }
    parser->consume();
  }
}

void BlkErrorStrategy::recover(antlr4::Parser *parser, std::exception_ptr e) {
  antlr4::ParserRuleContext *stmt = innermostStatement(parser->getContext());
  if (!stmt) {
    DefaultErrorStrategy::recover(parser, e);
    return;
  }
  // ANTLR's failsafe: a second error at the same token in the same state
  // consumes a token, so no loop can spin without progress.
  auto index = static_cast<int>(parser->getTokenStream()->index());
  if (lastErrorIndex == index && lastErrorStates.contains(parser->getState()))
    parser->consume();
  lastErrorIndex = static_cast<int>(parser->getTokenStream()->index());
  lastErrorStates.add(parser->getState());
  if (stmt == skipped)
    return; // the rules of a skipped statement unwinding
  skipped = stmt;
  // Stopping before the `;` (not after it) lets the statement's own rule
  // match it, which ends the error condition where the statement ends.
  skipStatement(parser);
}

void BlkErrorStrategy::sync(antlr4::Parser *parser) {
  // In a body, the only sync points are the `stmt*` loop: there, anything
  // that cannot start a statement or close the body is skipped, and the
  // loop goes on (ANTLR would leave the body at its loop entry).
  if (parser->getContext()->getRuleIndex() != BlkParser::RuleBlock) {
    DefaultErrorStrategy::sync(parser);
    return;
  }
  const antlr4::atn::ATN &atn = parser->getATN();
  antlr4::misc::IntervalSet next =
      atn.nextTokens(atn.states[parser->getState()]);
  antlr4::TokenStream *in = parser->getTokenStream();
  while (orphanClosers.count(in->LT(1)->getTokenIndex()))
    parser->consume();
  auto stops = [&] {
    size_t type = in->LA(1);
    return type == kEof || next.contains(type) ||
           endsBody(parser, in->LT(1)->getTokenIndex());
  };
  if (stops())
    return;
  if (!inErrorRecoveryMode(parser)) {
    beginErrorCondition(parser);
    reporter.report(parser, in->LT(1), next);
  }
  while (!stops()) {
    if (in->LA(1) == BlkParser::LBRACE)
      skipBraces(parser);
    else
      parser->consume();
  }
}

void BlkErrorStrategy::reportMatch(antlr4::Parser *parser) {
  skipped = nullptr;
  DefaultErrorStrategy::reportMatch(parser);
}

antlr4::Token *BlkErrorStrategy::recoverInline(antlr4::Parser *parser) {
  // A header's `{` comes later on: `if n = 3 {`, `for i in 0..n {`. Skip to
  // it (unless a `;` or `}` comes first) and parse the body.
  antlr4::misc::IntervalSet expected = getExpectedTokens(parser);
  if (parser->getContext()->getRuleIndex() != BlkParser::RuleBlock ||
      expected.size() != 1 || !expected.contains(size_t(BlkParser::LBRACE)) ||
      parser->getTokenStream()->LA(1) == BlkParser::LBRACE)
    return DefaultErrorStrategy::recoverInline(parser);
  antlr4::TokenStream *in = parser->getTokenStream();
  size_t ahead = 1;
  for (;; ++ahead) {
    size_t type = in->LA(static_cast<ssize_t>(ahead));
    if (type == BlkParser::LBRACE)
      break;
    if (type == kEof || type == BlkParser::SEMI || type == BlkParser::RBRACE)
      return DefaultErrorStrategy::recoverInline(parser);
  }
  if (!inErrorRecoveryMode(parser)) {
    beginErrorCondition(parser);
    reporter.report(parser, in->LT(1), expected);
  }
  for (size_t i = 1; i < ahead; ++i)
    parser->consume();
  antlr4::Token *brace = parser->getCurrentToken();
  reportMatch(parser);
  parser->consume();
  return brace;
}

antlr4::Token *BlkErrorStrategy::singleTokenDeletion(antlr4::Parser *parser) {
  // `;`, `{` and `}` end or open statements: deleting one to go on (`(1 + ;`
  // then parsing the next line as the operand) cascades. The statement
  // recovery handles them instead.
  size_t type = parser->getTokenStream()->LA(1);
  if (type == BlkParser::SEMI || type == BlkParser::LBRACE ||
      type == BlkParser::RBRACE)
    return nullptr;
  return DefaultErrorStrategy::singleTokenDeletion(parser);
}

void BlkErrorStrategy::reportNoViableAlternative(
    antlr4::Parser *parser, const antlr4::NoViableAltException &e) {
  reporter.report(parser, e.getOffendingToken(), parser->getExpectedTokens());
}

void BlkErrorStrategy::reportInputMismatch(
    antlr4::Parser *parser, const antlr4::InputMismatchException &e) {
  reporter.report(parser, e.getOffendingToken(), e.getExpectedTokens());
}

void BlkErrorStrategy::reportFailedPredicate(
    antlr4::Parser *parser, const antlr4::FailedPredicateException &e) {
  reporter.report(parser, e.getOffendingToken(), parser->getExpectedTokens());
}

void BlkErrorStrategy::reportUnwantedToken(antlr4::Parser *parser) {
  if (inErrorRecoveryMode(parser))
    return;
  beginErrorCondition(parser);
  reporter.report(parser, parser->getCurrentToken(), getExpectedTokens(parser));
}

void BlkErrorStrategy::reportMissingToken(antlr4::Parser *parser) {
  if (inErrorRecoveryMode(parser))
    return;
  beginErrorCondition(parser);
  reporter.report(parser, parser->getCurrentToken(), getExpectedTokens(parser));
}
