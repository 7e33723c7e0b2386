//===- ASTBuilder.h - ANTLR parse tree to blk AST --------------*- C++ -*-===//
//
// Private to the parser library. Runs only on a parse tree without syntax
// errors. Checks what the grammar cannot: literal values, assignment
// targets, duplicate named arguments and the height of expression trees
// (so that later recursive passes stay within the stack). Every check that
// fails reports a diagnostic and marks the build as failed.
//
// Implemented in BuildDecl.cpp (declarations, statements) and BuildExpr.cpp
// (expressions, types, arguments).
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LIB_PARSE_ASTBUILDER_H
#define BLK_LIB_PARSE_ASTBUILDER_H

#include "blk/AST/AST.h"
#include "blk/Parse/Parser.h"
#include "blk/Support/Diagnostic.h"

#include "BlkParser.h"

#include <memory>

namespace blk::parse {

namespace g = blk_antlr;

class ASTBuilder {
public:
  ASTBuilder(FileId file, std::string_view text, DiagnosticEngine &diags,
             const ParseOptions &options)
      : file(file), text(text), diags(diags), options(options) {}

  /// Builds the module; nullptr if a check failed.
  std::unique_ptr<ast::Module> build(g::BlkParser::UnitContext *unit);
  /// For a parse with syntax errors: the declarations without any, and the
  /// names of the others in Module::brokenNames.
  std::unique_ptr<ast::Module> buildValidDecls(g::BlkParser::UnitContext *unit);

private:
  /// An expression with the height of its tree.
  struct Built {
    ast::Expr *expr = nullptr;
    unsigned height = 0;
  };

  // BuildDecl.cpp
  ast::Decl *buildDecl(g::BlkParser::DeclContext *ctx);
  ast::ImportDecl *buildImport(g::BlkParser::ImportDeclContext *ctx);
  ast::ConstDecl *buildConst(g::BlkParser::ConstDeclContext *ctx);
  ast::FunctionDecl *buildFunction(g::BlkParser::FunctionDeclContext *ctx);
  ast::Attribute *buildAttribute(g::BlkParser::AttributeContext *ctx);
  ast::Param *buildParam(g::BlkParser::ParamContext *ctx);
  ast::BlockStmt *buildBlock(g::BlkParser::BlockContext *ctx);
  ast::Stmt *buildStmt(g::BlkParser::StmtContext *ctx);
  ast::Stmt *buildLet(g::BlkParser::LetStmtContext *ctx);
  ast::Stmt *buildIf(g::BlkParser::IfStmtContext *ctx);
  ast::Stmt *buildExprOrAssign(g::BlkParser::ExprOrAssignStmtContext *ctx);
  ast::Stmt *buildStaticAssert(g::BlkParser::StaticAssertStmtContext *ctx);

  // BuildExpr.cpp
  ast::Expr *buildTopExpr(antlr4::ParserRuleContext *ctx);
  Built buildExpr(antlr4::ParserRuleContext *ctx);
  Built buildBinaryChain(antlr4::ParserRuleContext *ctx);
  Built buildUnary(g::BlkParser::UnaryExprContext *ctx);
  Built buildCast(g::BlkParser::CastExprContext *ctx);
  Built buildPostfix(g::BlkParser::PostfixExprContext *ctx);
  Built buildPrimary(g::BlkParser::PrimaryContext *ctx);
  ast::StringLiteralExpr *buildString(antlr4::tree::TerminalNode *token);
  ast::TypeRef *buildType(g::BlkParser::TypeRefContext *ctx);
  /// Checks that named arguments are unique and follow the positional ones.
  void checkArguments(const std::vector<ast::Argument *> &args);
  Built checked(Built b);

  SourceRange rangeOf(antlr4::ParserRuleContext *ctx) const;
  SourceRange rangeOf(antlr4::tree::TerminalNode *node) const;
  SourceRange rangeOf(antlr4::Token *token) const;
  std::string textOf(antlr4::tree::TerminalNode *node) const;
  template <typename T, typename Ctx> T *make(Ctx *ctx) {
    return module->create<T>(rangeOf(ctx));
  }

  FileId file;
  std::string_view text;
  DiagnosticEngine &diags;
  const ParseOptions &options;
  std::unique_ptr<ast::Module> module;
  bool failed = false;
  bool reportedTooComplex = false;
};

} // namespace blk::parse

#endif // BLK_LIB_PARSE_ASTBUILDER_H
