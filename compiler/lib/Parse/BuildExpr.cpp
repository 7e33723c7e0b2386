//===- BuildExpr.cpp - Expressions, types and arguments to AST ------------===//
//
// Operator chains (`a + b - c`) are flat in the parse tree (one rule per
// precedence level with a loop) and are folded here, left-associatively,
// without recursion. Only brackets recurse, and the parser bounded their
// depth before parsing.
//
//===----------------------------------------------------------------------===//
#include "ASTBuilder.h"

#include "blk/Parse/Literals.h"

#include <algorithm>

using namespace blk;
using namespace blk::ast;
using namespace blk::parse;
using g::BlkParser;

SourceRange ASTBuilder::rangeOf(antlr4::Token *token) const {
  auto begin = static_cast<uint32_t>(token->getStartIndex());
  auto end = static_cast<uint32_t>(token->getStopIndex() + 1);
  return SourceRange(SourceLoc{file, begin},
                     SourceLoc{file, std::max(begin, end)});
}

SourceRange ASTBuilder::rangeOf(antlr4::tree::TerminalNode *node) const {
  return rangeOf(node->getSymbol());
}

SourceRange ASTBuilder::rangeOf(antlr4::ParserRuleContext *ctx) const {
  SourceRange begin = rangeOf(ctx->getStart());
  antlr4::Token *stop = ctx->getStop();
  if (!stop || stop->getTokenIndex() < ctx->getStart()->getTokenIndex())
    return SourceRange(begin.begin, begin.begin);
  return SourceRange(begin.begin, rangeOf(stop).end);
}

std::string ASTBuilder::textOf(antlr4::tree::TerminalNode *node) const {
  SourceRange r = rangeOf(node);
  return std::string(text.substr(r.begin.offset, r.length()));
}

ASTBuilder::Built ASTBuilder::checked(Built b) {
  if (b.height > options.maxExprHeight && !reportedTooComplex) {
    reportedTooComplex = true;
    failed = true;
    diags.report(DiagId::parse_expression_too_complex, b.expr->getRange(),
                 {options.maxExprHeight});
  }
  return b;
}

Expr *ASTBuilder::buildTopExpr(antlr4::ParserRuleContext *ctx) {
  return buildExpr(ctx).expr;
}

ASTBuilder::Built ASTBuilder::buildExpr(antlr4::ParserRuleContext *ctx) {
  switch (ctx->getRuleIndex()) {
  case BlkParser::RuleExpr:
    return buildExpr(static_cast<BlkParser::ExprContext *>(ctx)->orExpr());
  case BlkParser::RuleUnaryExpr:
    return buildUnary(static_cast<BlkParser::UnaryExprContext *>(ctx));
  case BlkParser::RuleCastExpr:
    return buildCast(static_cast<BlkParser::CastExprContext *>(ctx));
  case BlkParser::RulePostfixExpr:
    return buildPostfix(static_cast<BlkParser::PostfixExprContext *>(ctx));
  case BlkParser::RulePrimary:
    return buildPrimary(static_cast<BlkParser::PrimaryContext *>(ctx));
  default:
    return buildBinaryChain(ctx);
  }
}

static BinaryOp binaryOpOf(size_t tokenType) {
  switch (tokenType) {
  case BlkParser::OROR:
    return BinaryOp::LogicalOr;
  case BlkParser::ANDAND:
    return BinaryOp::LogicalAnd;
  case BlkParser::PIPE:
    return BinaryOp::BitOr;
  case BlkParser::CARET:
    return BinaryOp::BitXor;
  case BlkParser::AMP:
    return BinaryOp::BitAnd;
  case BlkParser::EQ:
    return BinaryOp::Eq;
  case BlkParser::NE:
    return BinaryOp::Ne;
  case BlkParser::LT:
    return BinaryOp::Lt;
  case BlkParser::LE:
    return BinaryOp::Le;
  case BlkParser::GT:
    return BinaryOp::Gt;
  case BlkParser::GE:
    return BinaryOp::Ge;
  case BlkParser::SHL:
    return BinaryOp::Shl;
  case BlkParser::SHR:
    return BinaryOp::Shr;
  case BlkParser::PLUS:
    return BinaryOp::Add;
  case BlkParser::MINUS:
    return BinaryOp::Sub;
  case BlkParser::STAR:
    return BinaryOp::Mul;
  case BlkParser::SLASH:
    return BinaryOp::Div;
  default:
    return BinaryOp::Rem;
  }
}

