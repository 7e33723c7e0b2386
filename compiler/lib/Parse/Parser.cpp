//===- Parser.cpp - Source text to AST ------------------------------------===//
//
// Stages, each refusing to go on after an error:
//  1. lex the whole buffer (one ANTLR symbol per byte, so offsets are byte
//     offsets) and report the lexical error tokens and invalid UTF-8;
//  2. refuse brackets nested deeper than ParseOptions::maxNesting, before
//     the recursive-descent parser could overflow the stack on them;
//  3. parse with fast SLL prediction; only if that fails, parse again with
//     full LL and blk's error strategy to report the syntax errors (one per
//     bad statement: ErrorStrategy.h);
//  4. build the AST (ASTBuilder).
//
//===----------------------------------------------------------------------===//
#include "blk/Parse/Parser.h"

#include "ASTBuilder.h"
#include "ErrorStrategy.h"
#include "SyntaxErrors.h"
#include "TokenStructure.h"

#include "blk/Support/InternalError.h"
#include "blk/Support/SourceManager.h"
#include "blk/Support/Utf8.h"

#include "BlkLexer.h"
#include "BlkParser.h"

#include <cstdio>

using namespace blk;
using namespace blk::parse;
using g::BlkLexer;
using g::BlkParser;

namespace {

/// An ANTLR input stream whose symbols are the bytes [begin, end) of the
/// buffer, at their offsets in it: the stream starts at `begin` and ends at
/// `end`, so every token's index is its byte offset in the whole buffer.
class ByteInputStream : public antlr4::ANTLRInputStream {
public:
  ByteInputStream(std::string_view bytes, uint32_t begin, uint32_t end) {
    _data.resize(end);
    for (size_t i = begin; i < end; ++i)
      _data[i] = static_cast<unsigned char>(bytes[i]);
    p = begin;
  }
};

class LexicalChecker {
public:
  LexicalChecker(FileId file, std::string_view text, DiagnosticEngine &diags)
      : file(file), text(text), diags(diags) {}

  /// Reports every error token and invalid UTF-8; true when there was none.
  bool check(const std::vector<antlr4::Token *> &tokens) {
    for (size_t i = 0; i < tokens.size() && !diags.limitReached(); ++i) {
      antlr4::Token *t = tokens[i];
      if (t->getType() == antlr4::Token::EOF)
        break;
      uint32_t begin = static_cast<uint32_t>(t->getStartIndex());
      uint32_t end = static_cast<uint32_t>(t->getStopIndex() + 1);
      switch (t->getType()) {
      case BlkLexer::ERROR_CHAR: {
        // One diagnostic per run of adjacent bad characters.
        while (i + 1 < tokens.size() &&
               tokens[i + 1]->getType() == BlkLexer::ERROR_CHAR &&
               tokens[i + 1]->getStartIndex() == end)
          end = static_cast<uint32_t>(tokens[++i]->getStopIndex() + 1);
        badCharacter(begin, end);
        break;
      }
      case BlkLexer::UNTERMINATED_STRING:
        error(DiagId::lex_unterminated_string, begin, end);
        break;
      case BlkLexer::UNTERMINATED_COMMENT:
        error(DiagId::lex_unterminated_comment, begin, begin + 2);
        break;
      case BlkLexer::BAD_NUMBER:
        error(DiagId::lex_malformed_number, begin, end,
              std::string(text.substr(begin, end - begin)));
        break;
      case BlkLexer::STRING:
      case BlkLexer::LINE_COMMENT:
      case BlkLexer::BLOCK_COMMENT:
        checkUtf8(begin, end);
        break;
      default:
        break;
      }
    }
    return ok;
  }

private:
  InFlightDiagnostic error(DiagId id, uint32_t begin, uint32_t end,
                           std::string arg = {}) {
    ok = false;
    return diags.report(
        id, SourceRange(SourceLoc{file, begin}, SourceLoc{file, end}), {arg});
  }

  void badCharacter(uint32_t begin, uint32_t end) {
    uint32_t cp = 0;
    size_t n = utf8SequenceLength(text, begin, cp);
    if (n == 0) {
      error(DiagId::lex_invalid_utf8, begin, begin + 1);
      return;
    }
    char hex[16];
    std::snprintf(hex, sizeof hex, "U+%04X", cp);
    std::string what = hex;
    if (n > 1)
      what += " `" + std::string(text.substr(begin, n)) + "`";
    else if (cp >= 0x21 && cp < 0x7F)
      what = "`" + std::string(1, static_cast<char>(cp)) + "`";
    auto diag = error(DiagId::lex_invalid_character, begin, end, what);
    if (cp == '?')
      diag.note(DiagId::note_parse_hint, SourceRange(),
                {"blk has no `?:` operator; use `where(cond, a, b)`"});
    else if (cp == '\'')
      diag.note(DiagId::note_parse_hint, SourceRange(),
                {"string literals use double quotes"});
  }

