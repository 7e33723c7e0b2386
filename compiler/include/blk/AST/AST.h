//===- AST.h - The whole blk AST -------------------------------*- C++ -*-===//
//
// Umbrella header: include this to use the AST. See Node.h for the design
// (kinds, LLVM-style casting, ownership, side tables for semantic facts).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_AST_AST_H
#define BLK_AST_AST_H

#include "blk/AST/Decl.h"
#include "blk/AST/Expr.h"
#include "blk/AST/Node.h"
#include "blk/AST/Stmt.h"

#include <functional>

namespace blk::ast {

/// Calls `fn` on each direct child of `node` in source order (nullptr
/// children skipped). Lets passes walk the tree without a visitor per kind.
void forEachChild(const Node *node,
                  const std::function<void(const Node *)> &fn);

} // namespace blk::ast

#endif // BLK_AST_AST_H
