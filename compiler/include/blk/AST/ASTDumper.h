//===- ASTDumper.h - Textual dump of the AST -------------------*- C++ -*-===//
//
// `blkc check --dump-ast`: one line per node, indented by depth, each with
// its kind, its salient fields and `file:line:col-line:col` of its range.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_AST_ASTDUMPER_H
#define BLK_AST_ASTDUMPER_H

#include "blk/AST/AST.h"

#include <ostream>

namespace blk {
class SourceManager;
}

namespace blk::ast {

/// Prints `module` and every node below it to `os`.
void dumpAST(const Module &module, const SourceManager &sm, std::ostream &os);

} // namespace blk::ast

#endif // BLK_AST_ASTDUMPER_H
