//===- DiagnosticRenderer.h - Text and JSON output of diagnostics -*- C++
//-*-===//
//
// Text (default, GCC-compatible first line):
//   path:line:col: error: message
//       3 |     let x = foo(;
//         |                 ^
//   path:line:col: note: …
// Carets (`^~~~`) underline the whole primary range (to the end of its first
// line), `~~~` underlines labelled secondary ranges with their message, and
// a fix-it shows its replacement text under the range.
//
// JSON: one array; each element has "id", "severity", "message", "file",
// "line", "column", "endLine", "endColumn" (1-based, end exclusive), and
// arrays "labels", "notes", "fixits" with the same location fields.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_SUPPORT_DIAGNOSTICRENDERER_H
#define BLK_SUPPORT_DIAGNOSTICRENDERER_H

#include "blk/Support/Diagnostic.h"

#include <ostream>
#include <string>
#include <vector>

namespace blk {

class SourceManager;

/// Prints one diagnostic (with its snippets and notes) as text.
void renderText(const Diagnostic &diag, const SourceManager &sm,
                std::ostream &os);
/// Prints all of `diags` as text, in order.
void renderText(const std::vector<Diagnostic> &diags, const SourceManager &sm,
                std::ostream &os);
/// Returns `diags` as one JSON array (no trailing newline).
std::string renderJson(const std::vector<Diagnostic> &diags,
                       const SourceManager &sm);

} // namespace blk

#endif // BLK_SUPPORT_DIAGNOSTICRENDERER_H
