//===- SyntaxErrors.cpp - ANTLR syntax errors as diagnostics --------------===//
#include "SyntaxErrors.h"

#include "blk/Support/EditDistance.h"

#include "BlkParser.h"

#include <algorithm>
#include <cctype>

using namespace blk;
using namespace blk::parse;
using blk_antlr::BlkParser;

namespace {

constexpr size_t kEof = antlr4::Token::EOF;

const std::vector<size_t> kExprStarts = {
    BlkParser::INT,    BlkParser::FLOAT, BlkParser::STRING, BlkParser::TRUE,
    BlkParser::FALSE,  BlkParser::NONE,  BlkParser::IDENT,  BlkParser::LPAREN,
    BlkParser::LBRACK, BlkParser::MINUS, BlkParser::BANG,   BlkParser::TILDE};
const std::vector<size_t> kStmtKeywords = {
    BlkParser::LET,          BlkParser::VAR,      BlkParser::CONST,
    BlkParser::IF,           BlkParser::FOR,      BlkParser::WHILE,
    BlkParser::BREAK,        BlkParser::CONTINUE, BlkParser::RETURN,
    BlkParser::STATIC_ASSERT};
const std::vector<size_t> kDeclStarts = {BlkParser::IMPORT, BlkParser::CONST,
                                         BlkParser::FN, BlkParser::KERNEL,
                                         BlkParser::AT};
/// Tokens that may always continue an expression; listing them in "expected
/// …" would only drown the one token the user forgot.
const std::vector<size_t> kContinuations = {
    BlkParser::OROR,   BlkParser::ANDAND,  BlkParser::PIPE,  BlkParser::CARET,
    BlkParser::AMP,    BlkParser::EQ,      BlkParser::NE,    BlkParser::LT,
    BlkParser::LE,     BlkParser::GT,      BlkParser::GE,    BlkParser::SHL,
    BlkParser::SHR,    BlkParser::PLUS,    BlkParser::MINUS, BlkParser::STAR,
    BlkParser::SLASH,  BlkParser::PERCENT, BlkParser::AS,    BlkParser::LPAREN,
    BlkParser::LBRACK, BlkParser::DOT};
const std::vector<size_t> kAssignOps = {
    BlkParser::ASSIGN,      BlkParser::PLUS_ASSIGN,  BlkParser::MINUS_ASSIGN,
    BlkParser::STAR_ASSIGN, BlkParser::SLASH_ASSIGN, BlkParser::PERCENT_ASSIGN,
    BlkParser::AMP_ASSIGN,  BlkParser::PIPE_ASSIGN,  BlkParser::CARET_ASSIGN,
    BlkParser::SHL_ASSIGN,  BlkParser::SHR_ASSIGN};

bool containsAll(const std::vector<size_t> &set,
                 const std::vector<size_t> &sub) {
  return std::all_of(sub.begin(), sub.end(), [&](size_t t) {
    return std::find(set.begin(), set.end(), t) != set.end();
  });
}

void removeAll(std::vector<size_t> &set, const std::vector<size_t> &sub) {
  std::erase_if(set, [&](size_t t) {
    return std::find(sub.begin(), sub.end(), t) != sub.end();
  });
}

std::string describeType(antlr4::Parser *parser, size_t type) {
  switch (type) {
  case kEof:
    return "end of file";
  case BlkParser::IDENT:
    return "identifier";
  case BlkParser::INT:
    return "integer literal";
  case BlkParser::FLOAT:
    return "float literal";
  case BlkParser::STRING:
    return "string literal";
  default:
    break;
  }
  std::string lit = parser->getVocabulary().getLiteralName(type);
  if (lit.size() >= 2 && lit.front() == '\'')
    lit = lit.substr(1, lit.size() - 2);
  return "`" + lit + "`";
}

/// "`;`", "expression or `)`", … ; empty when too many choices to be useful.
std::string describeExpected(antlr4::Parser *parser,
                             const antlr4::misc::IntervalSet &set) {
  std::vector<size_t> types;
  for (ssize_t t : set.toList())
    types.push_back(static_cast<size_t>(t));
  std::vector<std::string> items;
  if (containsAll(types, {BlkParser::PLUS, BlkParser::STAR, BlkParser::OROR}))
    removeAll(types, kContinuations);
  if (containsAll(types, {BlkParser::PLUS_ASSIGN, BlkParser::SHL_ASSIGN}))
    removeAll(types, kAssignOps);
  if (containsAll(types, kExprStarts) && containsAll(types, kStmtKeywords)) {
    items.push_back("statement");
    removeAll(types, kExprStarts);
    removeAll(types, kStmtKeywords);
  } else if (containsAll(types, kExprStarts)) {
    items.push_back("expression");
    removeAll(types, kExprStarts);
  }
  if (containsAll(types, kDeclStarts)) {
    items.push_back("declaration");
    removeAll(types, kDeclStarts);
  }
  for (size_t t : types)
    items.push_back(describeType(parser, t));
  if (items.empty() || items.size() > 4)
    return "";
  std::string out = items[0];
  for (size_t i = 1; i < items.size(); ++i)
    out += (i + 1 == items.size() ? " or " : ", ") + items[i];
  return out;
}

/// Whether `want` (from describeExpected) lists only tokens that end
/// something: `;`, `)`, `]`, `,`.
bool isClosersOnly(std::string_view want) {
  static constexpr std::string_view kItems[] = {"`;`", "`)`", "`]`", "`,`", " or ", ", "};
  while (!want.empty()) {
    auto item = std::find_if(std::begin(kItems), std::end(kItems),
                             [&](std::string_view i) { return want.starts_with(i); });
    if (item == std::end(kItems))
      return false;
    want.remove_prefix(item->size());
  }
  return true;
}

} // namespace

