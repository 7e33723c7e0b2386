//===- Stmt.h - blk statement nodes ----------------------------*- C++ -*-===//
//
// Statements of LANGUAGE.md §5. Bodies are BlockStmts (`{ … }`).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_AST_STMT_H
#define BLK_AST_STMT_H

#include "blk/AST/Expr.h"

namespace blk::ast {

/// Base of all statements.
class Stmt : public Node {
public:
  using Node::Node;
  static bool classof(const Node *n) {
    return n->getKind() >= kFirstStmt && n->getKind() <= kLastStmt;
  }
};

/// `{ stmts… }`: a body and a scope.
class BlockStmt : public Stmt {
public:
  BlockStmt(SourceRange r) : Stmt(NodeKind::Block, r) {}
  std::vector<Stmt *> stmts;
  static bool classof(const Node *n) { return n->getKind() == NodeKind::Block; }
};

enum class BindingKind : uint8_t { Let, Var, Const };
/// "let", "var" or "const".
std::string_view spelling(BindingKind kind);

/// `let x = e;`, `var x = e;`, `const X = e;` (optionally `x: type = e`).
class LetStmt : public Stmt {
public:
  LetStmt(SourceRange r) : Stmt(NodeKind::Let, r) {}
  BindingKind binding = BindingKind::Let;
  std::string name;
  SourceRange nameRange;
  TypeRef *type = nullptr; ///< optional annotation
  Expr *init = nullptr;
  static bool classof(const Node *n) { return n->getKind() == NodeKind::Let; }
};

enum class AssignOp : uint8_t {
  Assign,
  Add,
  Sub,
  Mul,
  Div,
  Rem,
  BitAnd,
  BitOr,
  BitXor,
  Shl,
  Shr,
};
/// "=", "+=", …, ">>=".
std::string_view spelling(AssignOp op);
/// The binary operator of a compound assignment (`+=` → Add); Assign has none
/// and returns false.
bool binaryOpOf(AssignOp op, BinaryOp &out);

/// `target = value;` or `target op= value;`.
class AssignStmt : public Stmt {
public:
  AssignStmt(SourceRange r) : Stmt(NodeKind::Assign, r) {}
  AssignOp op = AssignOp::Assign;
  Expr *target = nullptr;
  Expr *value = nullptr;
  SourceRange opRange;
  static bool classof(const Node *n) {
    return n->getKind() == NodeKind::Assign;
  }
};

/// `if cond { … } [else { … } | else if …]`; `elseStmt` is a BlockStmt, an
/// IfStmt (for `else if`) or nullptr.
class IfStmt : public Stmt {
public:
  IfStmt(SourceRange r) : Stmt(NodeKind::If, r) {}
  Expr *cond = nullptr;
  BlockStmt *thenBlock = nullptr;
  Stmt *elseStmt = nullptr;
  static bool classof(const Node *n) { return n->getKind() == NodeKind::If; }
};

/// `for var in iterable { … }`; the iterable is normally a CallExpr to
/// `range` or `static_range` (Sema checks).
class ForStmt : public Stmt {
public:
  ForStmt(SourceRange r) : Stmt(NodeKind::For, r) {}
  std::string var;
  SourceRange varRange;
  Expr *iterable = nullptr;
  BlockStmt *body = nullptr;
  static bool classof(const Node *n) { return n->getKind() == NodeKind::For; }
};

/// `while cond { … }`.
class WhileStmt : public Stmt {
public:
  WhileStmt(SourceRange r) : Stmt(NodeKind::While, r) {}
  Expr *cond = nullptr;
  BlockStmt *body = nullptr;
  static bool classof(const Node *n) { return n->getKind() == NodeKind::While; }
};

/// `break;`
class BreakStmt : public Stmt {
public:
  BreakStmt(SourceRange r) : Stmt(NodeKind::Break, r) {}
  static bool classof(const Node *n) { return n->getKind() == NodeKind::Break; }
};

/// `continue;`
class ContinueStmt : public Stmt {
public:
  ContinueStmt(SourceRange r) : Stmt(NodeKind::Continue, r) {}
  static bool classof(const Node *n) {
    return n->getKind() == NodeKind::Continue;
  }
};

/// `return;` or `return e;`
class ReturnStmt : public Stmt {
public:
  ReturnStmt(SourceRange r) : Stmt(NodeKind::Return, r) {}
  Expr *value = nullptr;
  static bool classof(const Node *n) {
    return n->getKind() == NodeKind::Return;
  }
};

/// `static_assert(cond[, "message"]);`
class StaticAssertStmt : public Stmt {
public:
  StaticAssertStmt(SourceRange r) : Stmt(NodeKind::StaticAssert, r) {}
  Expr *cond = nullptr;
  StringLiteralExpr *message = nullptr;
  static bool classof(const Node *n) {
    return n->getKind() == NodeKind::StaticAssert;
  }
};

/// An expression evaluated for its effect: `store(p, v);`.
class ExprStmt : public Stmt {
public:
  ExprStmt(SourceRange r) : Stmt(NodeKind::ExprStmt, r) {}
  Expr *expr = nullptr;
  static bool classof(const Node *n) {
    return n->getKind() == NodeKind::ExprStmt;
  }
};

} // namespace blk::ast

#endif // BLK_AST_STMT_H
