//===- Format.cpp - The canonical layout of blk source (blkc fmt) ---------===//
//
// Re-emits the tokens of FormatTokens with the whitespace of the style in
// Format.h. Each token's line break comes from the author's (at most one
// blank line) adjusted by the forced rules, its indentation from the brace
// and bracket depth only, and the space before it from the pair (previous
// token, token). Nothing depends on the old indentation or spacing, which
// is why formatting formatted text changes nothing.
//
//===----------------------------------------------------------------------===//

#include "blk/Format/Format.h"

#include "FormatTokens.h"
#include "blk/Support/InternalError.h"

namespace blk {

using format::Token;
using format::TokenKind;

namespace {

bool is(const Token *t, std::string_view text) {
  return t && t->kind == TokenKind::Punct && t->text == text;
}

bool isComment(const Token *t) {
  return t && (t->kind == TokenKind::LineComment ||
               t->kind == TokenKind::BlockComment);
}

/// True when `t` ends an operand: after it, `-` / `*` / `(` are binary or
/// a call, not a prefix.
bool endsOperand(const Token *t) {
  if (!t)
    return false;
  switch (t->kind) {
  case TokenKind::Identifier:
  case TokenKind::Number:
  case TokenKind::String:
    return true;
  case TokenKind::Keyword:
    return t->text == "true" || t->text == "false" || t->text == "None";
  case TokenKind::Punct:
    return t->text == ")" || t->text == "]";
  default:
    return false;
  }
}

bool isBinaryOperator(const Token *t) {
  static constexpr std::string_view kOps[] = {
      "||", "&&", "|",  "^",  "&",  "==", "!=", "<",   "<=",  ">",
      ">=", "<<", ">>", "+",  "-",  "*",  "/",  "%",   "=",   "+=",
      "-=", "*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=", "->"};
  if (!t || t->kind != TokenKind::Punct)
    return false;
  for (std::string_view op : kOps)
    if (t->text == op)
      return true;
  return false;
}

class Layout {
public:
  std::string run(const std::vector<Token> &tokens) {
    const Token *prev = nullptr, *code = nullptr;
    bool prevUnary = false;
    for (const Token &tok : tokens) {
      const Token *t = &tok;
      unsigned breaks = prev ? lineBreaks(prev, code, t) : 0;
      if (breaks) {
        trimTrailingSpaces();
        out.append(breaks, '\n');
        indent(t, prev);
      } else if (prev && wantsSpace(prev, prevUnary, t)) {
        out += ' ';
      }
      out += t->text;
      prevUnary = isPrefixOperator(prev, t);
      track(t);
      prev = t;
      if (!isComment(t))
        code = t;
    }
    trimTrailingSpaces();
    if (!out.empty())
      out += '\n';
    return out;
  }

private:
  std::string out;
  unsigned braces = 0;   ///< open `{`
  unsigned brackets = 0; ///< open `(` / `[` in the current statement

  void trimTrailingSpaces() {
    while (!out.empty() && out.back() == ' ')
      out.pop_back();
  }

  /// How many '\n' go before `t`; `code` is the last token that is not
  /// a comment (the rules about `;` and braces look through a comment that
  /// trails on their line).
  unsigned lineBreaks(const Token *prev, const Token *code,
                      const Token *t) const {
    unsigned n = std::min(t->newlinesBefore, 2u);
    if (prev->kind == TokenKind::LineComment)
      return std::max(n, 1u);
    // A comment on the line of the code before it stays there.
    if (isComment(t) && n == 0)
      return 0;
    if (prev->kind == TokenKind::BlockComment && code)
      prev = code;
    // `,` and `;` end the line they follow.
    if (is(t, ",") || is(t, ";"))
      return 0;
    if (is(t, "{"))
      return 0; // on the line of what it opens
    if (is(t, "}"))
      return is(prev, "{") ? 0 : 1; // `{}`; no blank line before `}`
    if (is(prev, "{"))
      return 1; // no blank line just inside a block
    if (is(prev, "}")) {
      if (t->kind == TokenKind::Keyword && t->text == "else")
        return 0;
      if (is(t, ")") || is(t, ",") || is(t, ";"))
        return 0;
      return std::max(n, 1u);
    }
    if (is(prev, ";") && brackets == 0)
      return std::max(n, 1u);
    return n;
  }

  void indent(const Token *t, const Token *prev) {
    unsigned level = braces - (is(t, "}") && braces ? 1 : 0);
    unsigned open = brackets;
    if (open && (is(t, ")") || is(t, "]")))
      --open;
    // A statement continued without an open bracket (`a +` / `+ b`).
    bool continued =
        open == 0 && !is(prev, ";") && !is(prev, "{") && !is(prev, "}") &&
        !isComment(prev) &&
        (isBinaryOperator(prev) || is(prev, ",") || is(prev, ".") ||
         is(t, ".") || (isBinaryOperator(t) && !is(t, "*")) ||
         (prev->kind == TokenKind::Keyword && prev->text == "as"));
    // One continuation level, however many brackets are open: deep
    // expressions stay readable.
    out.append(4 * (level + (open || continued ? 1 : 0)), ' ');
  }

  /// True when `t`, after `prev`, is a prefix `-`, `!`, `~` or the `*` of a
  /// pointer type (`x: *f32`).
  static bool isPrefixOperator(const Token *prev, const Token *t) {
    if (!(is(t, "-") || is(t, "!") || is(t, "~") || is(t, "*")))
      return false;
    return !endsOperand(prev);
  }

  bool wantsSpace(const Token *prev, bool prevUnary, const Token *t) const {
    if (isComment(t) || isComment(prev))
      return true;
    if (is(prev, "{") && is(t, "}"))
      return false; // `{}`
    if (prevUnary || is(prev, "(") || is(prev, "[") || is(prev, "@") ||
        is(prev, "."))
      return false;
    if (is(prev, ",") || is(prev, ":"))
      return !(is(t, ",") || is(t, ")") || is(t, "]"));
    if (is(t, ")") || is(t, "]") || is(t, ",") || is(t, ";") || is(t, ":") ||
        is(t, "."))
      return false;
    if (is(t, "(") || is(t, "["))
      return !(
          prev->kind == TokenKind::Identifier || is(prev, ")") ||
          is(prev, "]") ||
          (prev->kind == TokenKind::Keyword && prev->text == "static_assert"));
    return true;
  }

  void track(const Token *t) {
    if (is(t, "{")) {
      ++braces;
      brackets = 0; // a block starts fresh statements
    } else if (is(t, "}")) {
      braces -= braces ? 1 : 0;
      brackets = 0;
    } else if (is(t, "(") || is(t, "[")) {
      ++brackets;
    } else if ((is(t, ")") || is(t, "]")) && brackets) {
      --brackets;
    }
  }
};

} // namespace

std::string formatSource(std::string_view text) {
  std::vector<Token> tokens = format::tokenize(text);
  std::string formatted = Layout().run(tokens);
  // Only whitespace may change: a formatter bug must never alter a program.
  std::vector<Token> again = format::tokenize(formatted);
  bool same = again.size() == tokens.size();
  for (size_t i = 0; same && i < tokens.size(); ++i)
    same = again[i].text == tokens[i].text;
  if (!same)
    internalError("format", "the layout changed a token");
  return formatted;
}

} // namespace blk
