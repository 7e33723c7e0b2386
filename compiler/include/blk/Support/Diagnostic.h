//===- Diagnostic.h - Diagnostics and the DiagnosticEngine -----*- C++ -*-===//
//
// Every user-facing message of the compiler is a Diagnostic: a kind from
// DiagnosticKinds.def (stable id, severity, format), a primary range,
// labelled secondary ranges, notes and fix-its. A DiagnosticEngine (one per
// compilation, no global state) collects them, applies -Werror and the error
// limit; renderers (DiagnosticRenderer.h) print them as text or JSON.
//
// Usage:
//   diags.report(DiagId::parse_expected, range, "`;`", "`}`")
//       .label(otherRange, "declared here")
//       .note(DiagId::note_previous_here, prevRange, "x")
//       .fixIt(insertAt, ";");
// The diagnostic is emitted when the returned InFlightDiagnostic dies.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_SUPPORT_DIAGNOSTIC_H
#define BLK_SUPPORT_DIAGNOSTIC_H

#include "blk/Support/SourceLocation.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace blk {

class SourceManager;

enum class Severity : uint8_t { Note, Warning, Error };

/// "note", "warning", "error".
std::string_view severityName(Severity severity);

/// One enumerator per row of DiagnosticKinds.def.
enum class DiagId : uint16_t {
#define DIAG(ID, SEVERITY, FORMAT) ID,
#include "blk/Support/DiagnosticKinds.def"
#undef DIAG
  NumDiagIds
};

/// The stable id ("parse_expected"), default severity and format of a kind.
std::string_view diagIdName(DiagId id);
Severity diagDefaultSeverity(DiagId id);
std::string_view diagFormat(DiagId id);
/// Replaces {0}, {1}, … in `format` by `args`; `{{` and `}}` are literal
/// braces. Missing arguments become empty strings.
std::string formatDiagnostic(std::string_view format,
                             const std::vector<std::string> &args);

/// A secondary range with its explanation.
struct DiagnosticLabel {
  SourceRange range;
  std::string message;
};

/// Replace `range` by `replacement` (an insertion when the range is empty).
struct FixIt {
  SourceRange range;
  std::string replacement;
};

/// A note attached to a diagnostic; `range` may be invalid (no location,
/// e.g. a value that came from `-D`).
struct DiagnosticNote {
  DiagId id;
  std::string message;
  SourceRange range;
};

/// One emitted diagnostic.
struct Diagnostic {
  DiagId id = DiagId::NumDiagIds;
  Severity severity = Severity::Error;
  std::string message;
  SourceRange range; ///< primary range; invalid for file-less diagnostics
  std::vector<DiagnosticLabel> labels;
  std::vector<DiagnosticNote> notes;
  std::vector<FixIt> fixIts;
};

/// An argument of a diagnostic format: anything printable as text.
class DiagArg {
public:
  DiagArg(std::string s) : text(std::move(s)) {}
  DiagArg(std::string_view s) : text(s) {}
  DiagArg(const char *s) : text(s) {}
  template <typename T, typename = std::enable_if_t<std::is_arithmetic_v<T>>>
  DiagArg(T v) : text(std::to_string(v)) {}
  std::string text;
};

class DiagnosticEngine;

/// A diagnostic under construction; emitted by its destructor.
class InFlightDiagnostic {
public:
  InFlightDiagnostic(DiagnosticEngine *engine, Diagnostic diag)
      : engine(engine), diag(std::move(diag)) {}
  InFlightDiagnostic(InFlightDiagnostic &&other) noexcept
      : engine(other.engine), diag(std::move(other.diag)) {
    other.engine = nullptr;
  }
  InFlightDiagnostic(const InFlightDiagnostic &) = delete;
  InFlightDiagnostic &operator=(const InFlightDiagnostic &) = delete;
  ~InFlightDiagnostic();

  /// Adds a labelled secondary range.
  InFlightDiagnostic &label(SourceRange range, std::string message);
  /// Adds a note of kind `id` (a Note kind) at `range` (may be invalid).
  InFlightDiagnostic &note(DiagId id, SourceRange range,
                           std::vector<DiagArg> args = {});
  /// Adds a fix-it.
  InFlightDiagnostic &fixIt(SourceRange range, std::string replacement);

private:
  DiagnosticEngine *engine; // nullptr once moved from or dropped
  Diagnostic diag;
};

/// Collects the diagnostics of one compilation.
class DiagnosticEngine {
public:
  explicit DiagnosticEngine(const SourceManager &sm) : sm(sm) {}

  const SourceManager &getSourceManager() const { return sm; }

  /// Stop accepting errors after `n` of them (0 = no limit). Default 20.
  void setMaxErrors(unsigned n) { maxErrors = n; }
  unsigned getMaxErrors() const { return maxErrors; }
  /// -Werror: warnings are emitted as errors.
  void setWarningsAsErrors(bool on) { warningsAsErrors = on; }

  /// Starts a diagnostic of kind `id` at `range` with format arguments.
  InFlightDiagnostic report(DiagId id, SourceRange range,
                            std::vector<DiagArg> args = {});

  /// Emits a finished diagnostic (applies -Werror and the error limit).
  void emit(Diagnostic diag);

  unsigned getErrorCount() const { return errorCount; }
  unsigned getWarningCount() const { return warningCount; }
  bool hasErrors() const { return errorCount != 0; }
  /// True once the error limit was hit: further errors are dropped, so
  /// callers may stop early.
  bool limitReached() const { return limitHit; }

  /// Everything emitted so far, in order.
  const std::vector<Diagnostic> &getDiagnostics() const { return diagnostics; }
  /// Forgets everything emitted (counts included).
  void clear();

private:
  const SourceManager &sm;
  std::vector<Diagnostic> diagnostics;
  unsigned maxErrors = 20;
  bool warningsAsErrors = false;
  unsigned errorCount = 0;
  unsigned warningCount = 0;
  bool limitHit = false;
};

} // namespace blk

#endif // BLK_SUPPORT_DIAGNOSTIC_H
