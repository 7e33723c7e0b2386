//===- Diagnostic.cpp - Diagnostics and the DiagnosticEngine --------------===//
#include "blk/Support/Diagnostic.h"

#include "blk/Support/InternalError.h"

using namespace blk;

namespace {
struct DiagInfo {
  std::string_view name;
  Severity severity;
  std::string_view format;
};
} // namespace

static constexpr DiagInfo kDiagTable[] = {
#define DIAG(ID, SEVERITY, FORMAT) {#ID, Severity::SEVERITY, FORMAT},
#include "blk/Support/DiagnosticKinds.def"
#undef DIAG
};

static const DiagInfo &info(DiagId id) {
  auto index = static_cast<size_t>(id);
  BLK_ICE_ASSERT(index < std::size(kDiagTable), "diagnostics",
                 "invalid DiagId");
  return kDiagTable[index];
}

std::string_view blk::severityName(Severity severity) {
  switch (severity) {
  case Severity::Note:
    return "note";
  case Severity::Warning:
    return "warning";
  case Severity::Error:
    return "error";
  }
  return "error";
}

std::string_view blk::diagIdName(DiagId id) { return info(id).name; }
Severity blk::diagDefaultSeverity(DiagId id) { return info(id).severity; }
std::string_view blk::diagFormat(DiagId id) { return info(id).format; }

std::string blk::formatDiagnostic(std::string_view format,
                                  const std::vector<std::string> &args) {
  std::string out;
  out.reserve(format.size() + 16);
  for (size_t i = 0; i < format.size(); ++i) {
    char c = format[i];
    if ((c == '{' || c == '}') && i + 1 < format.size() && format[i + 1] == c) {
      out += c;
      ++i;
      continue;
    }
    if (c != '{') {
      out += c;
      continue;
    }
    size_t close = format.find('}', i);
    if (close == std::string_view::npos) {
      out += c;
      continue;
    }
    size_t index = 0;
    bool isIndex = close > i + 1;
    for (size_t j = i + 1; j < close; ++j) {
      if (format[j] < '0' || format[j] > '9') {
        isIndex = false;
        break;
      }
      index = index * 10 + static_cast<size_t>(format[j] - '0');
    }
    if (!isIndex) {
      out += c;
      continue;
    }
    if (index < args.size())
      out += args[index];
    i = close;
  }
  return out;
}

static std::vector<std::string> toStrings(std::vector<DiagArg> &args) {
  std::vector<std::string> out;
  out.reserve(args.size());
  for (DiagArg &a : args)
    out.push_back(std::move(a.text));
  return out;
}

InFlightDiagnostic::~InFlightDiagnostic() {
  if (engine)
    engine->emit(std::move(diag));
}

InFlightDiagnostic &InFlightDiagnostic::label(SourceRange range,
                                              std::string message) {
  diag.labels.push_back({range, std::move(message)});
  return *this;
}

InFlightDiagnostic &InFlightDiagnostic::note(DiagId id, SourceRange range,
                                             std::vector<DiagArg> args) {
  diag.notes.push_back(
      {id, formatDiagnostic(diagFormat(id), toStrings(args)), range});
  return *this;
}

InFlightDiagnostic &InFlightDiagnostic::fixIt(SourceRange range,
                                              std::string replacement) {
  diag.fixIts.push_back({range, std::move(replacement)});
  return *this;
}

InFlightDiagnostic DiagnosticEngine::report(DiagId id, SourceRange range,
                                            std::vector<DiagArg> args) {
  Diagnostic d;
  d.id = id;
  d.severity = diagDefaultSeverity(id);
  d.message = formatDiagnostic(diagFormat(id), toStrings(args));
  d.range = range;
  return InFlightDiagnostic(this, std::move(d));
}

void DiagnosticEngine::emit(Diagnostic diag) {
  if (diag.severity == Severity::Warning && warningsAsErrors)
    diag.severity = Severity::Error;
  if (diag.severity == Severity::Error) {
    if (limitHit)
      return;
    if (maxErrors != 0 && errorCount >= maxErrors) {
      limitHit = true;
      Diagnostic stop;
      stop.id = DiagId::too_many_errors;
      stop.severity = Severity::Error;
      stop.message = std::string(diagFormat(DiagId::too_many_errors));
      diagnostics.push_back(std::move(stop));
      return;
    }
    ++errorCount;
  } else if (diag.severity == Severity::Warning) {
    ++warningCount;
  }
  diagnostics.push_back(std::move(diag));
}

void DiagnosticEngine::clear() {
  diagnostics.clear();
  errorCount = warningCount = 0;
  limitHit = false;
}
