//===- BuildDecl.cpp - Declarations and statements to AST -----------------===//
#include "ASTBuilder.h"

using namespace blk;
using namespace blk::ast;
using namespace blk::parse;
using g::BlkParser;

std::unique_ptr<Module> ASTBuilder::build(BlkParser::UnitContext *unit) {
  module = std::make_unique<Module>(
      SourceRange(file, 0, static_cast<uint32_t>(text.size())));
  module->file = file;
  for (BlkParser::DeclContext *d : unit->decl())
    if (Decl *decl = buildDecl(d))
      module->decls.push_back(decl);
  if (failed)
    return nullptr;
  return std::move(module);
}

/// True when the parser recovered from an error inside `tree`.
static bool hasSyntaxError(antlr4::tree::ParseTree *tree) {
  if (dynamic_cast<antlr4::tree::ErrorNode *>(tree))
    return true;
  auto *rule = dynamic_cast<antlr4::ParserRuleContext *>(tree);
  if (!rule)
    return false;
  if (rule->exception)
    return true;
  for (antlr4::tree::ParseTree *child : rule->children)
    if (hasSyntaxError(child))
      return true;
  return false;
}

std::unique_ptr<Module> ASTBuilder::buildValidDecls(BlkParser::UnitContext *unit) {
  module = std::make_unique<Module>(
      SourceRange(file, 0, static_cast<uint32_t>(text.size())));
  module->file = file;
  for (BlkParser::DeclContext *d : unit->decl()) {
    Decl *decl = hasSyntaxError(d) ? nullptr : buildDecl(d);
    if (decl && !failed) {
      module->decls.push_back(decl);
      continue;
    }
    failed = false;
    antlr4::tree::TerminalNode *name = nullptr;
    if (auto *f = d->functionDecl())
      name = f->IDENT();
    else if (auto *c = d->constDecl())
      name = c->IDENT();
    // A token the parser conjured while recovering has no index in the stream.
    if (name && name->getSymbol()->getTokenIndex() != static_cast<size_t>(-1))
      module->brokenNames.insert(name->getText());
  }
  return std::move(module);
}

Decl *ASTBuilder::buildDecl(BlkParser::DeclContext *ctx) {
  if (auto *c = ctx->importDecl())
    return buildImport(c);
  if (auto *c = ctx->constDecl())
    return buildConst(c);
  return buildFunction(ctx->functionDecl());
}

ImportDecl *ASTBuilder::buildImport(BlkParser::ImportDeclContext *ctx) {
  auto *d = make<ImportDecl>(ctx);
  std::vector<antlr4::tree::TerminalNode *> names = ctx->IDENT();
  size_t pathLength = ctx->AS() ? names.size() - 1 : names.size();
  for (size_t i = 0; i < pathLength; ++i) {
    d->path.push_back(textOf(names[i]));
    d->pathRanges.push_back(rangeOf(names[i]));
  }
  if (ctx->AS()) {
    d->alias = textOf(names.back());
    d->aliasRange = rangeOf(names.back());
  }
  return d;
}

ConstDecl *ASTBuilder::buildConst(BlkParser::ConstDeclContext *ctx) {
  auto *d = make<ConstDecl>(ctx);
  d->name = textOf(ctx->IDENT());
  d->nameRange = rangeOf(ctx->IDENT());
  if (ctx->typeRef())
    d->type = buildType(ctx->typeRef());
  d->init = buildTopExpr(ctx->expr());
  return d;
}

FunctionDecl *ASTBuilder::buildFunction(BlkParser::FunctionDeclContext *ctx) {
  auto *f = make<FunctionDecl>(ctx);
  f->isKernel = ctx->KERNEL() != nullptr;
  f->name = textOf(ctx->IDENT());
  f->nameRange = rangeOf(ctx->IDENT());
  for (BlkParser::AttributeContext *a : ctx->attribute())
    f->attributes.push_back(buildAttribute(a));
  for (BlkParser::ParamContext *p : ctx->param())
    f->params.push_back(buildParam(p));
  if (ctx->typeRef())
    f->returnType = buildType(ctx->typeRef());
  f->body = buildBlock(ctx->block());
  return f;
}

Attribute *ASTBuilder::buildAttribute(BlkParser::AttributeContext *ctx) {
  auto *a = make<Attribute>(ctx);
  a->name = textOf(ctx->IDENT());
  a->nameRange = rangeOf(ctx->IDENT());
  for (BlkParser::AttrArgContext *arg : ctx->attrArg()) {
    auto *node = make<Argument>(arg);
    if (arg->ASSIGN()) {
      node->name = textOf(arg->IDENT());
      node->nameRange = rangeOf(arg->IDENT());
    }
    node->value = buildTopExpr(arg->expr());
    a->args.push_back(node);
  }
  checkArguments(a->args);
  return a;
}

Param *ASTBuilder::buildParam(BlkParser::ParamContext *ctx) {
  auto *p = make<Param>(ctx);
  p->isConst = ctx->CONST() != nullptr;
  p->name = textOf(ctx->IDENT());
  p->nameRange = rangeOf(ctx->IDENT());
  if (ctx->typeRef())
    p->type = buildType(ctx->typeRef());
  for (BlkParser::AttributeContext *a : ctx->attribute())
    p->hints.push_back(buildAttribute(a));
  return p;
}

BlockStmt *ASTBuilder::buildBlock(BlkParser::BlockContext *ctx) {
  auto *b = make<BlockStmt>(ctx);
  for (BlkParser::StmtContext *s : ctx->stmt())
    if (Stmt *stmt = buildStmt(s))
      b->stmts.push_back(stmt);
  return b;
}

