//===- Navigation.cpp - textDocument/definition and documentSymbol --------===//
//
// Definition uses Sema's name bindings when the cursor is in analysed code
// (this also finds `fn`s and consts of imported modules), and falls back to
// syntactic scopes elsewhere (an uncalled generic `fn`, a module that did
// not pass Sema). Document symbols list kernels, fns and module consts.
// Tests: tests/lit/lsp/lsp_e2e.py.
//
//===----------------------------------------------------------------------===//

#include "AstQuery.h"
#include "blk/Lsp/Features.h"

namespace blk::lsp {

using namespace blk::ast;
using nlohmann::json;

/// The file of the module an `import` names, found among Sema's modules.
static SourceRange importedModuleRange(const Analysis &analysis,
                                       const ImportDecl *imp) {
  const Module *m = importedModule(analysis, imp);
  return m ? SourceRange(m->file, 0, 0) : SourceRange();
}

static json locationOf(const Analysis &analysis,
                       const sema::NameBinding &binding) {
  if (auto *imp = dyn_cast_or_null<ImportDecl>(binding.decl)) {
    SourceRange target = importedModuleRange(analysis, imp);
    return toLspLocation(analysis, target.isValid() ? target : imp->getRange());
  }
  SourceRange range = bindingDeclRange(binding);
  if (!range.isValid())
    return nullptr;
  return toLspLocation(analysis, range);
}

json definitionAt(const Analysis &analysis, uint32_t offset) {
  if (!analysis.module)
    return nullptr;
  if (auto decl = declNameAt(*analysis.module, offset)) {
    if (auto *imp = dyn_cast<ImportDecl>(decl->node)) {
      SourceRange target = importedModuleRange(analysis, imp);
      if (target.isValid())
        return toLspLocation(analysis, target);
    }
    return toLspLocation(analysis, decl->nameRange);
  }
  if (analysis.sema) {
    std::vector<sema::SemaResult::HoverEntry> entries;
    if (const Expr *expr =
            analysis.sema->exprAt(*analysis.module, offset, &entries)) {
      // `math.gelu`: the member names the fn when the cursor is on it.
      for (const auto &e : entries) {
        const sema::NameBinding *b =
            e.instance ? e.instance->binding(expr) : nullptr;
        if (b && b->decl) {
          if (auto *member = dyn_cast<MemberExpr>(expr);
              member && offset < member->memberRange.begin.offset &&
              member->base) {
            // Cursor on the module part: go to the import.
            if (const auto *baseBinding = e.instance->binding(member->base))
              return locationOf(analysis, *baseBinding);
          }
          return locationOf(analysis, *b);
        }
      }
    }
  }
  std::string_view word = identifierAt(analysis.text(), offset);
  if (word.empty())
    return nullptr;
  std::vector<DeclRef> scope = visibleDecls(*analysis.module, offset);
  for (auto it = scope.rbegin(); it != scope.rend(); ++it)
    if (it->name == word)
      return toLspLocation(analysis, it->nameRange);
  return nullptr;
}

/// LSP SymbolKind values used here.
enum SymbolKind { kFunction = 12, kVariable = 13, kConstant = 14 };

json documentSymbols(const Analysis &analysis) {
  json out = json::array();
  if (!analysis.module)
    return out;
  for (const Decl *d : analysis.module->decls) {
    if (auto *fn = dyn_cast<FunctionDecl>(d)) {
      json children = json::array();
      for (const Param *p : fn->params)
        children.push_back(
            {{"name", p->name},
             {"detail", p->isConst ? "const param" : "param"},
             {"kind", p->isConst ? kConstant : kVariable},
             {"range", toLspRange(analysis, p->getRange())},
             {"selectionRange", toLspRange(analysis, p->nameRange)}});
      out.push_back({{"name", fn->name},
                     {"detail", fn->isKernel ? "kernel" : "fn"},
                     {"kind", kFunction},
                     {"range", toLspRange(analysis, fn->getRange())},
                     {"selectionRange", toLspRange(analysis, fn->nameRange)},
                     {"children", std::move(children)}});
    } else if (auto *c = dyn_cast<ConstDecl>(d)) {
      out.push_back({{"name", c->name},
                     {"detail", "const"},
                     {"kind", kConstant},
                     {"range", toLspRange(analysis, c->getRange())},
                     {"selectionRange", toLspRange(analysis, c->nameRange)}});
    }
  }
  return out;
}

} // namespace blk::lsp
