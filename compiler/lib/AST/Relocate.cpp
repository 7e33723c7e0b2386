//===- Relocate.cpp - Moving a module's nodes within their file -----------===//
//
// Module::shift: the language server keeps the AST of a declaration whose
// text did not change and only its offset did (docs/architecture.md,
// "Language server"), so every range a node holds moves by the same delta.
// The switch lists every kind (-Wswitch catches a new one); a class that
// gains a SourceRange field must be handled here too (Node.h).
// Tests: tests/unit/Parse/ParseRangeTest.cpp.
//
//===----------------------------------------------------------------------===//
#include "blk/AST/AST.h"
#include "blk/Support/ShiftRange.h"

namespace blk::ast {

namespace {

void shiftNode(Node &node, int64_t delta) {
  SourceRange whole = node.getRange();
  shiftRange(whole, delta);
  node.setRange(whole);
  switch (node.getKind()) {
  case NodeKind::Member:
    shiftRange(cast<MemberExpr>(node).memberRange, delta);
    break;
  case NodeKind::Binary:
    shiftRange(cast<BinaryExpr>(node).opRange, delta);
    break;
  case NodeKind::Let:
    shiftRange(cast<LetStmt>(node).nameRange, delta);
    break;
  case NodeKind::Assign:
    shiftRange(cast<AssignStmt>(node).opRange, delta);
    break;
  case NodeKind::For:
    shiftRange(cast<ForStmt>(node).varRange, delta);
    break;
  case NodeKind::Import: {
    auto &d = cast<ImportDecl>(node);
    for (SourceRange &r : d.pathRanges)
      shiftRange(r, delta);
    shiftRange(d.aliasRange, delta);
    break;
  }
  case NodeKind::ConstDecl:
    shiftRange(cast<ConstDecl>(node).nameRange, delta);
    break;
  case NodeKind::Function:
    shiftRange(cast<FunctionDecl>(node).nameRange, delta);
    break;
  case NodeKind::TypeRef:
    shiftRange(cast<TypeRef>(node).elementRange, delta);
    break;
  case NodeKind::Argument:
    shiftRange(cast<Argument>(node).nameRange, delta);
    break;
  case NodeKind::Attribute:
    shiftRange(cast<Attribute>(node).nameRange, delta);
    break;
  case NodeKind::Param:
    shiftRange(cast<Param>(node).nameRange, delta);
    break;
  case NodeKind::IntLiteral:
  case NodeKind::FloatLiteral:
  case NodeKind::BoolLiteral:
  case NodeKind::NoneLiteral:
  case NodeKind::StringLiteral:
  case NodeKind::Name:
  case NodeKind::Unary:
  case NodeKind::Cast:
  case NodeKind::Call:
  case NodeKind::Index:
  case NodeKind::Slice:
  case NodeKind::List:
  case NodeKind::Block:
  case NodeKind::If:
  case NodeKind::While:
  case NodeKind::Break:
  case NodeKind::Continue:
  case NodeKind::Return:
  case NodeKind::StaticAssert:
  case NodeKind::ExprStmt:
  case NodeKind::Module:
    break; // only the whole range
  }
}

} // namespace

void Module::shift(int64_t delta) {
  if (delta == 0)
    return;
  shiftNode(*this, delta);
  for (const std::unique_ptr<Node> &node : storage)
    shiftNode(*node, delta);
  for (const std::unique_ptr<Module> &part : parts)
    part->shift(delta);
}

} // namespace blk::ast
