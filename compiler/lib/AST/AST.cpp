//===- AST.cpp - Names, spellings and child traversal of AST nodes --------===//
#include "blk/AST/AST.h"

using namespace blk;
using namespace blk::ast;

std::string_view ast::kindName(NodeKind kind) {
  switch (kind) {
  case NodeKind::IntLiteral:
    return "int";
  case NodeKind::FloatLiteral:
    return "float";
  case NodeKind::BoolLiteral:
    return "bool";
  case NodeKind::NoneLiteral:
    return "none";
  case NodeKind::StringLiteral:
    return "string";
  case NodeKind::Name:
    return "name";
  case NodeKind::Member:
    return "member";
  case NodeKind::Unary:
    return "unary";
  case NodeKind::Binary:
    return "binary";
  case NodeKind::Cast:
    return "cast";
  case NodeKind::Call:
    return "call";
  case NodeKind::Index:
    return "index";
  case NodeKind::Slice:
    return "slice";
  case NodeKind::List:
    return "list";
  case NodeKind::Block:
    return "block";
  case NodeKind::Let:
    return "let";
  case NodeKind::Assign:
    return "assign";
  case NodeKind::If:
    return "if";
  case NodeKind::For:
    return "for";
  case NodeKind::While:
    return "while";
  case NodeKind::Break:
    return "break";
  case NodeKind::Continue:
    return "continue";
  case NodeKind::Return:
    return "return";
  case NodeKind::StaticAssert:
    return "static_assert";
  case NodeKind::ExprStmt:
    return "expr_stmt";
  case NodeKind::Import:
    return "import";
  case NodeKind::ConstDecl:
    return "const_decl";
  case NodeKind::Function:
    return "function";
  case NodeKind::TypeRef:
    return "type";
  case NodeKind::Argument:
    return "arg";
  case NodeKind::Attribute:
    return "attribute";
  case NodeKind::Param:
    return "param";
  case NodeKind::Module:
    return "module";
  }
  return "?";
}

std::string_view ast::spelling(UnaryOp op) {
  switch (op) {
  case UnaryOp::Neg:
    return "-";
  case UnaryOp::Not:
    return "!";
  case UnaryOp::BitNot:
    return "~";
  }
  return "?";
}

std::string_view ast::spelling(BinaryOp op) {
  switch (op) {
  case BinaryOp::LogicalOr:
    return "||";
  case BinaryOp::LogicalAnd:
    return "&&";
  case BinaryOp::BitOr:
    return "|";
  case BinaryOp::BitXor:
    return "^";
  case BinaryOp::BitAnd:
    return "&";
  case BinaryOp::Eq:
    return "==";
  case BinaryOp::Ne:
    return "!=";
  case BinaryOp::Lt:
    return "<";
  case BinaryOp::Le:
    return "<=";
  case BinaryOp::Gt:
    return ">";
  case BinaryOp::Ge:
    return ">=";
  case BinaryOp::Shl:
    return "<<";
  case BinaryOp::Shr:
    return ">>";
  case BinaryOp::Add:
    return "+";
  case BinaryOp::Sub:
    return "-";
  case BinaryOp::Mul:
    return "*";
  case BinaryOp::Div:
    return "/";
  case BinaryOp::Rem:
    return "%";
  }
  return "?";
}

std::string_view ast::spelling(BindingKind kind) {
  switch (kind) {
  case BindingKind::Let:
    return "let";
  case BindingKind::Var:
    return "var";
  case BindingKind::Const:
    return "const";
  }
  return "?";
}

std::string_view ast::spelling(AssignOp op) {
  switch (op) {
  case AssignOp::Assign:
    return "=";
  case AssignOp::Add:
    return "+=";
  case AssignOp::Sub:
    return "-=";
  case AssignOp::Mul:
    return "*=";
  case AssignOp::Div:
    return "/=";
  case AssignOp::Rem:
    return "%=";
  case AssignOp::BitAnd:
    return "&=";
  case AssignOp::BitOr:
    return "|=";
  case AssignOp::BitXor:
    return "^=";
  case AssignOp::Shl:
    return "<<=";
  case AssignOp::Shr:
    return ">>=";
  }
  return "?";
}

