//===- Features.h - LSP requests answered from an Analysis -----*- C++ -*-===//
//
// Each function turns one Analysis (and a cursor byte offset into the
// document) into the JSON result of one LSP request. They only read the
// analysis; the Server owns documents and the protocol. Results use LSP
// 0-based lines and UTF-16 columns.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_LSP_FEATURES_H
#define BLK_LSP_FEATURES_H

#include "blk/Lsp/Analysis.h"

#include <nlohmann/json.hpp>

#include <string>

namespace blk::lsp {

/// LSP Range of `range` (which may lie in an imported file).
nlohmann::json toLspRange(const Analysis &analysis, SourceRange range);
/// LSP Location (uri + range) of `range`.
nlohmann::json toLspLocation(const Analysis &analysis, SourceRange range);

/// `Diagnostic[]` for publishDiagnostics: every diagnostic of the check,
/// code = stable id, notes and labels as relatedInformation. Diagnostics in
/// imported files are shown on the document's first `import`.
nlohmann::json lspDiagnostics(const Analysis &analysis);
/// The LSP Diagnostic of one diagnostic of `analysis`.
nlohmann::json lspDiagnostic(const Analysis &analysis,
                             const Diagnostic &diag);

/// `Hover | null`: type and block shape of the name or expression at
/// `offset` per specialisation, or a built-in's signature and doc.
nlohmann::json hoverAt(const Analysis &analysis, uint32_t offset);

/// `Location | null`: where the name at `offset` is declared.
nlohmann::json definitionAt(const Analysis &analysis, uint32_t offset);

/// `DocumentSymbol[]`: kernels, fns and module-level consts.
nlohmann::json documentSymbols(const Analysis &analysis);

/// `CompletionItem[]` at `offset` of `text` (the current buffer):
/// keywords, types, built-ins (with signatures), attributes after `@`,
/// names in scope, and the members of an imported module after `module.`.
/// `analysis` (may be null) may be an older version of the text (the last
/// one that parsed); `analysedOffset` is the cursor in its text.
nlohmann::json completionAt(const Analysis *analysis, std::string_view text,
                            uint32_t offset, uint32_t analysedOffset);

/// `InlayHint[]` for the declarations whose name ends in [begin, end]:
/// the type and block shape of each unannotated `let` / `var`.
nlohmann::json inlayHints(const Analysis &analysis, uint32_t begin,
                          uint32_t end);

/// `SignatureHelp | null` for the call open at `offset` of `text` (the
/// current buffer): a built-in's signature, or a `fn`'s from `current` or
/// `lastGood` (either may be null), with the active parameter.
nlohmann::json signatureHelpAt(const Analysis *current,
                               const Analysis *lastGood, std::string_view text,
                               uint32_t offset);

/// `Location[]`: the names of the document that refer to the declaration
/// named at `offset` (and the declaration itself when asked, first when it
/// is in another file).
nlohmann::json referencesAt(const Analysis &analysis, uint32_t offset,
                            bool includeDeclaration);

/// `{range, placeholder}` of the name at `offset` when it can be renamed;
/// else null and `error` says why.
nlohmann::json prepareRenameAt(const Analysis &analysis, uint32_t offset,
                               std::string &error);

/// `WorkspaceEdit` renaming the declaration named at `offset` and every
/// reference to it in the document; null and `error` when it cannot.
nlohmann::json renameAt(const Analysis &analysis, uint32_t offset,
                        const std::string &newName, std::string &error);

/// `CodeAction[]`: one quick fix per diagnostic of the document with
/// fix-its whose range meets [begin, end] (its fix-its as the edit).
nlohmann::json codeActions(const Analysis &analysis, uint32_t begin,
                           uint32_t end);

/// The legend `initialize` advertises for semanticTokens.
nlohmann::json semanticTokensLegend();
/// `SemanticTokens` of the document's names (declaration or use: import,
/// type, parameter, variable, fn, attribute, keyword argument).
nlohmann::json semanticTokens(const Analysis &analysis);

/// `TextEdit[]` that put the document in blkc fmt's layout (empty when it
/// is); null with `error` when the document has syntax errors.
nlohmann::json formattingEdits(const Analysis &analysis, std::string &error);

} // namespace blk::lsp

#endif // BLK_LSP_FEATURES_H