Stmt *ASTBuilder::buildStmt(BlkParser::StmtContext *ctx) {
  if (auto *c = ctx->letStmt())
    return buildLet(c);
  if (auto *c = ctx->ifStmt())
    return buildIf(c);
  if (auto *c = ctx->forStmt()) {
    auto *s = make<ForStmt>(c);
    s->var = textOf(c->IDENT());
    s->varRange = rangeOf(c->IDENT());
    s->iterable = buildTopExpr(c->expr());
    s->body = buildBlock(c->block());
    return s;
  }
  if (auto *c = ctx->whileStmt()) {
    auto *s = make<WhileStmt>(c);
    s->cond = buildTopExpr(c->expr());
    s->body = buildBlock(c->block());
    return s;
  }
  if (auto *c = ctx->breakStmt())
    return make<BreakStmt>(c);
  if (auto *c = ctx->continueStmt())
    return make<ContinueStmt>(c);
  if (auto *c = ctx->returnStmt()) {
    auto *s = make<ReturnStmt>(c);
    if (c->expr())
      s->value = buildTopExpr(c->expr());
    return s;
  }
  if (auto *c = ctx->staticAssertStmt())
    return buildStaticAssert(c);
  return buildExprOrAssign(ctx->exprOrAssignStmt());
}

Stmt *ASTBuilder::buildLet(BlkParser::LetStmtContext *ctx) {
  auto *s = make<LetStmt>(ctx);
  s->binding = ctx->VAR()     ? BindingKind::Var
               : ctx->CONST() ? BindingKind::Const
                              : BindingKind::Let;
  s->name = textOf(ctx->IDENT());
  s->nameRange = rangeOf(ctx->IDENT());
  if (ctx->typeRef())
    s->type = buildType(ctx->typeRef());
  s->init = buildTopExpr(ctx->expr());
  return s;
}

Stmt *ASTBuilder::buildIf(BlkParser::IfStmtContext *ctx) {
  std::vector<BlkParser::ExprContext *> conds = ctx->expr();
  std::vector<BlkParser::BlockContext *> blocks = ctx->block();
  std::vector<antlr4::tree::TerminalNode *> ifs = ctx->IF();
  if (conds.size() > options.maxNesting) {
    diags.report(DiagId::parse_nesting_too_deep,
                 rangeOf(ifs[options.maxNesting]), {options.maxNesting});
    failed = true;
    return nullptr;
  }
  // Build the `else if` chain from its end: each link is an IfStmt whose
  // range runs from its own `if` to the end of the whole statement.
  Stmt *elseStmt =
      blocks.size() > conds.size() ? buildBlock(blocks.back()) : nullptr;
  SourceLoc end = rangeOf(ctx).end;
  for (size_t i = conds.size(); i-- > 0;) {
    auto *s = module->create<IfStmt>(SourceRange(rangeOf(ifs[i]).begin, end));
    s->cond = buildTopExpr(conds[i]);
    s->thenBlock = buildBlock(blocks[i]);
    s->elseStmt = elseStmt;
    elseStmt = s;
  }
  return elseStmt;
}

Stmt *ASTBuilder::buildStaticAssert(BlkParser::StaticAssertStmtContext *ctx) {
  auto *s = make<StaticAssertStmt>(ctx);
  s->cond = buildTopExpr(ctx->expr());
  if (ctx->STRING())
    s->message = buildString(ctx->STRING());
  return s;
}

Stmt *ASTBuilder::buildExprOrAssign(BlkParser::ExprOrAssignStmtContext *ctx) {
  std::vector<BlkParser::ExprContext *> exprs = ctx->expr();
  if (!ctx->assignOp()) {
    auto *s = make<ExprStmt>(ctx);
    s->expr = buildTopExpr(exprs[0]);
    return s;
  }
  auto *s = make<AssignStmt>(ctx);
  auto *op =
      static_cast<antlr4::tree::TerminalNode *>(ctx->assignOp()->children[0]);
  s->opRange = rangeOf(op);
  switch (op->getSymbol()->getType()) {
  case BlkParser::PLUS_ASSIGN:
    s->op = AssignOp::Add;
    break;
  case BlkParser::MINUS_ASSIGN:
    s->op = AssignOp::Sub;
    break;
  case BlkParser::STAR_ASSIGN:
    s->op = AssignOp::Mul;
    break;
  case BlkParser::SLASH_ASSIGN:
    s->op = AssignOp::Div;
    break;
  case BlkParser::PERCENT_ASSIGN:
    s->op = AssignOp::Rem;
    break;
  case BlkParser::AMP_ASSIGN:
    s->op = AssignOp::BitAnd;
    break;
  case BlkParser::PIPE_ASSIGN:
    s->op = AssignOp::BitOr;
    break;
  case BlkParser::CARET_ASSIGN:
    s->op = AssignOp::BitXor;
    break;
  case BlkParser::SHL_ASSIGN:
    s->op = AssignOp::Shl;
    break;
  case BlkParser::SHR_ASSIGN:
    s->op = AssignOp::Shr;
    break;
  default:
    s->op = AssignOp::Assign;
    break;
  }
  s->target = buildTopExpr(exprs[0]);
  s->value = buildTopExpr(exprs[1]);
  if (s->target && !isa<NameExpr>(s->target)) {
    diags.report(DiagId::parse_invalid_assign_target, s->target->getRange());
    failed = true;
  }
  return s;
}
