//===- DiagnosticRenderer.h - Text and JSON output of diagnostics -*- C++ -*-===//
//
// Text (default, GCC-compatible first line):
//   path:line:col: error: message
//       3 |     let x = foo(;
//         |                 ^
//   path:line:col: note: …
// Carets (`^~~~`) underline the whole primary range (to the end of its first
// line), `~~~` underlines labelled secondary ranges with their message
// under them (on a row of their own when they lie inside the primary
// range), and a fix-it shows its replacement text under the range. With
// TextStyle::color, ANSI colours as clang uses them (bold location and
// message, red error, magenta warning, cyan note, green carets and fix-its,
// blue labels).
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

/// How text is rendered.
struct TextStyle {
  /// ANSI colour escapes (`--color`; off for files, pipes and NO_COLOR).
  bool color = false;
};

/// `--color=auto|always|never`.
enum class ColorMode { Auto, Always, Never };

/// Whether to colour a stream: `always` and `never` decide alone; `auto`
/// colours a terminal unless `noColor` (the NO_COLOR variable, nullptr when
/// unset) is non-empty, as https://no-color.org asks.
bool shouldColor(ColorMode mode, bool isTerminal, const char *noColor);

/// Prints one diagnostic (with its snippets and notes) as text.
void renderText(const Diagnostic &diag, const SourceManager &sm,
                std::ostream &os, const TextStyle &style = {});
/// Prints all of `diags` as text, in order.
void renderText(const std::vector<Diagnostic> &diags, const SourceManager &sm,
                std::ostream &os, const TextStyle &style = {});
/// Returns `diags` as one JSON array (no trailing newline).
std::string renderJson(const std::vector<Diagnostic> &diags,
                       const SourceManager &sm);

} // namespace blk

#endif // BLK_SUPPORT_DIAGNOSTICRENDERER_H
