//===- Decl.h - blk declarations, types, params, attributes ----*- C++ -*-===//
//
// Top-level declarations of LANGUAGE.md §4 and the pieces they are made of:
// type annotations (TypeRef), call/attribute arguments (Argument),
// attributes and hints (Attribute), parameters (Param), and the Module that
// owns every node of one source file.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_AST_DECL_H
#define BLK_AST_DECL_H

#include "blk/AST/Stmt.h"

#include <memory>
#include <set>
#include <string>
#include <utility>

namespace blk::ast {

/// A written type: `f32`, `*f16`, `f32[N]`, `i32[64, 32]`, `*f16[64, 64]`.
/// `elementName` is the scalar name as written (Sema resolves it, incl. the
/// `bool` alias); `dims` are shape expressions (empty: not a block).
class TypeRef : public Node {
public:
  TypeRef(SourceRange r) : Node(NodeKind::TypeRef, r) {}
  bool isPointer = false;
  std::string elementName;
  SourceRange elementRange;
  std::vector<Expr *> dims;
  bool isBlock() const { return !dims.empty(); }
  static bool classof(const Node *n) {
    return n->getKind() == NodeKind::TypeRef;
  }
};

/// One argument of a call or attribute: positional (`x`) or named
/// (`mask: m` in calls, `BLOCK = 128` in attributes). `name` is empty when
/// positional.
class Argument : public Node {
public:
  Argument(SourceRange r) : Node(NodeKind::Argument, r) {}
  std::string name;
  SourceRange nameRange;
  Expr *value = nullptr;
  bool isNamed() const { return !name.empty(); }
  static bool classof(const Node *n) {
    return n->getKind() == NodeKind::Argument;
  }
};

/// `@name(args…)` on a declaration (`@config`, `@autotune`, `@grid`) or a
/// parameter hint (`@aligned(16)`, `@multiple_of(16)`). `name` excludes `@`.
class Attribute : public Node {
public:
  Attribute(SourceRange r) : Node(NodeKind::Attribute, r) {}
  std::string name;
  SourceRange nameRange;
  std::vector<Argument *> args;
  static bool classof(const Node *n) {
    return n->getKind() == NodeKind::Attribute;
  }
};

/// A parameter: `x: *f32 @aligned(16)`, `const BLOCK: i32`, or untyped `x`
/// (generic `fn` only). `type` is nullptr when no annotation was written.
class Param : public Node {
public:
  Param(SourceRange r) : Node(NodeKind::Param, r) {}
  std::string name;
  SourceRange nameRange;
  bool isConst = false;
  TypeRef *type = nullptr;
  std::vector<Attribute *> hints;
  static bool classof(const Node *n) { return n->getKind() == NodeKind::Param; }
};

/// Base of top-level declarations.
class Decl : public Node {
public:
  using Node::Node;
  static bool classof(const Node *n) {
    return n->getKind() >= kFirstDecl && n->getKind() <= kLastDecl;
  }
};

/// `import a.b;` or `import a.b as c;`.
class ImportDecl : public Decl {
public:
  ImportDecl(SourceRange r) : Decl(NodeKind::Import, r) {}
  std::vector<std::string> path; ///< {"std", "math"}
  std::vector<SourceRange> pathRanges;
  std::string alias; ///< empty when no `as`
  SourceRange aliasRange;
  /// "std.math".
  std::string dottedName() const;
  /// The name the module is bound to: the alias, else the last component.
  const std::string &bindingName() const {
    return alias.empty() ? path.back() : alias;
  }
  static bool classof(const Node *n) {
    return n->getKind() == NodeKind::Import;
  }
};

/// Module-level `const NAME[: type] = e;`.
class ConstDecl : public Decl {
public:
  ConstDecl(SourceRange r) : Decl(NodeKind::ConstDecl, r) {}
  std::string name;
  SourceRange nameRange;
  TypeRef *type = nullptr;
  Expr *init = nullptr;
  static bool classof(const Node *n) {
    return n->getKind() == NodeKind::ConstDecl;
  }
};

/// `fn name(params) [-> type] { … }` or `kernel name(params) { … }`, with
/// the `@…` attributes written before it.
class FunctionDecl : public Decl {
public:
  FunctionDecl(SourceRange r) : Decl(NodeKind::Function, r) {}
  bool isKernel = false;
  std::string name;
  SourceRange nameRange;
  std::vector<Attribute *> attributes;
  std::vector<Param *> params;
  TypeRef *returnType = nullptr; ///< `fn` only, optional
  BlockStmt *body = nullptr;
  static bool classof(const Node *n) {
    return n->getKind() == NodeKind::Function;
  }
};

/// One parsed source file. Owns every node created through `create`.
class Module : public Node {
public:
  Module(SourceRange r) : Node(NodeKind::Module, r) {}
  FileId file = 0;
  std::vector<Decl *> decls;
  /// Names of declarations dropped for syntax errors (ParseOptions::
  /// keepValidDecls): Sema does not report uses of them as unknown names.
  std::set<std::string> brokenNames;

  /// Allocates a node owned by this module.
  template <typename T> T *create(SourceRange range) {
    auto node = std::make_unique<T>(range);
    T *raw = node.get();
    storage.push_back(std::move(node));
    return raw;
  }
  /// Number of nodes owned (for tests and statistics).
  size_t nodeCount() const { return storage.size(); }

  /// Modules of pieces of this file (parseModuleRange) that this one owns
  /// and whose declarations it lists: the language server assembles a file
  /// from pieces it parsed now and pieces it kept from an earlier version.
  std::vector<std::unique_ptr<Module>> parts;

  /// Moves every node this module owns (its own and its parts') by `delta`
  /// bytes in its file: all SourceRange fields, and the module's range.
  /// For a piece kept while the text before it grew or shrank.
  void shift(int64_t delta);

  static bool classof(const Node *n) {
    return n->getKind() == NodeKind::Module;
  }

private:
  std::vector<std::unique_ptr<Node>> storage;
};

} // namespace blk::ast

#endif // BLK_AST_DECL_H