bool ast::binaryOpOf(AssignOp op, BinaryOp &out) {
  switch (op) {
  case AssignOp::Assign:
    return false;
  case AssignOp::Add:
    out = BinaryOp::Add;
    return true;
  case AssignOp::Sub:
    out = BinaryOp::Sub;
    return true;
  case AssignOp::Mul:
    out = BinaryOp::Mul;
    return true;
  case AssignOp::Div:
    out = BinaryOp::Div;
    return true;
  case AssignOp::Rem:
    out = BinaryOp::Rem;
    return true;
  case AssignOp::BitAnd:
    out = BinaryOp::BitAnd;
    return true;
  case AssignOp::BitOr:
    out = BinaryOp::BitOr;
    return true;
  case AssignOp::BitXor:
    out = BinaryOp::BitXor;
    return true;
  case AssignOp::Shl:
    out = BinaryOp::Shl;
    return true;
  case AssignOp::Shr:
    out = BinaryOp::Shr;
    return true;
  }
  return false;
}

std::string ImportDecl::dottedName() const {
  std::string out;
  for (const std::string &p : path) {
    if (!out.empty())
      out += '.';
    out += p;
  }
  return out;
}

template <typename T>
static void each(const std::vector<T *> &nodes,
                 const std::function<void(const Node *)> &fn) {
  for (const T *n : nodes)
    if (n)
      fn(n);
}

static void one(const Node *n, const std::function<void(const Node *)> &fn) {
  if (n)
    fn(n);
}

void ast::forEachChild(const Node *node,
                       const std::function<void(const Node *)> &fn) {
  if (!node)
    return;
  switch (node->getKind()) {
  case NodeKind::IntLiteral:
  case NodeKind::FloatLiteral:
  case NodeKind::BoolLiteral:
  case NodeKind::NoneLiteral:
  case NodeKind::StringLiteral:
  case NodeKind::Name:
  case NodeKind::Slice:
  case NodeKind::Break:
  case NodeKind::Continue:
  case NodeKind::Import:
    return;
  case NodeKind::Member:
    return one(cast<MemberExpr>(node)->base, fn);
  case NodeKind::Unary:
    return one(cast<UnaryExpr>(node)->operand, fn);
  case NodeKind::Binary:
    one(cast<BinaryExpr>(node)->lhs, fn);
    return one(cast<BinaryExpr>(node)->rhs, fn);
  case NodeKind::Cast:
    one(cast<CastExpr>(node)->operand, fn);
    return one(cast<CastExpr>(node)->type, fn);
  case NodeKind::Call:
    one(cast<CallExpr>(node)->callee, fn);
    return each(cast<CallExpr>(node)->args, fn);
  case NodeKind::Index:
    one(cast<IndexExpr>(node)->base, fn);
    return each(cast<IndexExpr>(node)->indices, fn);
  case NodeKind::List:
    return each(cast<ListExpr>(node)->elements, fn);
  case NodeKind::Block:
    return each(cast<BlockStmt>(node)->stmts, fn);
  case NodeKind::Let:
    one(cast<LetStmt>(node)->type, fn);
    return one(cast<LetStmt>(node)->init, fn);
  case NodeKind::Assign:
    one(cast<AssignStmt>(node)->target, fn);
    return one(cast<AssignStmt>(node)->value, fn);
  case NodeKind::If:
    one(cast<IfStmt>(node)->cond, fn);
    one(cast<IfStmt>(node)->thenBlock, fn);
    return one(cast<IfStmt>(node)->elseStmt, fn);
  case NodeKind::For:
    one(cast<ForStmt>(node)->iterable, fn);
    return one(cast<ForStmt>(node)->body, fn);
  case NodeKind::While:
    one(cast<WhileStmt>(node)->cond, fn);
    return one(cast<WhileStmt>(node)->body, fn);
  case NodeKind::Return:
    return one(cast<ReturnStmt>(node)->value, fn);
  case NodeKind::StaticAssert:
    one(cast<StaticAssertStmt>(node)->cond, fn);
    return one(cast<StaticAssertStmt>(node)->message, fn);
  case NodeKind::ExprStmt:
    return one(cast<ExprStmt>(node)->expr, fn);
  case NodeKind::ConstDecl:
    one(cast<ConstDecl>(node)->type, fn);
    return one(cast<ConstDecl>(node)->init, fn);
  case NodeKind::Function: {
    auto *f = cast<FunctionDecl>(node);
    each(f->attributes, fn);
    each(f->params, fn);
    one(f->returnType, fn);
    return one(f->body, fn);
  }
  case NodeKind::TypeRef:
    return each(cast<TypeRef>(node)->dims, fn);
  case NodeKind::Argument:
    return one(cast<Argument>(node)->value, fn);
  case NodeKind::Attribute:
    return each(cast<Attribute>(node)->args, fn);
  case NodeKind::Param:
    one(cast<Param>(node)->type, fn);
    return each(cast<Param>(node)->hints, fn);
  case NodeKind::Module:
    return each(cast<Module>(node)->decls, fn);
  }
}
