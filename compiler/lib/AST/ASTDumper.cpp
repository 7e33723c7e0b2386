//===- ASTDumper.cpp - Textual dump of the AST ----------------------------===//
//
// Format: `<indent><kind> <fields> <file:line:col-line:col>`; children are
// indented by two spaces below their parent, in source order.
//
//===----------------------------------------------------------------------===//
#include "blk/AST/ASTDumper.h"

#include "blk/Support/SourceManager.h"

#include <sstream>

using namespace blk;
using namespace blk::ast;

namespace {

std::string quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + "\"";
}

/// Salient fields of `n` (beyond its kind and children).
std::string fields(const Node *n) {
  std::ostringstream os;
  if (auto *e = dyn_cast<IntLiteralExpr>(n))
    os << e->value;
  else if (auto *e = dyn_cast<FloatLiteralExpr>(n))
    os << e->spelling;
  else if (auto *e = dyn_cast<BoolLiteralExpr>(n))
    os << (e->value ? "true" : "false");
  else if (auto *e = dyn_cast<StringLiteralExpr>(n))
    os << quoted(e->value);
  else if (auto *e = dyn_cast<NameExpr>(n))
    os << e->name;
  else if (auto *e = dyn_cast<MemberExpr>(n))
    os << "." << e->member;
  else if (auto *e = dyn_cast<UnaryExpr>(n))
    os << "'" << spelling(e->op) << "'";
  else if (auto *e = dyn_cast<BinaryExpr>(n))
    os << "'" << spelling(e->op) << "'";
  else if (auto *s = dyn_cast<LetStmt>(n))
    os << spelling(s->binding) << " " << s->name;
  else if (auto *s = dyn_cast<AssignStmt>(n))
    os << "'" << spelling(s->op) << "'";
  else if (auto *s = dyn_cast<ForStmt>(n))
    os << s->var;
  else if (auto *d = dyn_cast<ImportDecl>(n)) {
    os << d->dottedName();
    if (!d->alias.empty())
      os << " as " << d->alias;
  } else if (auto *d = dyn_cast<ConstDecl>(n))
    os << d->name;
  else if (auto *d = dyn_cast<FunctionDecl>(n))
    os << (d->isKernel ? "kernel " : "fn ") << d->name;
  else if (auto *t = dyn_cast<TypeRef>(n))
    os << (t->isPointer ? "*" : "") << t->elementName
       << (t->isBlock() ? "[]" : "");
  else if (auto *a = dyn_cast<Argument>(n)) {
    if (a->isNamed())
      os << a->name;
  } else if (auto *a = dyn_cast<Attribute>(n))
    os << "@" << a->name;
  else if (auto *p = dyn_cast<Param>(n))
    os << (p->isConst ? "const " : "") << p->name;
  return os.str();
}

std::string where(const SourceManager &sm, SourceRange r) {
  if (!r.isValid())
    return "<no location>";
  LineCol b = sm.getLineCol(r.begin);
  LineCol e = sm.getLineCol(r.end);
  return sm.getPath(r.begin.file) + ":" + std::to_string(b.line) + ":" +
         std::to_string(b.col) + "-" + std::to_string(e.line) + ":" +
         std::to_string(e.col);
}

void dump(const Node *n, const SourceManager &sm, std::ostream &os,
          unsigned depth) {
  os << std::string(depth * 2, ' ') << kindName(n->getKind());
  std::string f = fields(n);
  if (!f.empty())
    os << " " << f;
  os << " <" << where(sm, n->getRange()) << ">\n";
  forEachChild(n, [&](const Node *child) { dump(child, sm, os, depth + 1); });
}

} // namespace

void ast::dumpAST(const Module &module, const SourceManager &sm,
                  std::ostream &os) {
  dump(&module, sm, os, 0);
}
