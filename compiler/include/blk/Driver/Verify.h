//===- Verify.h - `--verify`: expected diagnostics in comments -*- C++ -*-===//
//
// A test file states the diagnostics it must produce:
//   foo(;            // expected-error {{expected expression}}
//   // expected-error@+1 {{unknown name `y`}}
//   // expected-warning@-2 {{unused}}
//   // expected-note@*  {{from `-D BLOCK=7`}}     (any line, or no location)
//   // expected-no-diagnostics                   (when none are expected)
// `@+N` / `@-N` are relative to the directive's line, `@N` is absolute.
// Each directive must match a distinct emitted diagnostic (or note) of the
// same severity on that line of the same file whose message contains the
// text; every emitted diagnostic and note must be matched.
//
//===----------------------------------------------------------------------===//
#ifndef BLK_DRIVER_VERIFY_H
#define BLK_DRIVER_VERIFY_H

#include "blk/Support/Diagnostic.h"
#include "blk/Support/SourceManager.h"

#include <vector>

namespace blk {

/// Checks `emitted` against the directives in `file`. Reports every
/// mismatch to `out` (a separate engine over the same SourceManager).
/// Returns true when everything matched.
bool verifyDiagnostics(const SourceManager &sm, FileId file,
                       const std::vector<Diagnostic> &emitted,
                       DiagnosticEngine &out);

} // namespace blk

#endif // BLK_DRIVER_VERIFY_H