  /// Comments and strings may hold any UTF-8, but only UTF-8.
  void checkUtf8(uint32_t begin, uint32_t end) {
    for (uint32_t i = begin; i < end;) {
      uint32_t cp = 0;
      size_t n = utf8SequenceLength(text, i, cp);
      if (n == 0) {
        error(DiagId::lex_invalid_utf8, i, i + 1);
        return;
      }
      i += static_cast<uint32_t>(n);
    }
  }

  FileId file;
  std::string_view text;
  DiagnosticEngine &diags;
  bool ok = true;
};

/// Refuses bracket nesting deeper than `limit`; true when within it.
bool checkNesting(FileId file, const std::vector<antlr4::Token *> &tokens,
                  unsigned limit, DiagnosticEngine &diags) {
  unsigned depth = 0;
  for (antlr4::Token *t : tokens) {
    switch (t->getType()) {
    case BlkLexer::LPAREN:
    case BlkLexer::LBRACK:
    case BlkLexer::LBRACE:
      if (++depth > limit) {
        diags.report(
            DiagId::parse_nesting_too_deep,
            SourceRange(file, static_cast<uint32_t>(t->getStartIndex()), 1),
            {limit});
        return false;
      }
      break;
    case BlkLexer::RPAREN:
    case BlkLexer::RBRACK:
    case BlkLexer::RBRACE:
      if (depth > 0)
        --depth;
      break;
    default:
      break;
    }
  }
  return true;
}

/// `module` (may be null) with its range set to the bytes it was parsed from.
std::unique_ptr<ast::Module> covering(std::unique_ptr<ast::Module> module, FileId file,
                                      uint32_t begin, uint32_t end) {
  if (module)
    module->setRange(SourceRange(file, begin, end - begin));
  return module;
}

std::unique_ptr<ast::Module> parseImpl(FileId file, uint32_t begin, uint32_t end,
                                       DiagnosticEngine &diags,
                                       const ParseOptions &options) {
  // The piece's end is the text's end: an error at EOF points there.
  std::string_view text = diags.getSourceManager().getText(file).substr(0, end);
  ByteInputStream input(text, begin, end);
  BlkLexer lexer(&input);
  lexer.removeErrorListeners();
  antlr4::CommonTokenStream tokenStream(&lexer);
  tokenStream.fill();
  const std::vector<antlr4::Token *> &tokens = tokenStream.getTokens();

  if (!LexicalChecker(file, text, diags).check(tokens))
    return nullptr;
  if (!checkNesting(file, tokens, options.maxNesting, diags))
    return nullptr;

  TokenStructure structure(text, tokens);
  SyntaxErrorReporter reporter(file, text, tokens, structure, diags);
  BlkParser parser(&tokenStream);
  parser.removeErrorListeners();
  auto *sim = parser.getInterpreter<antlr4::atn::ParserATNSimulator>();
  sim->setPredictionMode(antlr4::atn::PredictionMode::SLL);
  parser.setErrorHandler(std::make_shared<antlr4::BailErrorStrategy>());
  BlkParser::UnitContext *unit = nullptr;
  try {
    unit = parser.unit();
  } catch (const antlr4::ParseCancellationException &) {
    // SLL gave up or the input has a syntax error: redo it the slow way.
    tokenStream.seek(0);
    parser.reset();
    sim->setPredictionMode(antlr4::atn::PredictionMode::LL);
    parser.setErrorHandler(std::make_shared<BlkErrorStrategy>(reporter));
    unit = parser.unit();
    reporter.reportUnclosedBraces();
    if (reporter.hadErrors()) {
      if (!options.keepValidDecls)
        return nullptr;
      ASTBuilder builder(file, text, diags, options);
      return covering(builder.buildValidDecls(unit), file, begin, end);
    }
  }
  ASTBuilder builder(file, text, diags, options);
  return covering(builder.build(unit), file, begin, end);
}

} // namespace

std::unique_ptr<ast::Module> blk::parseModule(FileId file,
                                              DiagnosticEngine &diags,
                                              const ParseOptions &options) {
  uint32_t size = static_cast<uint32_t>(diags.getSourceManager().getText(file).size());
  return parseModuleRange(file, 0, size, diags, options);
}

std::unique_ptr<ast::Module> blk::parseModuleRange(FileId file, uint32_t begin,
                                                   uint32_t end, DiagnosticEngine &diags,
                                                   const ParseOptions &options) {
  // ANTLR reports problems with exceptions; none may leave this library.
  try {
    return parseImpl(file, begin, end, diags, options);
  } catch (const std::exception &e) {
    internalError("parser", e.what());
  }
}
