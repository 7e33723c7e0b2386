//===- ParserTest.cpp - Source to AST: shapes, precedence, ranges ---------===//
#include "blk/Parse/Parser.h"
#include "blk/AST/ASTDumper.h"
#include "blk/Support/SourceManager.h"

#include <gtest/gtest.h>

#include <sstream>

using namespace blk;
using namespace blk::ast;

namespace {

struct Parsed {
  SourceManager sm;
  DiagnosticEngine diags{sm};
  FileId file = 0;
  std::unique_ptr<Module> module;
};

std::unique_ptr<Parsed> parse(const std::string &text,
                              ParseOptions options = {}) {
  auto p = std::make_unique<Parsed>();
  p->file = p->sm.addBuffer("t.blk", text);
  p->module = parseModule(p->file, p->diags, options);
  return p;
}

/// The init expression of the first statement of the first function.
const Expr *firstInit(const Module &m) {
  auto *f = cast<FunctionDecl>(m.decls.at(0));
  return cast<LetStmt>(f->body->stmts.at(0))->init;
}

/// Fully parenthesised rendering of an expression, to check precedence.
std::string paren(const Expr *e) {
  if (auto *b = dyn_cast<BinaryExpr>(e))
    return "(" + paren(b->lhs) + " " + std::string(spelling(b->op)) + " " +
           paren(b->rhs) + ")";
  if (auto *u = dyn_cast<UnaryExpr>(e))
    return "(" + std::string(spelling(u->op)) + paren(u->operand) + ")";
  if (auto *c = dyn_cast<CastExpr>(e))
    return "(" + paren(c->operand) + " as " + c->type->elementName + ")";
  if (auto *n = dyn_cast<NameExpr>(e))
    return n->name;
  if (auto *i = dyn_cast<IntLiteralExpr>(e))
    return std::to_string(i->value);
  if (auto *c = dyn_cast<CallExpr>(e))
    return paren(c->callee) + "(…)";
  return "?";
}

std::string exprOf(const std::string &expr) {
  auto p = parse("fn f() { let x = " + expr + "; }");
  EXPECT_TRUE(p->module) << expr;
  return p->module ? paren(firstInit(*p->module)) : "";
}

} // namespace

TEST(Parser, PrecedenceFollowsTheLanguageTable) {
  EXPECT_EQ(exprOf("a || b && c"), "(a || (b && c))");
  EXPECT_EQ(exprOf("a && b | c"), "(a && (b | c))");
  EXPECT_EQ(exprOf("a | b ^ c & d"), "(a | (b ^ (c & d)))");
  EXPECT_EQ(exprOf("a & b == c"), "(a & (b == c))");
  EXPECT_EQ(exprOf("a == b < c"), "(a == (b < c))");
  EXPECT_EQ(exprOf("a < b << c"), "(a < (b << c))");
  EXPECT_EQ(exprOf("a << b + c"), "(a << (b + c))");
  EXPECT_EQ(exprOf("a + b * c"), "(a + (b * c))");
  EXPECT_EQ(exprOf("a - b - c"), "((a - b) - c)");
  EXPECT_EQ(exprOf("a / b % c"), "((a / b) % c)");
  EXPECT_EQ(exprOf("-a * b"), "((-a) * b)");
  EXPECT_EQ(exprOf("-a as f16"), "(-(a as f16))");
  EXPECT_EQ(exprOf("!~a"), "(!(~a))");
  EXPECT_EQ(exprOf("(a + b) * c"), "((a + b) * c)");
  EXPECT_EQ(exprOf("f(a) + 1"), "(f(…) + 1)");
}

TEST(Parser, KernelWithAttributesHintsAndConstParams) {
  auto p = parse("@config(BLOCK = 128, num_warps = 4)\n@autotune(key = "
                 "[n])\n@grid(cdiv(n, BLOCK), 1)\n"
                 "kernel k(x: *f32 @aligned(16), n: i32 @multiple_of(16), "
                 "const BLOCK: i32) {}\n");
  ASSERT_TRUE(p->module);
  auto *k = cast<FunctionDecl>(p->module->decls.at(0));
  EXPECT_TRUE(k->isKernel);
  EXPECT_EQ(k->name, "k");
  ASSERT_EQ(k->attributes.size(), 3u);
  EXPECT_EQ(k->attributes[0]->name, "config");
  EXPECT_EQ(k->attributes[0]->args[1]->name, "num_warps");
  EXPECT_EQ(cast<IntLiteralExpr>(k->attributes[0]->args[1]->value)->value, 4u);
  EXPECT_TRUE(isa<ListExpr>(k->attributes[1]->args[0]->value));
  EXPECT_FALSE(k->attributes[2]->args[0]->isNamed());
  EXPECT_EQ(k->attributes[2]->args.size(), 2u);
  ASSERT_EQ(k->params.size(), 3u);
  EXPECT_TRUE(k->params[0]->type->isPointer);
  EXPECT_EQ(k->params[0]->type->elementName, "f32");
  EXPECT_EQ(k->params[0]->hints[0]->name, "aligned");
  EXPECT_EQ(k->params[1]->hints[0]->name, "multiple_of");
  EXPECT_TRUE(k->params[2]->isConst);
  EXPECT_EQ(p->sm.getLineCol(k->getBegin()).line, 1u);
}

