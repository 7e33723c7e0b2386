//===- AstQuery.h - Cursor queries over the AST and Sema facts --*- C++ -*-===//
//
// Shared by hover, definition and completion: the declaration whose name is
// under a cursor, the names visible at a cursor (syntactic scopes, so it
// also works inside a generic `fn` that no call instantiated), the
// identifier under a cursor, and every analysed function instance with a
// label naming its specialisation.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LIB_LSP_ASTQUERY_H
#define BLK_LIB_LSP_ASTQUERY_H

#include "blk/AST/AST.h"
#include "blk/Lsp/Analysis.h"
#include "blk/Sema/Sema.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace blk::lsp {

/// A declared name.
struct DeclRef {
  enum class Kind {
    Local,
    Param,
    LoopVar,
    GlobalConst,
    Function,
    Kernel,
    Import
  };
  Kind kind = Kind::Local;
  std::string name;
  const ast::Node *node =
      nullptr; ///< LetStmt, Param, ForStmt, ConstDecl, FunctionDecl, ImportDecl
  SourceRange nameRange;
  bool isMutable = false; ///< `var`
};

/// The declaration whose name token contains `offset`.
std::optional<DeclRef> declNameAt(const ast::Module &module, uint32_t offset);

/// Names visible at `offset`, outermost first (a later entry shadows an
/// earlier one of the same name): module-level declarations, then the
/// enclosing function's params, loop variables and earlier `let`s.
std::vector<DeclRef> visibleDecls(const ast::Module &module, uint32_t offset);

/// The identifier `[A-Za-z_][A-Za-z0-9_]*` touching `offset` (the cursor may
/// sit just after it), with its byte range; empty if none.
std::string_view identifierAt(std::string_view text, uint32_t offset,
                              uint32_t *begin = nullptr);

/// A function instance and the specialisation it belongs to.
struct InstanceRef {
  const sema::Specialization *spec = nullptr; ///< nullptr for module globals
  const sema::FunctionInstance *instance = nullptr;
};

/// Every kernel body of every specialisation and, recursively, every `fn`
/// instance they call; then the module globals.
std::vector<InstanceRef> allInstances(const sema::SemaResult &sema);

/// One specialisation's view of a declaration or expression: the config's
/// label and the type text there.
struct Fact {
  std::string label;
  std::string type;
};

/// `i32[1024]`, or `i32 = 1024` for a known constant.
std::string typeText(const sema::Type &type,
                     const std::optional<sema::ConstValue> &value);

/// The type of the variable that `decl` (LetStmt, Param, ForStmt,
/// ConstDecl) declares, in every analysed instance that has it.
std::vector<Fact> declFacts(const sema::SemaResult &sema,
                            const ast::Node *decl);

/// `BLOCK=1024` (const params of the spec), or its label when it has none.
std::string configLabel(const sema::Specialization *spec);

/// The module `imp` loaded (found among Sema's modules by its path), or
/// nullptr when it was not loaded.
const ast::Module *importedModule(const Analysis &analysis,
                                  const ast::ImportDecl *imp);
/// The module the document imports as `alias` (`import std.math as m;`
/// binds `m`), or nullptr.
const ast::Module *importedModule(const Analysis &analysis,
                                  std::string_view alias);

/// Declaration range of a Sema binding, or an invalid range.
SourceRange bindingDeclRange(const sema::NameBinding &binding);

} // namespace blk::lsp

#endif // BLK_LIB_LSP_ASTQUERY_H