ASTBuilder::Built ASTBuilder::buildBinaryChain(antlr4::ParserRuleContext *ctx) {
  auto &kids = ctx->children;
  Built lhs = buildExpr(static_cast<antlr4::ParserRuleContext *>(kids[0]));
  for (size_t i = 1; i + 1 < kids.size(); i += 2) {
    auto *op = static_cast<antlr4::tree::TerminalNode *>(kids[i]);
    Built rhs =
        buildExpr(static_cast<antlr4::ParserRuleContext *>(kids[i + 1]));
    auto *b = module->create<BinaryExpr>(
        SourceRange::join(lhs.expr->getRange(), rhs.expr->getRange()));
    b->op = binaryOpOf(op->getSymbol()->getType());
    b->opRange = rangeOf(op);
    b->lhs = lhs.expr;
    b->rhs = rhs.expr;
    lhs = checked({b, std::max(lhs.height, rhs.height) + 1});
  }
  return lhs;
}

ASTBuilder::Built ASTBuilder::buildUnary(BlkParser::UnaryExprContext *ctx) {
  auto &kids = ctx->children;
  Built operand = buildCast(ctx->castExpr());
  // kids = op* castExpr; apply the operators innermost (last) first.
  for (size_t i = kids.size() - 1; i-- > 0;) {
    auto *op = static_cast<antlr4::tree::TerminalNode *>(kids[i]);
    auto *u = module->create<UnaryExpr>(
        SourceRange(rangeOf(op).begin, operand.expr->getRange().end));
    size_t type = op->getSymbol()->getType();
    u->op = type == BlkParser::MINUS  ? UnaryOp::Neg
            : type == BlkParser::BANG ? UnaryOp::Not
                                      : UnaryOp::BitNot;
    u->operand = operand.expr;
    operand = checked({u, operand.height + 1});
  }
  return operand;
}

ASTBuilder::Built ASTBuilder::buildCast(BlkParser::CastExprContext *ctx) {
  Built operand = buildPostfix(ctx->postfixExpr());
  for (BlkParser::TypeRefContext *t : ctx->typeRef()) {
    TypeRef *type = buildType(t);
    auto *c = module->create<CastExpr>(
        SourceRange(operand.expr->getRange().begin, type->getRange().end));
    c->operand = operand.expr;
    c->type = type;
    operand = checked({c, operand.height + 1});
  }
  return operand;
}

ASTBuilder::Built ASTBuilder::buildPostfix(BlkParser::PostfixExprContext *ctx) {
  Built cur = buildPrimary(ctx->primary());
  for (BlkParser::PostfixOpContext *op : ctx->postfixOp()) {
    SourceRange range(cur.expr->getRange().begin, rangeOf(op).end);
    unsigned height = cur.height;
    if (auto *call = dynamic_cast<BlkParser::CallOpContext *>(op)) {
      auto *c = module->create<CallExpr>(range);
      c->callee = cur.expr;
      for (BlkParser::CallArgContext *a : call->callArg()) {
        auto *arg = make<Argument>(a);
        if (a->COLON()) {
          arg->name = textOf(a->IDENT());
          arg->nameRange = rangeOf(a->IDENT());
        }
        Built value = buildExpr(a->expr());
        arg->value = value.expr;
        height = std::max(height, value.height);
        c->args.push_back(arg);
      }
      checkArguments(c->args);
      cur = checked({c, height + 1});
    } else if (auto *index = dynamic_cast<BlkParser::IndexOpContext *>(op)) {
      auto *x = module->create<IndexExpr>(range);
      x->base = cur.expr;
      for (BlkParser::IndexItemContext *item : index->indexItem()) {
        if (!item->expr()) {
          x->indices.push_back(make<SliceExpr>(item));
          continue;
        }
        Built value = buildExpr(item->expr());
        height = std::max(height, value.height);
        x->indices.push_back(value.expr);
      }
      cur = checked({x, height + 1});
    } else {
      auto *member = static_cast<BlkParser::MemberOpContext *>(op);
      auto *m = module->create<MemberExpr>(range);
      m->base = cur.expr;
      m->member = textOf(member->IDENT());
      m->memberRange = rangeOf(member->IDENT());
      cur = checked({m, height + 1});
    }
  }
  return cur;
}