SyntaxErrorReporter::SyntaxErrorReporter(
    FileId file, std::string_view text,
    const std::vector<antlr4::Token *> &tokens,
    const TokenStructure &structure, DiagnosticEngine &diags)
    : file(file), text(text), tokens(tokens), structure(structure),
      diags(diags) {}

SourceRange SyntaxErrorReporter::rangeOf(const antlr4::Token *token) const {
  if (token->getType() == kEof)
    return SourceRange(file, static_cast<uint32_t>(text.size()), 0);
  auto begin = static_cast<uint32_t>(token->getStartIndex());
  auto end = static_cast<uint32_t>(token->getStopIndex() + 1);
  return SourceRange(SourceLoc{file, begin},
                     SourceLoc{file, std::max(begin, end)});
}

SourceRange
SyntaxErrorReporter::afterPrevious(const antlr4::Token *offending) const {
  size_t index = std::min(offending->getTokenIndex(), tokens.size());
  while (index > 0) {
    const antlr4::Token *prev = tokens[--index];
    if (prev->getChannel() == antlr4::Token::DEFAULT_CHANNEL &&
        prev->getType() != kEof)
      return SourceRange(file, static_cast<uint32_t>(prev->getStopIndex() + 1),
                         0);
  }
  return rangeOf(offending);
}

void SyntaxErrorReporter::report(antlr4::Parser *parser,
                                 antlr4::Token *offending,
                                 const antlr4::misc::IntervalSet &expected) {
  size_t index = offending->getTokenIndex();
  // Where a `{` is never closed, the parser notices at the end of the file
  // or at the next declaration (`kernel`, `fn`, …) inside the body: that is
  // the missing `}`, reported at its `{`.
  if (structure.hasUnclosedBrace() &&
      (offending->getType() == kEof ||
       (structure.braceDepth(index) > 0 &&
        (offending->getType() == BlkParser::KERNEL ||
         offending->getType() == BlkParser::FN ||
         offending->getType() == BlkParser::IMPORT ||
         offending->getType() == BlkParser::AT)))) {
    reportUnclosedBraces(offending->getType() == kEof ? nullptr : offending);
    return;
  }
  // A missing `;` or closer before a token that starts a line is the
  // previous line's error (reported after its last token); recovery stops
  // at that token, so the statement it starts keeps its own errors.
  std::string want = describeExpected(parser, expected);
  bool wantsSemi = want == "`;`";
  bool missingEnd = isClosersOnly(want) && structure.startsLine(offending);
  const antlr4::Token *before = wantsSemi || missingEnd ? previous(index, 1) : nullptr;
  uint32_t unit = structure.unitOf(before ? before->getTokenIndex() : index);
  bool resumed = resumeAt != TokenStructure::kNone && index >= resumeAt;
  if (unit == lastUnit && !resumed)
    return; // a follow-on error of the same statement
  // Reaching the end of the file in a bad state after an error is the
  // parser's recovery speaking (it may have eaten a `}`), not a new mistake.
  if (offending->getType() == kEof && errors != 0)
    return;
  lastUnit = unit;
  resumeAt = missingEnd ? index : TokenStructure::kNone;
  ++errors;
  if (offending->getType() == BlkParser::LBRACE)
    ++strayOpeners;

  std::string found;
  if (offending->getType() == kEof) {
    found = "end of file";
  } else {
    SourceRange r = rangeOf(offending);
    std::string_view spelling =
        text.substr(r.begin.offset, std::min<uint32_t>(r.length(), 32));
    found = "`";
    for (char c : spelling)
      found += (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) ? '?' : c;
    found += r.length() > 32 ? "…`" : "`";
  }
  if (structure.isUnmatchedCloser(index)) {
    std::string opener = found == "`)`"   ? "`(`"
                         : found == "`]`" ? "`[`"
                                          : "`{`";
    diags.report(DiagId::parse_unexpected, rangeOf(offending),
                 {found + " without a matching " + opener});
    return;
  }
  if (want.empty()) {
    diags.report(DiagId::parse_unexpected, rangeOf(offending), {found});
    return;
  }
  // A missing `;` (or anything before end of file) belongs right after the
  // previous token, like clang's "expected ';' after expression".
  SourceRange at = (wantsSemi || missingEnd || offending->getType() == kEof)
                       ? afterPrevious(offending)
                       : rangeOf(offending);
  auto diag = diags.report(DiagId::parse_expected, at, {want, found});
  if (wantsSemi)
    diag.fixIt(at, ";");
  std::string hint = hintFor(parser, offending);
  if (!hint.empty())
    diag.note(DiagId::note_parse_hint, SourceRange(), {hint});
}

