//===- Node.h - Base of every blk AST node ---------------------*- C++ -*-===//
//
// Design of the AST (stable: later changes only ADD kinds, classes, fields):
//  - Every node derives from ast::Node, carries a NodeKind and a SourceRange
//    covering the whole construct (half-open byte range, see SourceLocation.h).
//  - Class hierarchy with LLVM-style RTTI: each class has a static
//    `classof(const Node *)`, so use llvm::isa / dyn_cast / cast
//    (llvm/Support/Casting.h, re-exported here as blk::ast::isa etc.).
//  - Nodes are created by and owned by their ast::Module (an arena); child
//    links are plain non-owning pointers. Nodes never move, so Sema and later
//    stages keep their facts (types, shapes, constant values, resolved names)
//    in side tables keyed by `const Node *`; the AST holds syntax only.
//  - Fields are public; the parser fills them in after `Module::create`.
//    Optional children are nullptr when absent.
//  - Names are std::string with a separate SourceRange for the identifier.
//  - Every SourceRange field is moved by Module::shift (Relocate.cpp): a
//    new one must be added there.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_AST_NODE_H
#define BLK_AST_NODE_H

#include "blk/Support/SourceLocation.h"

#include "llvm/Support/Casting.h"

#include <cstdint>
#include <string_view>

namespace blk::ast {

using llvm::cast;
using llvm::dyn_cast;
using llvm::dyn_cast_or_null;
using llvm::isa;

/// Every concrete node class; ranges group the abstract bases.
enum class NodeKind : uint8_t {
  // Expressions (class Expr).
  IntLiteral,
  FloatLiteral,
  BoolLiteral,
  NoneLiteral,
  StringLiteral,
  Name,
  Member,
  Unary,
  Binary,
  Cast,
  Call,
  Index,
  Slice,
  List,
  // Statements (class Stmt).
  Block,
  Let,
  Assign,
  If,
  For,
  While,
  Break,
  Continue,
  Return,
  StaticAssert,
  ExprStmt,
  // Top-level declarations (class Decl).
  Import,
  ConstDecl,
  Function, // `fn` and `kernel` (FunctionDecl::isKernel tells them apart)
  // Pieces that are neither expressions, statements nor declarations.
  TypeRef,
  Argument,
  Attribute,
  Param,
  Module,
};

/// Kind ranges used by the abstract classes' classof.
inline constexpr NodeKind kFirstExpr = NodeKind::IntLiteral;
inline constexpr NodeKind kLastExpr = NodeKind::List;
inline constexpr NodeKind kFirstStmt = NodeKind::Block;
inline constexpr NodeKind kLastStmt = NodeKind::ExprStmt;
inline constexpr NodeKind kFirstDecl = NodeKind::Import;
inline constexpr NodeKind kLastDecl = NodeKind::Function;

/// Stable lowercase name of a kind ("binary", "call", …), used by the dumper.
std::string_view kindName(NodeKind kind);

/// Base of every AST node.
class Node {
public:
  Node(NodeKind kind, SourceRange range) : kind(kind), range(range) {}
  virtual ~Node() = default;
  Node(const Node &) = delete;
  Node &operator=(const Node &) = delete;

  NodeKind getKind() const { return kind; }
  /// The whole construct, from its first to one past its last byte.
  SourceRange getRange() const { return range; }
  SourceLoc getBegin() const { return range.begin; }
  void setRange(SourceRange r) { range = r; }

private:
  NodeKind kind;
  SourceRange range;
};

} // namespace blk::ast

#endif // BLK_AST_NODE_H
