//===- Expr.h - blk expression nodes ---------------------------*- C++ -*-===//
//
// Expressions of LANGUAGE.md §6. Parentheses leave no node (the inner
// expression's range excludes them). Type names used as values
// (`zeros([N], f32)`) are NameExprs; types after `as` are TypeRefs.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_AST_EXPR_H
#define BLK_AST_EXPR_H

#include "blk/AST/Node.h"

#include <string>
#include <vector>

namespace blk::ast {

class TypeRef;
class Argument;

/// Base of all expressions.
class Expr : public Node {
public:
  using Node::Node;
  static bool classof(const Node *n) {
    return n->getKind() >= kFirstExpr && n->getKind() <= kLastExpr;
  }
};

/// Integer literal (decimal, 0x, 0b, `_` separators). The parser rejects
/// literals that do not fit in 64 bits.
class IntLiteralExpr : public Expr {
public:
  IntLiteralExpr(SourceRange r) : Expr(NodeKind::IntLiteral, r) {}
  uint64_t value = 0;
  std::string spelling; ///< as written in the source
  static bool classof(const Node *n) {
    return n->getKind() == NodeKind::IntLiteral;
  }
};

/// Floating-point literal (`1.0`, `1e-5`, `.5`).
class FloatLiteralExpr : public Expr {
public:
  FloatLiteralExpr(SourceRange r) : Expr(NodeKind::FloatLiteral, r) {}
  double value = 0;
  std::string spelling;
  static bool classof(const Node *n) {
    return n->getKind() == NodeKind::FloatLiteral;
  }
};

/// `true` / `false`.
class BoolLiteralExpr : public Expr {
public:
  BoolLiteralExpr(SourceRange r) : Expr(NodeKind::BoolLiteral, r) {}
  bool value = false;
  static bool classof(const Node *n) {
    return n->getKind() == NodeKind::BoolLiteral;
  }
};

/// `None` (only meaningful inside an index: `x[:, None]`).
class NoneLiteralExpr : public Expr {
public:
  NoneLiteralExpr(SourceRange r) : Expr(NodeKind::NoneLiteral, r) {}
  static bool classof(const Node *n) {
    return n->getKind() == NodeKind::NoneLiteral;
  }
};

/// String literal; `value` has escapes (\n \t \\ \" \0) decoded.
class StringLiteralExpr : public Expr {
public:
  StringLiteralExpr(SourceRange r) : Expr(NodeKind::StringLiteral, r) {}
  std::string value;
  static bool classof(const Node *n) {
    return n->getKind() == NodeKind::StringLiteral;
  }
};

/// A bare identifier: variable, parameter, constant, function, builtin,
/// imported module or type name (`f32` in `zeros([N], f32)`).
class NameExpr : public Expr {
public:
  NameExpr(SourceRange r) : Expr(NodeKind::Name, r) {}
  std::string name;
  static bool classof(const Node *n) { return n->getKind() == NodeKind::Name; }
};

/// `base.member`, e.g. `math.gelu` after `import std.math;`.
class MemberExpr : public Expr {
public:
  MemberExpr(SourceRange r) : Expr(NodeKind::Member, r) {}
  Expr *base = nullptr;
  std::string member;
  SourceRange memberRange;
  static bool classof(const Node *n) {
    return n->getKind() == NodeKind::Member;
  }
};

enum class UnaryOp : uint8_t { Neg, Not, BitNot };
/// Spelling of a unary operator: "-", "!", "~".
std::string_view spelling(UnaryOp op);

/// Prefix `-x`, `!x`, `~x`. The range starts at the operator.
class UnaryExpr : public Expr {
public:
  UnaryExpr(SourceRange r) : Expr(NodeKind::Unary, r) {}
  UnaryOp op = UnaryOp::Neg;
  Expr *operand = nullptr;
  static bool classof(const Node *n) { return n->getKind() == NodeKind::Unary; }
};

enum class BinaryOp : uint8_t {
  LogicalOr,
  LogicalAnd,
  BitOr,
  BitXor,
  BitAnd,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  Shl,
  Shr,
  Add,
  Sub,
  Mul,
  Div,
  Rem,
};
/// Spelling of a binary operator: "||", "+", "<<", …
std::string_view spelling(BinaryOp op);

/// `lhs op rhs`; all binary operators are left-associative.
class BinaryExpr : public Expr {
public:
  BinaryExpr(SourceRange r) : Expr(NodeKind::Binary, r) {}
  BinaryOp op = BinaryOp::Add;
  Expr *lhs = nullptr;
  Expr *rhs = nullptr;
  SourceRange opRange; ///< the operator token
  static bool classof(const Node *n) {
    return n->getKind() == NodeKind::Binary;
  }
};

/// `operand as type`.
class CastExpr : public Expr {
public:
  CastExpr(SourceRange r) : Expr(NodeKind::Cast, r) {}
  Expr *operand = nullptr;
  TypeRef *type = nullptr;
  static bool classof(const Node *n) { return n->getKind() == NodeKind::Cast; }
};

/// `callee(args…)`; named arguments (`mask: m`) are Arguments with a name.
/// Positional and named arguments keep their source order.
class CallExpr : public Expr {
public:
  CallExpr(SourceRange r) : Expr(NodeKind::Call, r) {}
  Expr *callee = nullptr;
  std::vector<Argument *> args;
  static bool classof(const Node *n) { return n->getKind() == NodeKind::Call; }
};

/// `base[i0, i1, …]`; each index is a SliceExpr (`:`), a NoneLiteralExpr or
/// (syntactically allowed, rejected by Sema) another expression.
class IndexExpr : public Expr {
public:
  IndexExpr(SourceRange r) : Expr(NodeKind::Index, r) {}
  Expr *base = nullptr;
  std::vector<Expr *> indices;
  static bool classof(const Node *n) { return n->getKind() == NodeKind::Index; }
};

/// A bare `:` inside an index.
class SliceExpr : public Expr {
public:
  SliceExpr(SourceRange r) : Expr(NodeKind::Slice, r) {}
  static bool classof(const Node *n) { return n->getKind() == NodeKind::Slice; }
};

/// `[a, b, …]`: shapes, permute dims, autotune keys.
class ListExpr : public Expr {
public:
  ListExpr(SourceRange r) : Expr(NodeKind::List, r) {}
  std::vector<Expr *> elements;
  static bool classof(const Node *n) { return n->getKind() == NodeKind::List; }
};

} // namespace blk::ast

#endif // BLK_AST_EXPR_H