TEST(Parser, FnWithBlockTypesAndImports) {
  auto p =
      parse("import std.math;\nimport mylib.act as act;\nconst LOG2E = 1.5;\n"
            "fn scale(x: f32[N], s: f32) -> f32[N] { return x * s; }\nfn "
            "relu(x) { return x; }\n");
  ASSERT_TRUE(p->module);
  ASSERT_EQ(p->module->decls.size(), 5u);
  auto *i0 = cast<ImportDecl>(p->module->decls[0]);
  EXPECT_EQ(i0->dottedName(), "std.math");
  EXPECT_EQ(i0->bindingName(), "math");
  auto *i1 = cast<ImportDecl>(p->module->decls[1]);
  EXPECT_EQ(i1->bindingName(), "act");
  EXPECT_EQ(cast<ConstDecl>(p->module->decls[2])->name, "LOG2E");
  auto *scale = cast<FunctionDecl>(p->module->decls[3]);
  EXPECT_FALSE(scale->isKernel);
  ASSERT_TRUE(scale->returnType);
  ASSERT_EQ(scale->params[0]->type->dims.size(), 1u);
  EXPECT_EQ(cast<NameExpr>(scale->params[0]->type->dims[0])->name, "N");
  EXPECT_EQ(cast<FunctionDecl>(p->module->decls[4])->params[0]->type, nullptr);
}

TEST(Parser, StatementsAndCompoundAssignment) {
  auto p = parse(
      "kernel k(n: i32) {\n var a = 0;\n a <<= 2;\n a %= 3;\n const H = 4 / "
      "2;\n"
      " for i in range(0, n) { if i == 0 { continue; } else if i == 1 { break; "
      "} else { } }\n"
      " while a < n { a += 1; }\n static_assert(H >= 2, \"H\\tsmall\");\n}\n");
  ASSERT_TRUE(p->module);
  auto *body = cast<FunctionDecl>(p->module->decls[0])->body;
  ASSERT_EQ(body->stmts.size(), 7u);
  EXPECT_EQ(cast<LetStmt>(body->stmts[0])->binding, BindingKind::Var);
  EXPECT_EQ(cast<AssignStmt>(body->stmts[1])->op, AssignOp::Shl);
  EXPECT_EQ(cast<AssignStmt>(body->stmts[2])->op, AssignOp::Rem);
  EXPECT_EQ(cast<LetStmt>(body->stmts[3])->binding, BindingKind::Const);
  auto *loop = cast<ForStmt>(body->stmts[4]);
  EXPECT_EQ(loop->var, "i");
  auto *branch = cast<IfStmt>(loop->body->stmts[0]);
  auto *elseIf = cast<IfStmt>(branch->elseStmt);
  EXPECT_TRUE(isa<BlockStmt>(elseIf->elseStmt));
  EXPECT_TRUE(isa<BreakStmt>(elseIf->thenBlock->stmts[0]));
  EXPECT_TRUE(isa<WhileStmt>(body->stmts[5]));
  auto *sa = cast<StaticAssertStmt>(body->stmts[6]);
  EXPECT_EQ(sa->message->value, "H\tsmall");
}

TEST(Parser, IndexNamedArgsAndRanges) {
  auto p = parse(
      "fn f(x, m) {\n  let y = load(x[:, None], mask: m, other: 0.0);\n}\n");
  ASSERT_TRUE(p->module);
  auto *call = cast<CallExpr>(firstInit(*p->module));
  ASSERT_EQ(call->args.size(), 3u);
  auto *index = cast<IndexExpr>(call->args[0]->value);
  EXPECT_TRUE(isa<SliceExpr>(index->indices[0]));
  EXPECT_TRUE(isa<NoneLiteralExpr>(index->indices[1]));
  EXPECT_EQ(call->args[1]->name, "mask");
  EXPECT_EQ(call->args[2]->name, "other");
  LineCol b = p->sm.getLineCol(call->getRange().begin);
  LineCol e = p->sm.getLineCol(call->getRange().end);
  EXPECT_EQ(b.line, 2u);
  EXPECT_EQ(b.col, 11u);
  EXPECT_EQ(e.col, 48u);
  LineCol n = p->sm.getLineCol(call->args[1]->nameRange.begin);
  EXPECT_EQ(n.col, 28u);
}

TEST(Parser, EveryNodeHasARangeInsideItsParent) {
  auto p = parse("@config(B = 16)\nkernel k(x: *f32, const B: i32) {\n"
                 "  let o = arange(0, B);\n  store(x + o, -load(x + o) as f32 "
                 "* 2.0);\n}\n");
  ASSERT_TRUE(p->module);
  std::function<void(const Node *, SourceRange)> check =
      [&](const Node *n, SourceRange outer) {
        SourceRange r = n->getRange();
        EXPECT_TRUE(r.isValid()) << kindName(n->getKind());
        EXPECT_LE(outer.begin.offset, r.begin.offset) << kindName(n->getKind());
        EXPECT_LE(r.end.offset, outer.end.offset) << kindName(n->getKind());
        forEachChild(n, [&](const Node *c) { check(c, r); });
      };
  check(p->module.get(), p->module->getRange());
  std::ostringstream os;
  dumpAST(*p->module, p->sm, os);
  EXPECT_NE(os.str().find("unary '-' <t.blk:4:16-4:35>"), std::string::npos)
      << os.str();
}

TEST(Parser, EmptyAndCommentOnlyFilesAreValid) {
  auto p = parse("");
  ASSERT_TRUE(p->module);
  EXPECT_TRUE(p->module->decls.empty());
  p = parse("// nothing\n/* here */\n");
  ASSERT_TRUE(p->module);
  EXPECT_FALSE(p->diags.hasErrors());
}