const antlr4::Token *SyntaxErrorReporter::previous(size_t index,
                                                   unsigned n) const {
  while (index > 0) {
    const antlr4::Token *t = tokens[--index];
    if (t->getChannel() == antlr4::Token::DEFAULT_CHANNEL && --n == 0)
      return t;
  }
  return nullptr;
}

std::string SyntaxErrorReporter::spelling(const antlr4::Token *t) const {
  if (!t || t->getType() == kEof)
    return "";
  SourceRange r = rangeOf(t);
  return std::string(text.substr(r.begin.offset, r.length()));
}

std::string SyntaxErrorReporter::hintFor(antlr4::Parser *parser,
                                         const antlr4::Token *offending) const {
  size_t index = std::min(offending->getTokenIndex(), tokens.size());
  size_t type = offending->getType();
  size_t rule = parser->getContext() ? parser->getContext()->getRuleIndex()
                                     : size_t(BlkParser::RuleUnit);
  const antlr4::Token *prev = previous(index, 1);
  const antlr4::Token *prev2 = previous(index, 2);
  auto adjacent = [](const antlr4::Token *a, const antlr4::Token *b) {
    return a && b && a->getStopIndex() + 1 == b->getStartIndex();
  };
  std::string word = spelling(offending);
  if (type == BlkParser::ASSIGN && rule == BlkParser::RulePostfixOp)
    return "named arguments are written `name: value`, as in `mask: m`";
  if (type == BlkParser::COLON && rule == BlkParser::RuleAttribute)
    return "attribute arguments are written `NAME = value`, as in "
           "`@config(BLOCK = 128)`";
  if (type == BlkParser::COLON &&
      (rule == BlkParser::RuleBlock || rule == BlkParser::RuleIfStmt ||
       rule == BlkParser::RuleWhileStmt || rule == BlkParser::RuleForStmt))
    return "bodies are written in braces, as in `if cond { … }`";
  if (type == BlkParser::LPAREN && prev && prev->getType() == BlkParser::FOR)
    return "loops are written `for i in range(start, end) { … }`";
  bool plusPlus = type == BlkParser::PLUS && prev &&
                  prev->getType() == BlkParser::PLUS &&
                  adjacent(prev, offending);
  bool minusMinus = prev && prev2 && prev->getType() == BlkParser::MINUS &&
                    prev2->getType() == BlkParser::MINUS &&
                    adjacent(prev2, prev);
  if (plusPlus || minusMinus)
    return "blk has no `++` or `--`; write `i += 1` or `i -= 1`";
  // `lett x = 1;` / `kernal k(…)`: a misspelt keyword reads as a name,
  // and the error comes at the next token.
  // (Three letters at least: `store(x, n n)` is not a misspelt `fn`.)
  if (prev && prev->getType() == BlkParser::IDENT && type == BlkParser::IDENT &&
      spelling(prev).size() >= 3) {
    static const std::vector<std::string> kKeywords = {
        "break", "const", "continue", "else", "fn", "for", "if", "import",
        "kernel", "let", "return", "static_assert", "var", "while"};
    if (std::optional<std::string> near = closestName(spelling(prev), kKeywords))
      return "did you mean the keyword `" + *near + "`?";
  }
  if (type == BlkParser::IDENT && rule == BlkParser::RuleUnit && word.size() >= 3)
    if (std::optional<std::string> near = closestName(word, {"const", "fn", "import", "kernel"}))
      return "did you mean the keyword `" + *near + "`?";
  if (type == BlkParser::COMMA && rule == BlkParser::RulePrimary)
    return "blk has no tuples: a shape is a list, as in `zeros([BM, BN], f32)`";
  if (type == BlkParser::STAR && prev && prev->getType() == BlkParser::STAR &&
      adjacent(prev, offending))
    return "blk has no `**`; multiply (`x * x`), or write a float power as "
           "`exp2(y * log2(x))`";
  if (type == BlkParser::DOT && spelling(prev) == "tl")
    return "blk names have no `tl.` prefix: types are `f32`, `i32`, …, and Triton's "
           "`BLOCK: tl.constexpr` is `const BLOCK: i32`";
  if (word == "def" || (spelling(prev) == "triton" && spelling(prev2) == "@"))
    return "this is Python; a blk kernel is declared as `kernel name(x: *f32, n: i32) { … }` "
           "(docs/language.md §4)";
  if (spelling(prev) == "elif")
    return "blk writes `else if`, not `elif`";
  if (word == "and" || word == "or" || word == "not")
    return "blk writes `&&`, `||` and `!` on scalars (`&`, `|` and `~` on "
           "blocks)";
  if (type == BlkParser::IDENT && prev && prev->getType() == BlkParser::FLOAT &&
      adjacent(prev, offending))
    return "float literals have no suffix: `1.0` is f32; use `1.0 as f16` for "
           "other types";
  // `a // b`: Python's floor division is a comment here, so the statement
  // ends early and the error comes after it. Look at the text between the
  // last token (one an operand ends with) and this one for a `//` on that
  // token's line followed by what looks like the rest of a statement.
  size_t prevType = prev ? prev->getType() : 0;
  bool operandEnd = prevType == BlkParser::IDENT || prevType == BlkParser::INT ||
                    prevType == BlkParser::FLOAT || prevType == BlkParser::RPAREN ||
                    prevType == BlkParser::RBRACK;
  if (operandEnd && offending->getStartIndex() > prev->getStopIndex() &&
      offending->getStartIndex() <= text.size()) {
    std::string_view gap = text.substr(prev->getStopIndex() + 1,
                                       offending->getStartIndex() - prev->getStopIndex() - 1);
    size_t slash = gap.find("//");
    if (slash != std::string_view::npos && gap.substr(0, slash).find('\n') == std::string_view::npos) {
      // The comment's line: code-like when it starts as an operand and ends
      // with `;` (`// 2;`), not prose (`// the total`).
      std::string_view rest = gap.substr(slash + 2);
      rest = rest.substr(0, rest.find('\n'));
      while (!rest.empty() && rest.front() == ' ')
        rest.remove_prefix(1);
      while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\r'))
        rest.remove_suffix(1);
      if (!rest.empty() && rest.back() == ';' &&
          (std::isalnum(static_cast<unsigned char>(rest.front())) || rest.front() == '_' ||
           rest.front() == '('))
        return "`//` starts a comment in blk, so the rest of that line was ignored; integer `/` "
               "already truncates (write `a / b`), and `floor(a / b)` floors floats";
    }
  }
  return "";
}

