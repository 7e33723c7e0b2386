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

namespace blk::ast {

namespace {

void move(SourceRange &r, int64_t delta) {
  if (!r.isValid())
    return;
  r.begin.offset = static_cast<uint32_t>(r.begin.offset + delta);
  r.end.offset = static_cast<uint32_t>(r.end.offset + delta);
}

void shiftNode(Node &node, int64_t delta) {
  SourceRange whole = node.getRange();
  move(whole, delta);
  node.setRange(whole);
  switch (node.getKind()) {
  case NodeKind::Member:
    move(cast<MemberExpr>(node).memberRange, delta);
    break;
  case NodeKind::Binary:
    move(cast<BinaryExpr>(node).opRange, delta);
    break;
  case NodeKind::Let:
    move(cast<LetStmt>(node).nameRange, delta);
    break;
  case NodeKind::Assign:
    move(cast<AssignStmt>(node).opRange, delta);
    break;
  case NodeKind::For:
    move(cast<ForStmt>(node).varRange, delta);
    break;
  case NodeKind::Import: {
    auto &d = cast<ImportDecl>(node);
    for (SourceRange &r : d.pathRanges)
      move(r, delta);
    move(d.aliasRange, delta);
    break;
  }
  case NodeKind::ConstDecl:
    move(cast<ConstDecl>(node).nameRange, delta);
    break;
  case NodeKind::Function:
    move(cast<FunctionDecl>(node).nameRange, delta);
    break;
  case NodeKind::TypeRef:
    move(cast<TypeRef>(node).elementRange, delta);
    break;
  case NodeKind::Argument:
    move(cast<Argument>(node).nameRange, delta);
    break;
  case NodeKind::Attribute:
    move(cast<Attribute>(node).nameRange, delta);
    break;
  case NodeKind::Param:
    move(cast<Param>(node).nameRange, delta);
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