ASTBuilder::Built ASTBuilder::buildPrimary(BlkParser::PrimaryContext *ctx) {
  if (auto *tok = ctx->INT()) {
    auto *e = make<IntLiteralExpr>(ctx);
    e->spelling = textOf(tok);
    IntLiteralStatus status = parseIntLiteral(e->spelling, e->value);
    if (status != IntLiteralStatus::Ok) {
      diags.report(status == IntLiteralStatus::TooLarge
                       ? DiagId::lex_int_too_large
                       : DiagId::lex_malformed_number,
                   e->getRange(), {e->spelling});
      failed = true;
    }
    return {e, 1};
  }
  if (auto *tok = ctx->FLOAT()) {
    auto *e = make<FloatLiteralExpr>(ctx);
    e->spelling = textOf(tok);
    if (!parseFloatLiteral(e->spelling, e->value)) {
      diags.report(DiagId::lex_malformed_number, e->getRange(), {e->spelling});
      failed = true;
    }
    return {e, 1};
  }
  if (auto *tok = ctx->STRING())
    return {buildString(tok), 1};
  if (ctx->TRUE() || ctx->FALSE()) {
    auto *e = make<BoolLiteralExpr>(ctx);
    e->value = ctx->TRUE() != nullptr;
    return {e, 1};
  }
  if (ctx->NONE())
    return {make<NoneLiteralExpr>(ctx), 1};
  if (auto *tok = ctx->IDENT()) {
    auto *e = make<NameExpr>(ctx);
    e->name = textOf(tok);
    return {e, 1};
  }
  if (ctx->LPAREN())
    return buildExpr(ctx->expr(0));
  auto *list = make<ListExpr>(ctx);
  unsigned height = 0;
  for (BlkParser::ExprContext *e : ctx->expr()) {
    Built b = buildExpr(e);
    height = std::max(height, b.height);
    list->elements.push_back(b.expr);
  }
  return checked({list, height + 1});
}

StringLiteralExpr *ASTBuilder::buildString(antlr4::tree::TerminalNode *token) {
  SourceRange r = rangeOf(token);
  auto *e = module->create<StringLiteralExpr>(r);
  std::string_view body = text.substr(r.begin.offset + 1, r.length() - 2);
  size_t bad = 0;
  if (!decodeStringLiteral(body, e->value, bad)) {
    uint32_t at = r.begin.offset + 1 + static_cast<uint32_t>(bad);
    std::string escape(body.substr(bad, 2));
    diags.report(DiagId::lex_invalid_escape, SourceRange(file, at, 2),
                 {escape});
    failed = true;
  }
  return e;
}

TypeRef *ASTBuilder::buildType(BlkParser::TypeRefContext *ctx) {
  auto *t = make<TypeRef>(ctx);
  t->isPointer = ctx->STAR() != nullptr;
  t->elementName = textOf(ctx->IDENT());
  t->elementRange = rangeOf(ctx->IDENT());
  for (BlkParser::ExprContext *e : ctx->expr())
    t->dims.push_back(buildTopExpr(e));
  return t;
}

void ASTBuilder::checkArguments(const std::vector<Argument *> &args) {
  const Argument *firstNamed = nullptr;
  for (size_t i = 0; i < args.size(); ++i) {
    const Argument *a = args[i];
    if (!a->isNamed()) {
      if (firstNamed) {
        diags.report(DiagId::parse_positional_after_named, a->getRange(),
                     {firstNamed->name});
        failed = true;
        return;
      }
      continue;
    }
    if (!firstNamed)
      firstNamed = a;
    for (size_t j = 0; j < i; ++j) {
      if (args[j]->name != a->name)
        continue;
      diags.report(DiagId::parse_duplicate_named_arg, a->nameRange, {a->name})
          .note(DiagId::note_previous_here, args[j]->nameRange, {a->name});
      failed = true;
      return;
    }
  }
}