void SyntaxErrorReporter::reportUnclosedBraces(const antlr4::Token *noticed) {
  if (reportedUnclosed || !structure.hasUnclosedBrace())
    return;
  reportedUnclosed = true;
  ++errors;
  // The end of the last token, not an empty line after it.
  SourceRange end = SourceRange(file, 0, 0);
  for (size_t i = tokens.size(); i > 0; --i)
    if (tokens[i - 1]->getType() != kEof &&
        tokens[i - 1]->getChannel() == antlr4::Token::DEFAULT_CHANNEL) {
      end = SourceRange(file, static_cast<uint32_t>(tokens[i - 1]->getStopIndex() + 1), 0);
      break;
    }
  size_t misplaced = structure.misindentedCloser();
  const std::vector<size_t> &unclosed = structure.unclosedBraces();
  // Each `{` already reported as out of place accounts for one unclosed one
  // (which one the tokens cannot tell): report only the rest, outermost first.
  size_t unexplained = unclosed.size() - std::min<size_t>(strayOpeners, unclosed.size());
  for (size_t open : std::vector<size_t>(unclosed.begin(), unclosed.begin() + unexplained)) {
    if (misplaced != TokenStructure::kNone)
      open = structure.openerOf(misplaced);
    auto diag = diags.report(DiagId::parse_unclosed_brace, rangeOf(tokens[open]));
    if (misplaced != TokenStructure::kNone)
      diag.note(DiagId::note_parse_brace_indent, rangeOf(tokens[misplaced]));
    else if (noticed)
      diag.note(DiagId::note_parse_decl_in_body, rangeOf(noticed));
    diag.note(DiagId::note_parse_file_ends, end);
  }
}
