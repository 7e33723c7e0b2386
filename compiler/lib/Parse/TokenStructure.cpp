//===- TokenStructure.cpp - Brackets and statements of a token stream -----===//
#include "TokenStructure.h"

#include "BlkParser.h"

using namespace blk::parse;
using blk_antlr::BlkParser;

TokenStructure::TokenStructure(std::string_view text,
                               const std::vector<antlr4::Token *> &tokens)
    : text(text), tokens(tokens) {
  size_t n = tokens.size();
  units.resize(n);
  depth.resize(n);
  unmatchedCloser.assign(n, false);
  opener.assign(n, kNone);
  closer.assign(n, kNone);
  std::vector<bool> matchedBracket(n, false); // `(` `)` `[` `]` paired on a line

  // Brackets: each closer matches the nearest opener of its kind; `(` and
  // `[` do not reach out of the innermost `{ … }`, and closing it drops the
  // unclosed ones inside.
  std::vector<size_t> open; // token indices
  unsigned braces = 0;
  for (size_t i = 0; i < n; ++i) {
    size_t type = tokens[i]->getType();
    if (type == BlkParser::LBRACE)
      ++braces;
    depth[i] = braces;
    if (type == BlkParser::LPAREN || type == BlkParser::LBRACK ||
        type == BlkParser::LBRACE) {
      open.push_back(i);
      continue;
    }
    size_t want = type == BlkParser::RPAREN   ? BlkParser::LPAREN
                  : type == BlkParser::RBRACK ? BlkParser::LBRACK
                  : type == BlkParser::RBRACE ? BlkParser::LBRACE
                                              : 0;
    if (want == 0)
      continue;
    auto kindAt = [&](size_t j) { return tokens[open[j - 1]]->getType(); };
    size_t j = open.size();
    while (j > 0 && kindAt(j) != want &&
           (want == BlkParser::LBRACE || kindAt(j) != BlkParser::LBRACE))
      --j;
    if (j == 0 || kindAt(j) != want) {
      unmatchedCloser[i] = true;
      continue;
    }
    // Only a pair on one line: `;` is never inside brackets in valid blk,
    // so a pair spanning lines with a `;` between is two mistakes.
    if (want != BlkParser::LBRACE && tokens[i]->getLine() == tokens[open[j - 1]]->getLine())
      matchedBracket[i] = matchedBracket[open[j - 1]] = true;
    if (want == BlkParser::LBRACE) {
      opener[i] = open[j - 1];
      closer[open[j - 1]] = i;
      --braces;
    }
    open.resize(j - 1);
  }
  for (size_t i : open)
    if (tokens[i]->getType() == BlkParser::LBRACE)
      unclosed.push_back(i);

  // Units end after `;`, `{` and `}`, but not at a `;` inside a `( … )` or
  // `[ … ]` closed on the same line (`for (i = 0; i < n; i += 1)` is one
  // mistake); other openers do not count (`(1 + ;` ends at its `;`).
  uint32_t unit = 0;
  unsigned inside = 0;
  for (size_t i = 0; i < n; ++i) {
    size_t type = tokens[i]->getType();
    if (type == BlkParser::RBRACE && i > 0 && units[i - 1] == unit)
      ++unit; // a `}` is a unit of its own
    units[i] = unit;
    if (matchedBracket[i])
      type == BlkParser::LPAREN || type == BlkParser::LBRACK ? ++inside : --inside;
    if ((type == BlkParser::SEMI && inside == 0) || type == BlkParser::LBRACE ||
        type == BlkParser::RBRACE)
      ++unit;
  }

  if (unclosed.size() != 1)
    return;
  for (size_t i = 0; i < n && misindented == kNone; ++i) {
    if (opener[i] == kNone || !startsLine(tokens[i]))
      continue;
    std::string_view mine = indentOfLine(tokens[i]->getStartIndex());
    std::string_view theirs = indentOfLine(tokens[opener[i]]->getStartIndex());
    // Less indented: a strict prefix (tabs and spaces are not compared).
    if (mine.size() < theirs.size() && theirs.substr(0, mine.size()) == mine)
      misindented = i;
  }
}

uint32_t TokenStructure::unitOf(size_t index) const {
  if (units.empty())
    return 0;
  return index < units.size() ? units[index] : units.back();
}

unsigned TokenStructure::braceDepth(size_t index) const {
  return index < depth.size() ? depth[index] : 0;
}

bool TokenStructure::isUnmatchedCloser(size_t index) const {
  return index < unmatchedCloser.size() && unmatchedCloser[index];
}

size_t TokenStructure::openerOf(size_t closer) const {
  return closer < opener.size() ? opener[closer] : kNone;
}

size_t TokenStructure::closerOf(size_t opener) const {
  return opener < closer.size() ? closer[opener] : kNone;
}

std::string_view TokenStructure::indentOfLine(size_t offset) const {
  size_t begin = text.rfind('\n', offset == 0 ? 0 : offset - 1);
  begin = begin == std::string_view::npos || offset == 0 ? 0 : begin + 1;
  size_t end = begin;
  while (end < text.size() && (text[end] == ' ' || text[end] == '\t'))
    ++end;
  return text.substr(begin, end - begin);
}

bool TokenStructure::startsLine(const antlr4::Token *t) const {
  size_t offset = t->getStartIndex();
  return indentOfLine(offset).size() ==
         offset - (text.rfind('\n', offset == 0 ? 0 : offset - 1) + 1);
}
